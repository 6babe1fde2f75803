// summarizer for OpenCode: compresses the output of the `bash` tool after it runs, keeping every
// error coordinate and a `summarizer restore <id>` line for the full output.
// Installed by `summarizer init opencode`; removed by `summarizer init opencode --uninstall`.
// summarizer-plugin: v2
// @ts-check
import { spawn } from "node:child_process";

const SUMMARIZER = "__SUMMARIZER__";
// Outputs under about 500 tokens pass through unchanged anyway: skip starting a process for them.
const MIN_BYTES = 2000;
const TIMEOUT_MS = 120000;

/**
 * Run `summarizer output` on `text` without blocking OpenCode's event loop.
 * @param {string[]} args
 * @param {string} text
 * @param {typeof spawn} run
 * @returns {Promise<string | null>} the compressed output, or null on any failure
 */
function summarize(args, text, run) {
  return new Promise((resolve) => {
    /** @type {import("node:child_process").ChildProcessWithoutNullStreams} */
    let child;
    try {
      child = run(SUMMARIZER, args, { stdio: ["pipe", "pipe", "pipe"] });
    } catch {
      resolve(null);
      return;
    }
    /** @type {Buffer[]} */
    const chunks = [];
    const timer = setTimeout(() => child.kill("SIGTERM"), TIMEOUT_MS);
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stderr.resume();
    child.on("error", () => {
      clearTimeout(timer);
      resolve(null);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const out = Buffer.concat(chunks).toString("utf8");
      resolve(code === 0 && out !== "" ? out : null);
    });
    child.stdin.on("error", () => {}); // a child that exits early closes its stdin: not our failure
    child.stdin.end(text, "utf8");
  });
}

/**
 * Replace a large `bash` output by summarizer's rendering; any failure keeps the output as it was.
 * @param {{ tool: string }} input
 * @param {{ output: string, metadata?: any }} output
 * @param {typeof spawn} [run]
 * @returns {Promise<boolean>} whether the output was replaced
 */
async function compressBashOutput(input, output, run = spawn) {
  if (!input || input.tool !== "bash" || !output || typeof output.output !== "string") return false;
  if (Buffer.byteLength(output.output, "utf8") < MIN_BYTES) return false;
  const args = ["output"];
  const exit = output.metadata ? output.metadata.exit : undefined;
  if (Number.isInteger(exit)) args.push("--exit-code", String(exit));
  const done = await summarize(args, output.output, run);
  if (done === null) return false;
  output.output = done;
  return true;
}

/** @type {import("@opencode-ai/plugin").Plugin} */
export const SummarizerPlugin = async () => ({
  "tool.execute.after": async (input, output) => {
    await compressBashOutput(input, output);
  },
});

// Not a named export: OpenCode calls every exported function as a plugin.
Object.assign(SummarizerPlugin, { compressBashOutput });
