"""MkDocs hook: the docstrings' ``>>>`` examples render as Python console code, not as prose.

Python-Markdown would read ``['SceneStarted']`` in an example's output as a link reference. This hook adds
a Markdown preprocessor, before mkdocstrings reads the configuration, that fences every run of ``>>>`` /
``...`` lines and the output that follows them (up to a blank line) as a ``pycon`` block.
"""

from __future__ import annotations

from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from mkdocs.plugins import event_priority


class _FenceDoctests(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        in_example = False
        in_fence = False
        for line in lines:
            stripped = line.lstrip()
            if stripped.startswith("```"):
                in_fence = not in_fence
            if not in_fence and not in_example and stripped.startswith(">>> "):
                out += ["", "```pycon"]
                in_example = True
            elif in_example and not stripped:
                out += ["```", ""]
                in_example = False
            out.append(line)
        if in_example:
            out.append("```")
        return out


class DoctestFences(Extension):
    """Fence ``>>>`` examples (register after the fenced-code extension reads them: priority 30)."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        md.preprocessors.register(_FenceDoctests(md), "doctest_fences", 30)


@event_priority(100)
def on_config(config: Any) -> Any:
    """Add the extension before any plugin (mkdocstrings) reads the Markdown configuration."""
    config.markdown_extensions.append(DoctestFences())
    return config
