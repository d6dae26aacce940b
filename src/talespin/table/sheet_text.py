"""A sheet given as text (YAML or JSON), read and checked: the verdict the CLI prints and a page shows.

``talespin ii character validate FILE``, ``talespin ascend hero validate FILE`` and the page that pastes or
uploads a sheet all reach the verdict here, through the one document reader
(:func:`talespin.documents.read_source`), so ``yes``, ``010`` and a repeated key are read alike everywhere
and the browser never parses a sheet itself.

A repeated key is lost from the data (the last value wins); a system whose sheets have a rule against it
(Ascend's AS-HERO-2: names are unique within their kind) says so with a ``repeated_key_errors(paths)``
method, and each repeated key is then an error of that rule, listed first.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..documents import Document, DocumentError, Kind, read_source
from ..systems import MalformedCommand, RuleSystem
from ..systems.protocol import RulesT, StateT

__all__ = ["read_sheet_text", "sheet_verdict"]


def sheet_verdict(
    system: RuleSystem[StateT, RulesT], document: Document, rules: RulesT | None = None
) -> dict[str, Any]:
    """``{"valid", "cost", "errors"}`` of a parsed sheet under ``rules`` (default: the shipped ones), its
    repeated keys counted where a rule forbids."""
    verdict = system.validate_sheet(document.data, rules)
    repeated: Callable[[list[str]], list[dict[str, Any]]] | None = getattr(
        system, "repeated_key_errors", None
    )
    extra = repeated(document.repeated) if repeated is not None and document.repeated else []
    if extra:
        verdict = {**verdict, "valid": False, "errors": extra + list(verdict["errors"])}
    return verdict


def read_sheet_text(
    system: RuleSystem[StateT, RulesT],
    text: str,
    kind: Kind = "yaml",
    name: Path | str = "the sheet",
    rules: RulesT | None = None,
) -> dict[str, Any]:
    """The verdict on a sheet's text under ``rules`` (default: the shipped ones) plus ``"sheet"``, its data;
    unreadable text is a MalformedCommand.

    The refusal keeps the reader's code (``unparsable_file``, ``bad_text``, ``out_of_range``) and path, as
    the CLI's exit 2 does for a file.
    """
    try:
        document = read_source(name, text, kind)
    except DocumentError as error:
        raise MalformedCommand(error.message, code=error.code, path=error.path) from None
    return {**sheet_verdict(system, document, rules), "sheet": document.data}
