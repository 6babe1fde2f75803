"""Failures of a recorded command, from a second run with the tool's structured reporter.

Each function takes the command as the agent typed it and the project folder, re-runs it with
the reporter that tool has (JUnit XML, ``-O json``, ``--output-format=json``, ``--reporter=json``,
``--format json``, or tsc's one-line ``--pretty false`` form), and returns the failures:
``{"kind": "test", "name": ...}`` or ``{"kind": "diag", "file": ..., "line": ..., "code": ...}``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

Failure = dict[str, object]


ENV: dict[str, str] = dict(os.environ)  # the recorder sets the session's PATH here


def _sh(cmd: str, cwd: Path) -> str:
    done = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=ENV, capture_output=True, text=True, check=False)
    return done.stdout


def pytest(cmd: str, cwd: Path) -> list[Failure]:
    """Failing and erroring test cases from ``--junitxml``."""
    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "junit.xml"
        _sh(f"{cmd} -p no:cacheprovider --junitxml={xml} >/dev/null 2>&1", cwd)
        if not xml.exists():
            return []
        out: list[Failure] = []
        for tc in ET.parse(xml).getroot().iter("testcase"):
            if tc.find("failure") is not None or tc.find("error") is not None:
                out.append({"kind": "test", "name": tc.get("name", "")})
        return out


def mypy(cmd: str, cwd: Path) -> list[Failure]:
    """Errors from ``-O json``."""
    out: list[Failure] = []
    for line in _sh(f"{cmd} -O json 2>/dev/null", cwd).splitlines():
        if not line.startswith("{"):
            continue
        d = json.loads(line)
        if d["severity"] == "error":
            out.append({"kind": "diag", "file": d["file"], "line": d["line"], "code": d["code"] or ""})
    return out


def ruff(cmd: str, cwd: Path) -> list[Failure]:
    """Violations from ``--output-format=json``."""
    raw = _sh(f"{cmd} --output-format=json 2>/dev/null", cwd)
    return [
        {
            "kind": "diag",
            "file": os.path.relpath(d["filename"], cwd),
            "line": d["location"]["row"],
            "code": d["code"] or "",
        }
        for d in json.loads(raw or "[]")
    ]


def vitest(cmd: str, cwd: Path) -> list[Failure]:
    """Failed assertions from ``--reporter=json``."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        _sh(f"{cmd} --reporter=json --outputFile={report} >/dev/null 2>&1", cwd)
        if not report.exists():
            return []
        data = json.loads(report.read_text())
        return [
            {"kind": "test", "name": a["title"]}
            for suite in data["testResults"]
            for a in suite["assertionResults"]
            if a["status"] == "failed"
        ]


_TSC = re.compile(r"^(?P<file>[^(\s][^(]*)\((?P<line>\d+),(?P<col>\d+)\): error (?P<code>TS\d+):")


def tsc(cmd: str, cwd: Path) -> list[Failure]:
    """Errors from tsc's one-diagnostic-per-line form (``--pretty false``)."""
    out: list[Failure] = []
    for line in _sh(f"{cmd} --pretty false 2>&1", cwd).splitlines():
        m = _TSC.match(line)
        if m:
            out.append({"kind": "diag", "file": m["file"], "line": int(m["line"]), "code": m["code"]})
    return out


def eslint(cmd: str, cwd: Path) -> list[Failure]:
    """Errors (severity 2) from ``--format json``."""
    raw = _sh(f"{cmd} --format json 2>/dev/null", cwd)
    out: list[Failure] = []
    for result in json.loads(raw or "[]"):
        for m in result["messages"]:
            if m["severity"] == 2:
                rel = os.path.relpath(result["filePath"], cwd)
                out.append(
                    {"kind": "diag", "file": rel, "line": m.get("line", 0), "code": m.get("ruleId") or ""}
                )
    return out


TRUTH = {"pytest": pytest, "mypy": mypy, "ruff": ruff, "vitest": vitest, "tsc": tsc, "eslint": eslint}
