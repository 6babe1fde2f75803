"""``summarizer cache``: inspect and prune the summary cache (diskcache or Redis).

Thin adapter: load settings, build the cache with :func:`summarizer.app.build_cache`, call one
method, render. "Stale" means a namespace whose prompt digest no current prompt has (the prompt
text, a partial or the system prompt changed since); pruning those never touches live entries.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING

import click

from summarizer.cli._common import handle_errors
from summarizer.core.errors import SummarizerError

if TYPE_CHECKING:
    from summarizer_cache import CacheAdmin, NamespaceStats

    from summarizer.output.originals import OriginalStore
    from summarizer.output.originals_retention import Maintenance

__all__ = ["cache"]


def _open() -> tuple[CacheAdmin, set[str]]:
    """The configured cache and the digests of the prompts in use now."""
    from summarizer.app import build_cache
    from summarizer.core.settings import Settings
    from summarizer.semantic.prompts import PromptLibrary

    settings = Settings.load(os.environ)
    return build_cache(settings), set(PromptLibrary(settings.prompt_dir).digests().values())


def _size(n: int) -> str:
    value = float(n)
    for unit in ("B", "KiB", "MiB"):
        if value < 1024:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GiB"


def _table(rows: list[NamespaceStats]) -> list[str]:
    lines = [
        f"{'namespace':<18}{'prompt':<13}{'ver':<5}{'model':<28}{'entries':>8}{'size':>11}"
        f"{'hits':>7}{'misses':>8}  state"
    ]
    for r in rows:
        lines.append(
            f"{r.namespace[:16]:<18}{(r.prompt or '?')[:12]:<13}{(r.version or '?')[:4]:<5}"
            f"{(r.model or '?')[:27]:<28}{r.entries:>8}{_size(r.size_bytes):>11}{r.hits:>7}{r.misses:>8}"
            f"  {'stale' if r.stale else 'current'}"
        )
    return lines


@click.group()
def cache() -> None:
    """Inspect and prune the summary cache."""


@cache.command()
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@handle_errors
def stats(as_json: bool) -> None:
    """List namespaces with entries, size, hits and misses; stale ones are marked."""
    store, digests = _open()
    try:
        rows = store.stats(digests)
    finally:
        store.close()
    originals = _originals()
    if as_json:
        payload = {
            "location": store.location,
            "namespaces": [r.model_dump() for r in rows],
            "originals": originals_figures(originals),
        }
        click.echo(json.dumps(payload, indent=2))
        return
    click.echo(f"cache: {store.location}")
    if not rows:
        click.echo("empty")
    else:
        for line in _table(rows):
            click.echo(line)
        total = sum(r.entries for r in rows)
        stale = sum(1 for r in rows if r.stale)
        click.echo(f"{len(rows)} namespaces ({stale} stale), {total} entries")
    click.echo(originals_line(originals))


@cache.command()
@click.option("--stale", "mode", flag_value="stale", help="Remove namespaces no current prompt uses.")
@click.option("--all", "mode", flag_value="all", help="Remove everything (asks for confirmation).")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation with --all.")
@handle_errors
def prune(mode: str | None, yes: bool) -> None:
    """Remove stale namespaces (--stale) or clear the whole cache (--all)."""
    if mode is None:
        raise click.UsageError("choose --stale (safe) or --all (clears everything)")
    store, digests = _open()
    try:
        if mode == "stale":
            removed = store.prune_stale(digests)
            entries = sum(r.entries for r in removed)
            click.echo(f"removed {len(removed)} stale namespaces ({entries} entries) from {store.location}")
            click.echo(prune_line(_originals().maintain()))
            return
        if not yes and not _confirmed(f"Clear the whole summary cache at {store.location}?"):
            raise SummarizerError(f"{store.location} not cleared: no confirmation; pass --yes to clear")
        click.echo(f"removed {store.clear()} entries from {store.location}")
        click.echo(prune_line(_originals().maintain(everything=True)))
    finally:
        store.close()


# --- the originals store (restorable tool output): its own rows in stats and prune ---


def _originals() -> OriginalStore:
    from summarizer import app

    return app.build_originals(app.load_settings())


def originals_figures(store: OriginalStore) -> dict[str, object]:
    """The originals' count, size and limits, for ``cache stats --json``."""
    used = store.usage()
    return {
        "location": str(store.directory),
        "count": used.count,
        "bytes": used.bytes,
        "partial_files": used.partials,
        "partial_bytes": used.partial_bytes,
        "max_bytes": store.policy.max_bytes,
        "max_age_seconds": store.policy.max_age_s,
    }


def originals_line(store: OriginalStore) -> str:
    """One line: how many originals, how big, against which limits."""
    used = store.usage()
    days = store.policy.max_age_s / 86400
    line = (
        f"originals: {used.count} stored, {_size(used.bytes)} in {store.directory} "
        f"(cap {_size(store.policy.max_bytes)}, unused for {days:g} days evicted)"
    )
    if used.partials:
        line += f"; {used.partials} partial files ({_size(used.partial_bytes)}) of running or killed runs"
    return line


def prune_line(done: Maintenance) -> str:
    """What a prune removed from the originals store."""
    return (
        f"removed {done.evicted} originals ({_size(done.evicted_bytes)}) and {done.partials} "
        f"partial files of killed runs ({_size(done.partial_bytes)})"
    )


def _confirmed(question: str) -> bool:
    """Ask on the terminal. Without one nobody can answer, so it is a no, and nothing is printed:
    a script that forgot --yes gets the one-line error, not a dangling question."""
    if not sys.stdin.isatty():
        return False
    try:
        return click.confirm(question, err=True)
    except click.Abort:
        return False
