// summarizer for OpenCode: compresses the output of the `bash` tool after it runs, keeping every
// error coordinate and a `summarizer restore <id>` line for the full output.
// Installed by `summarizer init opencode`; removed by `summarizer init opencode --uninstall`.
// summarizer-plugin: v1
import { spawnSync } from "node:child_process";

const SUMMARIZER = "__SUMMARIZER__";
// Outputs under about 500 tokens pass through unchanged anyway: skip starting a process for them.
const MIN_BYTES = 2000;

function compressBashOutput(input, output, run = spawnSync) {
  if (!input || input.tool !== "bash" || !output || typeof output.output !== "string") return false;
  if (Buffer.byteLength(output.output, "utf8") < MIN_BYTES) return false;
  const args = ["output"];
  const exit = output.metadata ? output.metadata.exit : undefined;
  if (Number.isInteger(exit)) args.push("--exit-code", String(exit));
  const done = run(SUMMARIZER, args, {
    input: output.output,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120000,
  });
  // Any failure leaves the tool's output as it was: never lose what the command printed.
  if (done.error || done.status !== 0 || typeof done.stdout !== "string" || done.stdout === "") return false;
  output.output = done.stdout;
  return true;
}

export const SummarizerPlugin = async () => ({
  "tool.execute.after": async (input, output) => {
    compressBashOutput(input, output);
  },
});

// Not a named export: OpenCode calls every exported function as a plugin.
SummarizerPlugin.compressBashOutput = compressBashOutput;
