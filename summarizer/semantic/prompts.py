"""Prompts are versioned data: jinja2 templates in a directory, loaded by one ``PromptLibrary``.

Layout of a prompt directory (the packaged one is ``prompts/`` in the checkout,
``summarizer/prompts/`` in the wheel; ``SUMMARIZER_PROMPTS`` points at your own copy):

* ``system.md.j2``: the system prompt shared by every call (it explains the untrusted-data block);
* ``<name>.md.j2``: one user prompt per summary kind (``critical``, ``high``, ``tool_output``,
  ``session``, ...);
* ``_<partial>.md.j2``: partials that templates ``{% include %}`` or ``{% import %}``.

Every template starts with a version header, ``{# version: 3 #}``. Rendering is pure and strict
(``StrictUndefined``: a missing variable is an error, never an empty string; ``autoescape=False``
because the output is a prompt, not HTML). The rendered prompt carries ``digest``: the hash of the
template source, every partial it pulls in, and the system prompt source. The cache namespace is
built from it, so editing one character of any of them segregates old cache entries on its own.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from pathlib import Path

import jinja2
import jinja2.meta
from pydantic import BaseModel, ConfigDict

from summarizer.core.errors import InputError, NotFound

__all__ = ["SYSTEM_PROMPT", "PromptLibrary", "RenderedPrompt", "parse_version"]

SYSTEM_PROMPT = "system"
_SUFFIX = ".md.j2"
_VERSION = re.compile(r"\A\s*\{#-?\s*version:\s*([A-Za-z0-9._-]+)\s*-?#\}")


class RenderedPrompt(BaseModel):
    """A prompt ready to send: system and user text, plus what identifies the prompt's source."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    version: str
    system: str
    user: str
    digest: str


def parse_version(source: str, *, name: str = "?") -> str:
    """The ``{# version: N #}`` header of a template source; an error names the template."""
    if match := _VERSION.match(source):
        return match.group(1)
    raise InputError(f"prompt {name!r} has no version header; start it with a line like '{{# version: 1 #}}'")


class PromptLibrary:
    """Loads, versions and renders the templates of one directory.

    Args:
        root: the prompt directory. Use :func:`summarizer.core.settings.default_prompt_dir` (or
            ``Settings.prompt_dir``) for the packaged prompts or the ``SUMMARIZER_PROMPTS`` override.
    """

    def __init__(self, root: Path) -> None:
        if not root.is_dir():
            raise NotFound(
                f"prompt directory {str(root)!r} does not exist; unset SUMMARIZER_PROMPTS "
                "or point it at a directory of *.md.j2 templates"
            )
        self.root = root
        self._env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(root),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=False,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self._digests: dict[str, str] = {}

    def names(self) -> tuple[str, ...]:
        """The user-prompt names in this directory (partials and the system prompt excluded)."""
        found = (p.name[: -len(_SUFFIX)] for p in self.root.glob(f"*{_SUFFIX}"))
        return tuple(sorted(n for n in found if not n.startswith("_") and n != SYSTEM_PROMPT))

    def source(self, name: str) -> str:
        """The raw text of template ``name`` (without the suffix)."""
        path = self.root / f"{name}{_SUFFIX}"
        if not path.is_file():
            raise NotFound(f"no prompt {name!r} in {str(self.root)!r}; available: {', '.join(self.names())}")
        return path.read_text(encoding="utf-8")

    def version(self, name: str) -> str:
        """The version declared in the template's header."""
        return parse_version(self.source(name), name=name)

    def digest(self, name: str) -> str:
        """Hash of the template source, its partials (recursively) and the system prompt source."""
        if name not in self._digests:
            h = hashlib.sha256()
            for part in (SYSTEM_PROMPT, *self._closure(name)):
                h.update(part.encode())
                h.update(b"\0")
                h.update(self.source(part).encode())
                h.update(b"\0")
            self._digests[name] = h.hexdigest()[:32]
        return self._digests[name]

    def digests(self) -> dict[str, str]:
        """``{name: digest}`` for every user prompt: the namespaces ``cache prune --stale`` keeps."""
        return {name: self.digest(name) for name in self.names()}

    def render(self, name: str, values: Mapping[str, object]) -> RenderedPrompt:
        """Render ``name`` and the system prompt with ``values``; a missing variable is an error."""
        version = self.version(name)
        parse_version(self.source(SYSTEM_PROMPT), name=SYSTEM_PROMPT)
        try:
            user = self._env.get_template(f"{name}{_SUFFIX}").render(**values)
            system = self._env.get_template(f"{SYSTEM_PROMPT}{_SUFFIX}").render(**values)
        except jinja2.UndefinedError as exc:
            raise InputError(f"prompt {name!r} cannot render: {exc.message}; pass that value") from exc
        except jinja2.TemplateError as exc:
            raise InputError(f"prompt {name!r} is not a valid jinja2 template: {exc}; fix it") from exc
        return RenderedPrompt(
            name=name, version=version, system=system.strip(), user=user.strip(), digest=self.digest(name)
        )

    def _closure(self, name: str) -> list[str]:
        """``name`` and every template it includes or imports, in a stable order."""
        seen: list[str] = []
        todo = [name]
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.append(current)
            try:
                ast = self._env.parse(self.source(current))
            except jinja2.TemplateSyntaxError as exc:
                raise InputError(f"prompt {current!r} line {exc.lineno}: {exc.message}; fix it") from exc
            for ref in jinja2.meta.find_referenced_templates(ast):
                if ref is not None and ref.endswith(_SUFFIX):
                    todo.append(ref[: -len(_SUFFIX)])
        return sorted(seen)
