"""Each leak class on every path out of the process: compress, output, the model request body, the
memory bank, engram and error messages. Real CLI in-process; respx answers as OpenAI."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import httpx
import pytest
import respx
from click.testing import CliRunner

from summarizer.cli import main
from summarizer.testing import openai_chat_body

from .leaks import LEAKS

URL = "https://api.openai.com/v1/chat/completions"
MODEL = "openai/gpt-4o-mini"
SINGLE_LINE = [name for name, (text, _) in LEAKS.items() if "\n" not in text]
ALL_SECRETS = [s for _, secrets in LEAKS.values() for s in secrets]


def _leaked(output: str) -> list[str]:
    return [s for s in ALL_SECRETS if s in output]


def _entry(summary: str, **extra: object) -> dict[str, object]:
    return {
        "summary": summary,
        "files_changed": ["backend/auth.py"],
        "from": "hermes",
        "to": "aphrodite",
        "status": "complete",
        **extra,
    }


def _reply(text: str) -> httpx.Response:
    return httpx.Response(200, json=openai_chat_body(text, prompt_tokens=100, completion_tokens=20))


@pytest.fixture
def model_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")


@pytest.mark.parametrize("name", list(LEAKS))
def test_compress_prints_no_secret(name: str, tmp_path: Path) -> None:
    """The leak is the entry's first sentence, which the template copies into the lines and fields."""
    entry = tmp_path / "entry.json"
    entry.write_text(json.dumps(_entry(LEAKS[name][0] + ". Added POST /api/auth/refresh returning 200.")))
    result = CliRunner().invoke(main, ["compress", str(entry), "--json"])
    assert result.exit_code == 0, result.output
    assert _leaked(result.output) == []


def test_the_model_request_body_carries_no_secret(tmp_path: Path, model_env: None) -> None:
    """Every leak class in one entry: the JSON litellm posts holds none of them."""
    summary = "Added POST /api/auth/refresh returning 200. " + " Also: ".join(t for t, _ in LEAKS.values())
    entry = tmp_path / "entry.json"
    entry.write_text(json.dumps(_entry(summary, unblocks="aphrodite login")))
    with respx.mock(assert_all_mocked=True) as mock:
        route = mock.post(URL).mock(return_value=_reply("x"))
        result = CliRunner().invoke(main, ["compress", str(entry), "--json", "--model", MODEL, "--no-cache"])
    assert result.exit_code == 0, result.output
    assert route.call_count >= 1
    body = json.dumps(json.loads(route.calls[0].request.content), ensure_ascii=False)
    assert "Added POST /api/auth/refresh" in body
    assert _leaked(body) == []


@pytest.mark.parametrize("mode", ["text", "json"])
def test_output_prints_no_secret(tmp_path: Path, mode: str) -> None:
    """A log with every leak class on error lines (kept as coordinates) and filler around them."""
    lines = [f"2026-11-29 10:{i // 60:02d}:{i % 60:02d} INFO worker step {i} ok" for i in range(400)]
    for text, _ in LEAKS.values():
        lines.insert(200, "ERROR " + text)
    log = tmp_path / "build.log"
    log.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(main, ["output", str(log), *(["--json"] if mode == "json" else [])])
    assert result.exit_code == 0, result.output
    assert "ERROR" in result.output and _leaked(result.output) == []


def test_the_memory_bank_holds_no_secret(tmp_path: Path) -> None:
    """One entry per leak class gated into a bank: no file under the bank holds a secret."""
    batch = tmp_path / "phase.jsonl"
    rows = [
        _entry(text + ". Added POST /api/auth/refresh returning 200.", phase="2", date=f"2026-11-{10 + i}")
        for i, (text, _) in enumerate(LEAKS.values())
    ]
    batch.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    bank = tmp_path / "bank"
    result = CliRunner().invoke(
        main, ["gate", str(batch), "--phase", "2", "--bank", str(bank), "--date", "2026-11-29"]
    )
    assert result.exit_code == 0, result.output
    written = "".join(p.read_text(encoding="utf-8") for p in bank.rglob("*") if p.is_file())
    assert "hermes" in written and "REDACTED" in written
    assert _leaked(written + result.output) == []


