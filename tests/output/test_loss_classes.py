"""Reproductions of the losses found on outputs the corpus had not seen, one per class.

Each case plants real-shaped failure lines into real noise (a ``find`` listing, HDFS INFO records)
and checks that the failure survives a small target, where before it was dropped as noise.
"""

from __future__ import annotations

import random

from tests.output.conftest import Run, fixture_bytes

_FIND = fixture_bytes("noise_find_listing.txt").decode().splitlines()
_HDFS = fixture_bytes("noise_hdfs_info.txt").decode().splitlines()


def _plant(noise: list[str], planted: list[str], seed: int = 7) -> bytes:
    rng = random.Random(seed)
    lines = list(noise)
    for line in planted:
        lines.insert(rng.randrange(len(lines) + 1), line)
    return ("\n".join(lines) + "\n").encode()


def test_coreutils_diagnostics_survive_in_a_find_listing(run: Run) -> None:
    """``prog: path: message`` lines of find, ls, cp, rm, tar and chmod are failures, not paths."""
    planted = [
        "find: '/usr/share/polkit-1/rules.d': Permission denied",
        "ls: cannot open directory '/root/.ssh': Permission denied",
        "cp: cannot create regular file '/etc/motd': Read-only file system",
        "rm: cannot remove '/srv/data/lock': Operation not permitted",
        "tar: var/lib/secret: Cannot open: Permission denied",
        "chmod: changing permissions of '/etc/shadow': Operation not permitted",
        "mv: missing destination file operand after 'a.txt'",
    ]
    result = run(_plant(_FIND, planted), target=500)
    for line in planted:
        assert line in result.text


def test_every_git_conflict_is_kept(run: Run) -> None:
    """441 ``CONFLICT`` lines among ``Auto-merging`` noise: every conflicting file survives."""
    lines = []
    for i in range(441):
        lines.append(f"Auto-merging src/module_{i}/handlers.py")
        lines.append(f"CONFLICT (content): Merge conflict in src/module_{i}/handlers.py")
    lines.append("CONFLICT (modify/delete): docs/old.md deleted in HEAD and modified in feature.")
    lines.append("Automatic merge failed; fix conflicts and then commit the result.")
    result = run(("\n".join(lines) + "\n").encode(), target=500)
    for i in range(441):
        assert f"src/module_{i}/handlers.py" in result.text
    assert "docs/old.md deleted in HEAD" in result.text


def test_git_error_keeps_its_file_list_and_hints(run: Run) -> None:
    """An ``error:`` line ending in a colon keeps the indented list it announces; hints survive."""
    noise = [f"remote: Counting objects: {i}% ({i}/100)" for i in range(100)]
    block = [
        "error: Your local changes to the following files would be overwritten by merge:",
        "\tsrc/app/settings.py",
        "\tsrc/app/urls.py",
        "Please commit your changes or stash them before you merge.",
        "Aborting",
        "hint: Updates were rejected because the tip of your current branch is behind",
        "fatal: Not possible to fast-forward, aborting.",
    ]
    result = run(("\n".join(noise + block + noise) + "\n").encode(), target=200)
    for line in block:
        if line != "Please commit your changes or stash them before you merge.":
            assert line.strip() in result.text


def test_an_error_deep_inside_a_very_long_line_is_kept_with_a_window(run: Run) -> None:
    """An error 100 KB into one line (and one 5 KB in) is shown with its byte range and restore hint."""
    filler = ",".join(f'{{"id":{i},"state":"ok"}}' for i in range(6000))
    deep = filler + ',{"id":99,"state":"error","reason":"disk quota exceeded on vol-7"},' + filler
    near = filler[:5000] + " Traceback: ValueError: bad checksum 0x1f " + filler[:3000]
    data = "\n".join(["start", deep, "middle", near, "end"]).encode() + b"\n"
    assert len(deep) > 200_000
    result = run(data, target=500)
    assert "disk quota exceeded on vol-7" in result.text
    assert "ValueError: bad checksum 0x1f" in result.text
    assert "restore --lines 2:2" in result.text


