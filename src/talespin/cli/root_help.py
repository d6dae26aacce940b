"""``talespin --help`` written without Typer or Rich, so the command's first answer comes at once.

The root's help is a fixed text: the usage line, what talespin is, its options and its commands with the
first paragraph of each one's help. It needs none of Typer's machinery, and importing Typer with its Rich
help formatter (Markdown parser included) costs many times Python's own start-up, so this module imports
nothing beyond the standard library and :func:`~talespin.cli.main` prints from it. A test checks that every
option and command listed here is the one the Typer app declares, word for word.

Into a terminal the text is wrapped to its width with headings and names in bold; into a pipe or a file it
is plain and never folded (``COLUMNS`` sets a width when given). ``NO_COLOR`` takes the bold away,
``FORCE_COLOR`` brings it into a pipe, as in the rest of the command line.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing (a tenth of the help's time)
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final, TextIO

__all__ = ["COMMANDS", "HELP", "OPTIONS", "USAGE", "print_root_help", "render", "wants_bold"]

USAGE: Final = "Usage: talespin [OPTIONS] COMMAND [ARGS]..."

HELP: Final = "Rules engines, exact odds and a live game table for Inciting Incident and Ascend."
"""What talespin is: the root command's help."""

VERSION_HELP: Final = "Print the version and exit."

OPTIONS: Final[tuple[tuple[str, str], ...]] = (
    ("--version", VERSION_HELP),
    ("--install-completion", "Install completion for the current shell."),
    ("--show-completion", "Show completion for the current shell, to copy it or customize the installation."),
    ("-h, --help", "Show this message and exit."),
)
"""The root's options, as ``(names, help)``: ``--version`` and the ones Typer adds."""

COMMANDS: Final[dict[str, tuple[str, str]]] = {
    "roll": ("dice_commands", "Roll dice notation, showing every die and every explosion."),
    "odds": (
        "dice_commands",
        'The exact distribution of dice notation (exploding sums up to --cap, last row "≥ cap").',
    ),
    "serve": ("table_commands", "Run the game table: the HTTP API, live updates and the browser pages."),
    "verify": (
        "table_commands",
        "Check an exported record: its hash chain, every commitment and server roll, and each receipt.",
    ),
    "recap": (
        "table_commands",
        "Write an exported record as a session recap in Markdown: scenes, rolls with their dice, Triggers, "
        "Crisis and Rising Tension, with names. It tells what the export holds: a player's export, a "
        "player's recap. Exit 2 when the file is not a talespin export.",
    ),
    "ii": ("ii_commands", "Inciting Incident: odds, rolls, sheets and scene scripts."),
    "ascend": ("ascend_commands", "Ascend: odds, Tests, hero sheets, invoke advice and scene scripts."),
    "lab": ("lab_commands", "The designer's lab: best play, variants, scenes."),
}
"""Each top-level command: the module under :mod:`talespin.cli` it lives in, and its help's first paragraph.

A module either has an ``app`` (a command group, named after the command) or a ``register(app)`` that
adds its commands to a Typer app (:mod:`.lazy` loads it when the command runs)."""

_BOLD, _PLAIN = "\x1b[1m", "\x1b[0m"


def wants_bold(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Bold into a terminal or with ``FORCE_COLOR``; never with ``NO_COLOR`` (any value but empty)."""
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    return stream.isatty() and environ.get("TERM") != "dumb"


def _width(stream: TextIO, environ: Mapping[str, str]) -> int | None:
    """The width to wrap at: ``COLUMNS`` when set, a terminal's own width, else none (a pipe)."""
    columns = environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if stream.isatty():
        try:
            return os.get_terminal_size(stream.fileno()).columns
        except (OSError, ValueError):
            return 80
    return None


def _rows(rows: list[tuple[str, str]], width: int | None, bold: bool) -> list[str]:
    """Two columns, the text wrapped under its own column when a width is given."""
    left = max(len(name) for name, _ in rows) + 4
    lines = []
    for name, text in rows:
        shown = f"{_BOLD}{name}{_PLAIN}" if bold else name
        pad = " " * (left - 2 - len(name))
        if width is None or width - left < 20:
            lines.append(f"  {shown}{pad}{text}")
            continue
        import textwrap  # noqa: PLC0415 - only into a terminal or with COLUMNS

        wrapped = textwrap.wrap(text, width - left) or [""]
        lines.append(f"  {shown}{pad}{wrapped[0]}")
        lines += [" " * left + more for more in wrapped[1:]]
    return lines


def render(*, width: int | None = None, bold: bool = False) -> str:
    """The root's help text: wrapped to ``width`` (none: one line a paragraph), headings bold if asked."""

    def heading(text: str) -> str:
        return f"{_BOLD}{text}{_PLAIN}" if bold else text

    commands = [(name, text) for name, (_, text) in COMMANDS.items()]
    lines = [
        USAGE,
        "",
        *([HELP] if width is None else _para(HELP, width)),
        "",
        heading("Options:"),
        *_rows(list(OPTIONS), width, bold),
        "",
        heading("Commands:"),
        *_rows(commands, width, bold),
        "",
        "Run 'talespin COMMAND --help' for a command's own options.",
    ]
    return "\n".join(lines) + "\n"


def _para(text: str, width: int) -> list[str]:
    import textwrap  # noqa: PLC0415 - only into a terminal or with COLUMNS

    return textwrap.wrap(text, max(width - 2, 20))


def print_root_help(stream: TextIO | None = None, environ: Mapping[str, str] | None = None) -> None:
    """Write the root's help to ``stream`` (standard output), wrapped and bold as it fits there."""
    out = sys.stdout if stream is None else stream
    env = os.environ if environ is None else environ
    out.write(render(width=_width(out, env), bold=wants_bold(out, env)))
    out.flush()