def test_engram_holds_no_secret(tmp_path: Path) -> None:
    """A transcript whose decisions and failures quote every leak: what is saved and recovered holds none."""
    messages = [
        {"role": "system", "content": "You are a coding agent working in shopapi."},
        {"role": "user", "content": "The token refresh test is flaky on CI. Can you fix it?"},
    ]
    for text, _ in LEAKS.values():
        messages.append({"role": "assistant", "content": f"We decided to keep this as is: {text}"})
        messages.append({"role": "user", "content": f"That failed again with {text}"})
    transcript = tmp_path / "session.jsonl"
    transcript.write_text("\n".join(json.dumps(m, ensure_ascii=False) for m in messages) + "\n")
    result = CliRunner().invoke(
        main, ["session", str(transcript), "--date", "2026-11-29", "--json", "--project", "leaks", "--force"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["action"] == "saved"
    recovered = CliRunner().invoke(main, ["recover", "--project", "leaks"]).output
    with closing(sqlite3.connect(Path(os.environ["ENGRAM_DATA_DIR"]) / "engram.db")) as db:
        stored = " ".join(str(row) for row in db.execute("SELECT title, content FROM observations"))
    assert "decided to keep" in stored.lower() or "keep this as is" in stored
    assert _leaked(stored + recovered + result.output) == []


@pytest.mark.parametrize("name", [n for n in SINGLE_LINE if "/" not in LEAKS[n][0]])
def test_an_error_message_never_echoes_a_secret(name: str, tmp_path: Path) -> None:
    """A missing file named after the secret: the one-line error on stderr is scrubbed."""
    result = CliRunner().invoke(main, ["compress", str(tmp_path / LEAKS[name][0])])
    assert result.exit_code == 2
    assert "not found" in result.stderr and _leaked(result.stderr) == []


def test_a_malformed_cache_url_never_prints_its_password(monkeypatch: pytest.MonkeyPatch) -> None:
    """`cache stats` reports the bad URL without the password; so does any warning about it."""
    monkeypatch.setenv("SUMMARIZER_CACHE_URL", "redis://:pa55/w0rd@x@cache-host:notaport/0")
    result = CliRunner().invoke(main, ["cache", "stats"])
    assert result.exit_code == 1 and "cache-host" in result.stderr
    assert "pa55" not in result.output and "w0rd" not in result.output


def test_eval_outputs_hold_no_secret(tmp_path: Path) -> None:
    """A dataset whose entries and expected facts quote every leak: results.jsonl, report.md, summary.json,
    report.html and the eval cell database hold none of them (the cells are scrubbed when written)."""
    rows = [
        {
            "id": f"leak-{i}",
            "kind": "phase_gate",
            "subtask_summary": _entry(text + ". Added POST /api/auth/refresh returning 200.", phase="1"),
            "next_agent": "aphrodite",
            "facts": [{"kind": "endpoint", "value": "POST /api/auth/refresh"}]
            + [{"kind": "detail", "value": s} for s in secrets],
        }
        for i, (text, secrets) in enumerate(LEAKS.values())
    ]
    for row in rows:
        summary = row["subtask_summary"]
        assert isinstance(summary, dict)
        summary["from_agent"], summary["to_agent"] = summary.pop("from"), summary.pop("to")
    dataset = tmp_path / "leaks.jsonl"
    dataset.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["eval", str(dataset), "--offline", "--out", str(out)])
    assert result.exit_code == 0, result.output
    written = {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}
    assert {"results.jsonl", "report.md", "report.html"} <= set(written)
    assert "REDACTED" in written["results.jsonl"]
    db = Path(os.environ["SUMMARIZER_CACHE_DIR"]) / "eval" / "results.sqlite3"
    with closing(sqlite3.connect(db)) as conn:
        cells = " ".join(str(v) for (v,) in conn.execute("SELECT value FROM cells"))
    assert cells.count("leak-") >= len(LEAKS)
    assert {name: _leaked(text) for name, text in written.items() if _leaked(text)} == {}
    assert _leaked(cells + result.output) == []


def _log_with_leaks() -> str:
    lines = [f"2026-11-29 10:{i // 60:02d}:{i % 60:02d} INFO worker step {i} ok" for i in range(400)]
    for text, _ in LEAKS.values():
        lines.insert(200, "ERROR " + text)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("mode", ["text", "json"])
def test_output_on_a_cache_that_cannot_be_written_prints_no_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """SUMMARIZER_CACHE_DIR=/dev/null: the original is not stored (exit 1, one line), and what is
    printed instead is the input scrubbed, never a raw pass-through."""
    monkeypatch.setenv("SUMMARIZER_CACHE_DIR", os.devnull)
    log = tmp_path / "build.log"
    log.write_text(_log_with_leaks())
    result = CliRunner().invoke(main, ["output", str(log), *(["--json"] if mode == "json" else [])])
    assert result.exit_code == 1
    assert "could not store the original" in result.stderr
    assert "INFO worker step 399 ok" in result.stdout and "[REDACTED:" in result.stdout
    assert _leaked(result.stdout + result.stderr) == []


def test_two_key_blocks_in_a_compressed_log_leak_no_body_line(tmp_path: Path) -> None:
    """Two private keys whose identical BEGIN lines fold into one pattern row, with body lines
    that are kept as failures (they follow `ERROR`): no body line is printed raw."""
    bodies = [
        [f"{c}{k}" * 3 + "Zq9XwL2mNp4Rt7Yb" + "-_x" * 8 for c in ("MIIEow", "q9R8s7", "Tu5V4w", "Bf5Lh2")]
        for k in range(2)
    ]
    lines = [f"2026-11-29 10:00:{i % 60:02d} INFO worker step {i} ok" for i in range(300)]
    for body in bodies:
        lines += [
            "-----BEGIN RSA PRIVATE KEY-----",
            *(f"ERROR {b}" for b in body),
            "-----END RSA PRIVATE KEY-----",
        ]
        lines += [f"2026-11-29 11:00:{i % 60:02d} INFO worker step {i} ok" for i in range(200)]
    log = tmp_path / "keys.log"
    log.write_text("\n".join(lines) + "\n")
    for args in ([], ["--json"]):
        result = CliRunner().invoke(main, ["output", str(log), "--target", "400", *args])
        assert result.exit_code == 0, result.output
        assert "private_key" in result.output
        assert [b for body in bodies for b in body if b[:24] in result.output] == []


def test_run_on_a_cache_that_cannot_be_written_prints_no_secret(tmp_path: Path, summarizer: str) -> None:
    """`summarizer run` past the pass-through size with SUMMARIZER_CACHE_DIR=/dev/null: the output
    after the streamed head is printed scrubbed, with the command's own exit status."""
    log = tmp_path / "big.log"
    log.write_text(
        "\n".join(["2026-11-29 INFO warming up the worker pool"] * 100) + "\n" + _log_with_leaks() * 3
    )
    env = {**os.environ, "SUMMARIZER_CACHE_DIR": os.devnull}
    script = f"import sys; sys.stdout.write(open({str(log)!r}).read()); sys.exit(3)"
    done = subprocess.run(
        [summarizer, "run", "--", sys.executable, "-c", script],
        capture_output=True,
        env=env,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 3
    out = done.stdout.decode()
    assert "INFO worker step 399 ok" in out and "[REDACTED:" in out
    assert _leaked(out + done.stderr.decode()) == []


@pytest.mark.parametrize("where", ["--project", ".engram/config.json"])
def test_a_secret_project_name_is_never_stored_or_printed(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A token pasted as the project name (flag or engram's config file): the project column, the
    topic key and what session and recover print hold only its placeholder."""
    token = "ghp_Pq7Rs8Tu9Vw0Xy1Za2Bc3De4Fg5Hi6Jk7Lm8N"
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(json.dumps({"role": "user", "content": "We decided to use pnpm, not npm."}) + "\n")
    flags = ["--project", token] if where == "--project" else []
    if where != "--project":
        (tmp_path / ".engram").mkdir()
        (tmp_path / ".engram" / "config.json").write_text(json.dumps({"project": token}))
        monkeypatch.chdir(tmp_path)
    saved = CliRunner().invoke(main, ["session", str(transcript), "--force", "--date", "2026-11-29", *flags])
    assert saved.exit_code == 0, saved.output
    recovered = CliRunner().invoke(main, ["recover", *flags])
    assert recovered.exit_code == 0, recovered.output
    with closing(sqlite3.connect(Path(os.environ["ENGRAM_DATA_DIR"]) / "engram.db")) as db:
        rows = " ".join(
            str(r) for r in db.execute("SELECT project, topic_key, title, content FROM observations")
        )
    assert "pnpm" in rows and "REDACTED" in rows
    assert token[4:] not in rows + saved.output + recovered.output
