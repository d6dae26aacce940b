"""Printing results and errors the same way in every command.

Every command that takes ``--json`` prints exactly one JSON document on stdout. Errors the engine raises on
purpose (:class:`~talespin.dice.DiceError`, :class:`~talespin.systems.RulesError`, and bad input files)
become exit code 2 with ``{"error": {"code", "message", ...}}`` on stdout under ``--json`` and a human
message on stderr; nothing else is mapped, so a bug still shows as a bug.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from ..dice import DiceError
from ..systems import RulesError
from ..text import percent

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_INVALID",
    "BadInput",
    "console",
    "emit",
    "error_document",
    "fail",
    "fraction",
    "guarded",
    "make_console",
    "percent",
]

EXIT_INVALID = 1
"""A validation verdict of "invalid" (``character validate``)."""
EXIT_BAD_INPUT = 2
"""Bad input: the command could not be carried out."""

UNWRAPPED_WIDTH = 10_000
"""The width Rich lays out for when output goes to a pipe or a file: long lines are never folded."""


def make_console(*, stderr: bool = False) -> Console:
    """A Rich console that behaves as command-line tools are expected to.

    On a terminal it uses the terminal's width. Into a pipe or a file (``talespin verify … | less``,
    ``> out.txt``) nothing is hard-wrapped at 80 columns: lines are as long as their content (``COLUMNS``
    still sets a width when given). ``NO_COLOR`` (any non-empty value) turns colour off, and colour is never
    written into a pipe unless ``FORCE_COLOR`` asks for it.
    """
    stream = sys.stderr if stderr else sys.stdout
    piped = not stream.isatty()
    width = UNWRAPPED_WIDTH if piped and not os.environ.get("COLUMNS") else None
    no_color = True if os.environ.get("NO_COLOR") else None
    return Console(stderr=stderr, width=width, soft_wrap=piped, no_color=no_color)


console = make_console()
error_console = make_console(stderr=True)


class BadInput(Exception):
    """Input the CLI itself refuses (a missing file, unreadable YAML), with a stable code."""

    def __init__(self, message: str, code: str = "bad_input", **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.extra = extra


def fraction(p: Fraction) -> str:
    """An exact probability as the contract writes it: ``"numerator/denominator"`` in lowest terms."""
    return f"{p.numerator}/{p.denominator}"


def emit(payload: Mapping[str, Any], as_json: bool, render: Callable[[], None]) -> None:
    """Print ``payload`` as one JSON document, or call ``render`` to draw it for people."""
    if as_json:
        sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
    else:
        render()


def error_document(code: str, message: str, rule: str | None = None, **extra: Any) -> dict[str, Any]:
    """The contract's ``{"error": {"code", "message", "rule", ...}}``, ``rule`` always there (maybe null)."""
    return {"error": {"code": code, "message": message, "rule": rule, **extra}}


def fail(code: str, message: str, as_json: bool, **extra: Any) -> NoReturn:
    """Report bad input and exit with code 2 (under ``as_json``, one JSON error document on stdout)."""
    if as_json:
        sys.stdout.write(json.dumps(error_document(code, message, **extra), ensure_ascii=False) + "\n")
    error_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(EXIT_BAD_INPUT)


@contextmanager
def guarded(as_json: bool) -> Iterator[None]:
    """Turn the engine's own errors raised inside the block into exit code 2 with a clear message."""
    try:
        yield
    except DiceError as error:
        fail(error.code, error.message, as_json)
    except RulesError as error:
        body = error.to_json()
        fail(str(body.pop("code")), str(body.pop("message")), as_json, **body)
    except BadInput as error:
        fail(error.code, error.message, as_json, **error.extra)
