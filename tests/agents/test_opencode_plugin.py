"""The OpenCode plugin, loaded by node as OpenCode loads it, on recorded tool-call objects."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from summarizer.agents.install_opencode import plugin_source

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed; the plugin needs a JS runtime")

# What OpenCode hands `tool.execute.after` for a bash call: (input, output) as recorded.
BIG = "".join(f"tests/test_x.py::test_{i} PASSED\n" for i in range(3000))
BIG += "tests/test_y.py:12: AssertionError\nFAILED tests/test_y.py::test_bad - AssertionError\n"
CALLS = [
    (
        {"tool": "bash", "sessionID": "ses_1", "callID": "call_1"},
        {"title": "pytest", "output": BIG, "metadata": {"output": "", "exit": 1, "description": "Run tests"}},
    ),
    (
        {"tool": "bash", "sessionID": "ses_1", "callID": "call_2"},
        {"title": "ls", "output": "a.py\nb.py\n", "metadata": {"exit": 0}},
    ),
    (
        {"tool": "read", "sessionID": "ses_1", "callID": "call_3"},
        {"title": "x.py", "output": BIG, "metadata": {}},
    ),
]


def _run_plugin(tmp_path: Path, executable: str) -> list[dict[str, object]]:
    plugin = tmp_path / "summarizer.js"
    plugin.write_text(plugin_source(executable))
    script = (
        f"import {{ SummarizerPlugin }} from {json.dumps(plugin.as_uri())};\n"
        "const hooks = await SummarizerPlugin({ directory: process.cwd() });\n"
        f"const calls = {json.dumps(CALLS)};\n"
        "for (const [input, output] of calls) await hooks['tool.execute.after'](input, output);\n"
        "console.log(JSON.stringify(calls.map(([, output]) => output)));\n"
    )
    driver = tmp_path / "driver.mjs"
    driver.write_text(script)
    assert NODE is not None
    done = subprocess.run([NODE, str(driver)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


def test_the_plugin_compresses_large_bash_output_and_leaves_the_rest(summarizer: str, tmp_path: Path) -> None:
    """A large bash output becomes summarizer's rendering (exit code, failure, restore line);
    a small one and other tools' output stay as they were."""
    big, small, other = _run_plugin(tmp_path, summarizer)
    text = str(big["output"])
    assert "exit code: 1" in text and "tests/test_y.py::test_bad" in text
    assert text.rstrip().splitlines()[-1].startswith("[full output: summarizer restore ")
    assert len(text) < len(BIG) / 5
    assert small["output"] == "a.py\nb.py\n"
    assert other["output"] == BIG


def test_a_missing_summarizer_leaves_the_output_untouched(tmp_path: Path) -> None:
    """If the command cannot run, the tool's output is kept as it was (nothing is lost)."""
    big, _, _ = _run_plugin(tmp_path, str(tmp_path / "no-such-summarizer"))
    assert big["output"] == BIG


def test_the_plugin_does_not_block_the_event_loop(tmp_path: Path) -> None:
    """While summarizer runs (a stand-in that takes a second), OpenCode's timers still fire."""
    slow = tmp_path / "slow-summarizer"
    slow.write_text("#!/bin/sh\ncat > /dev/null\nsleep 1\necho compressed\n")
    slow.chmod(0o755)
    plugin = tmp_path / "summarizer.js"
    plugin.write_text(plugin_source(str(slow)))
    driver = tmp_path / "driver.mjs"
    driver.write_text(
        f"import {{ SummarizerPlugin }} from {json.dumps(plugin.as_uri())};\n"
        "const hooks = await SummarizerPlugin({});\n"
        "const events = [];\n"
        "const ticker = setInterval(() => events.push('tick'), 20);\n"
        f"const output = {{ output: {json.dumps(BIG)}, metadata: {{ exit: 0 }} }};\n"
        "await hooks['tool.execute.after']({ tool: 'bash' }, output);\n"
        "events.push('done');\n"
        "clearInterval(ticker);\n"
        "console.log(JSON.stringify({ events, output: output.output }));\n"
    )
    assert NODE is not None
    done = subprocess.run([NODE, str(driver)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["output"] == "compressed\n"
    assert result["events"].index("done") > 0 and "tick" in result["events"][:-1]


# `tsc --strict --checkJs` against @opencode-ai/plugin needs typescript and the plugin's types from
# npm; .ci/run installs them into .ci/tsc (network allowed there) and this test uses that folder.
TSC_DIR = Path(__file__).resolve().parents[2] / ".ci" / "tsc"


@pytest.mark.skipif(not (TSC_DIR / "node_modules" / "typescript").is_dir(), reason="no .ci/tsc (see .ci/run)")
def test_the_plugin_passes_the_strict_type_check(tmp_path: Path) -> None:
    """No implicit any, every callback typed against OpenCode's own Plugin type."""
    (TSC_DIR / "plugin.js").write_text(plugin_source("summarizer"))
    config = {
        "compilerOptions": {
            "strict": True,
            "checkJs": True,
            "allowJs": True,
            "noEmit": True,
            "module": "nodenext",
            "moduleResolution": "nodenext",
            "target": "es2022",
            "skipLibCheck": True,
            "types": ["node"],
        },
        "files": ["plugin.js"],
    }
    (TSC_DIR / "tsconfig.json").write_text(json.dumps(config))
    tsc = TSC_DIR / "node_modules" / ".bin" / "tsc"
    done = subprocess.run(
        [str(tsc), "-p", str(TSC_DIR / "tsconfig.json")], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
