"""Reading the files of ``talespin ascend``: sheets and scripts in YAML or JSON, and ``--faces`` text.

Reading stays in the CLI (the rules engine does no I/O); the parsing is the server's own
(:func:`talespin.documents.read_source`). A YAML or JSON mapping that repeats a key would silently keep only
the last value, so the reader reports every repeated key with its path (``traits.Agility``): for a hero
sheet that breaks AS-HERO-2 (names are unique within their kind).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from .. import documents
from ..documents import MAX_DEPTH
from .output import BadInput

__all__ = ["MAX_DEPTH", "STDIN", "Document", "is_stdin", "parse_faces", "read_document", "read_input"]

STDIN = "-"
"""A file argument of ``-`` reads standard input, as command-line tools do."""


def is_stdin(path: Path) -> bool:
    """True for the file argument ``-`` (standard input)."""
    return str(path) == STDIN


def read_input(path: Path) -> tuple[str, str]:
    """The text of a file, or of standard input for ``-``, and the name messages give it.

    Standard input is read like a file: at most :data:`~talespin.documents.MAX_BYTES` bytes of UTF-8.
    """
    if not is_stdin(path):
        return documents.read_text(path), str(path)
    raw = sys.stdin.buffer.read(documents.MAX_BYTES + 1)
    return documents.decode_text(raw, "standard input"), "standard input"


class Document(documents.Document):
    """A parsed file (:class:`talespin.documents.Document`) that the CLI may refuse for a repeated key."""

    def strict(self, what: str) -> Any:
        """The data, or BadInput when a key is repeated (a script, or a sheet that is not being validated)."""
        if self.repeated:
            raise BadInput(
                f"{what} repeats the key {self.repeated[0]!r}: each key may appear once in a mapping",
                code="duplicate_key",
                path=self.repeated[0],
            )
        return self.data


def read_document(path: Path) -> Document:
    """A YAML or JSON file (``-``: standard input, read as YAML, which JSON is too) with its repeated keys,
    or BadInput (exit 2) when it cannot be read or parsed.

    The reading itself, and its limits (size, nesting, aliases, texts, numbers), are
    :func:`talespin.documents.read_document`'s: the same as the server's.
    """
    try:
        text, name = read_input(path)
        kind: documents.Kind = "json" if path.suffix.lower() == ".json" else "yaml"
        document = documents.read_source(name, text, kind)
    except documents.DocumentError as error:
        extra = {} if error.path is None else {"path": error.path}
        raise BadInput(error.message, code=error.code, **extra) from None
    return Document(document.data, document.repeated)


def parse_faces(text: str) -> list[int]:
    """``"0,3,9"`` → ``[0, 3, 9]``; an empty text is no dice (a pool of 0)."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    try:
        return [int(part) for part in parts]
    except ValueError:
        raise BadInput(
            f"faces are whole numbers separated by ',' (one per die, e.g. \"0,3,9\"), got {text!r}",
            code="bad_faces",
        ) from None