def test_a_validation_block_keeps_every_announced_error(run: Run) -> None:
    """``7 validation errors for Settings``: all seven field paths and messages survive."""
    items = [(f"services.{17 + i}.port", "Input should be less than or equal to 65535") for i in range(4)] + [
        ("database.url", "Field required"),
        ("log.level", "Input should be 'debug', 'info' or 'warning'"),
        ("workers", "Input should be a valid integer, unable to parse string as an integer"),
    ]
    block = [
        "Traceback (most recent call last):",
        '  File "/srv/app/main.py", line 12, in <module>',
        "    settings = Settings(**raw)",
        "pydantic_core._pydantic_core.ValidationError: 7 validation errors for Settings",
    ]
    for path, message in items:
        block += [path, f"  {message} [type=x, input_value=70000, input_type=int]"]
        block.append("    For further information visit https://errors.pydantic.dev/2.5/v/x")
    data = _plant(_HDFS[:600], []) + ("\n".join(block) + "\n").encode() + _plant(_HDFS[600:900], [])
    result = run(data, target=500)
    for path, message in items:
        assert path in result.text
        assert message in result.text


def test_http_5xx_at_info_level_and_4xx_in_a_test_log_are_failures(run: Run) -> None:
    """Access-log lines logged at INFO: the 500 and the 404 are kept, the 200s are counted."""
    ok = [
        f"INFO:werkzeug:127.0.0.1 - - [01/Dec/2026 14:{i // 60:02d}:{i % 60:02d}]"
        f' "GET /orders/{i}/items HTTP/1.1" 200 -'
        for i in range(900)
    ]
    planted = [
        'INFO:werkzeug:127.0.0.1 - - [01/Dec/2026 14:30:00] "GET /orders/23/total HTTP/1.1" 500 -',
        'INFO:werkzeug:127.0.0.1 - - [01/Dec/2026 14:31:00] "POST /cart/checkout HTTP/1.1" 404 -',
    ]
    result = run(_plant(ok, planted), target=500)
    for line in planted:
        assert line.split("] ", 1)[1] in result.text
    assert '"GET /orders/5/items HTTP/1.1" 200' not in result.text or "×" in result.text


def test_mypy_codes_stay_with_every_message(run: Run) -> None:
    """Repeated mypy messages keep their error code on every line, not only the first."""
    lines = [
        f'app/m{i}.py:{i + 3}: error: Argument 1 to "f" has incompatible type "int";'
        ' expected "str"  [arg-type]'
        for i in range(30)
    ]
    summary = "Found 30 errors in 30 files (checked 40 source files)"
    data = ("\n".join([*_FIND[:300], *lines, summary]) + "\n").encode()
    result = run(data, target=500)
    for i in range(30):
        line = next(x for x in result.text.splitlines() if f"app/m{i}.py" in x)
        assert "[arg-type]" in line


def test_make_keeps_its_final_error_and_not_remade_lines(run: Run) -> None:
    """make's ``*** [...] Error 1`` and ``not remade`` verdicts survive."""
    noise = [f"cc -O2 -c src/file{i}.c -o build/file{i}.o" for i in range(300)]
    tail = [
        "make[1]: *** [Makefile:12: build/x.o] Error 1",
        "make: *** [Makefile:5: all] Error 2",
        "make: Target 'all' not remade because of errors.",
    ]
    result = run(("\n".join(noise + tail) + "\n").encode(), target=200)
    for line in tail:
        assert line in result.text


def test_a_repeated_traceback_line_is_printed_once(run: Run) -> None:
    """A frame line seen twice (a list comprehension's frame) is kept once with its [×2] note, not
    kept and then listed again among the repeating patterns."""
    result = run(fixture_bytes("python_traceback_repeated_frame.log"), target=3000)
    frame = "return [parse(i) for i in items]"
    assert result.text.count(frame) == 1
    assert "[×2, lines 3005…3008]" in result.text
    assert "JSONDecodeError: Expecting property name" in result.text
