"""``talespin roll`` and ``talespin odds``: generic dice notation on the command line.

``roll NOTATION [--seed N] [--json]`` rolls and shows every chain; ``odds NOTATION [--cap N] [--json]``
shows the exact distribution (an exploding sum up to ``--cap``, its last row holding "≥ cap"). The JSON
shapes are the public contract (``contracts.md``, "Generic dice"); extra keys are only ever added.
Without ``--seed`` a seed is drawn from the operating system (:mod:`secrets`) and reported, so any roll
can be replayed.
"""

from __future__ import annotations

import random
import secrets
from typing import Annotated, Any

import typer
from rich.table import Table

from ..dice import DEFAULT_CAP, ExpressionRoll, Odds, odds, parse, roll
from .output import console, emit, fraction, guarded

__all__ = ["odds_payload", "register", "roll_payload"]

_BAR_WIDTH = 40

Notation = Annotated[str, typer.Argument(help="Dice notation: 3d6, 2d6! + 1d8! - 2, 6z10<=2, 4d6>=5.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print one JSON document instead of tables.")]


def roll_payload(result: ExpressionRoll, seed: int) -> dict[str, Any]:
    """The contract's roll document plus the ``seed`` that replays it."""
    return {**result.to_json(), "seed": seed}


def odds_payload(result: Odds) -> dict[str, Any]:
    """The contract's odds document: rows ``[outcome, p, "n/d"]``, the exact mean as float and fraction.

    Extra keys: ``mean_exact``, ``cap`` (``null`` when uncapped) and ``last_row_is_at_least`` (true when the
    last row is the mass of "≥ cap").
    """
    rows = [[outcome, float(p), fraction(p)] for outcome, p in result.distribution.items()]
    return {
        "notation": str(result.expression),
        "distribution": rows,
        "mean": float(result.mean),
        "mean_exact": fraction(result.mean),
        "cap": result.cap,
        "last_row_is_at_least": result.capped,
    }


def _render_roll(result: ExpressionRoll, seed: int) -> None:
    count = result.expression.success_count
    table = Table(title=f"{result.expression}  (seed {seed})", title_justify="left")
    table.add_column("term")
    table.add_column("die")
    table.add_column("faces")
    table.add_column("success" if count is not None else "value", justify="right")
    for position, part in enumerate(result.parts):
        sign = "-" if part.part.sign < 0 else ("+" if position else "")
        term = f"{sign} {part.part.term}".strip()
        if not part.chains:
            table.add_row(term, "", "", str(part.value))
        for index, chain in enumerate(part.chains):
            faces = " → ".join(str(face) for face in chain.faces)
            mark = " [bold yellow](exploded)[/]" if chain.exploded else ""
            if count is not None:
                value = "[bold green]✓[/]" if count.succeeds(chain.faces[0]) else "·"
            else:
                value = str(part.part.sign * chain.total)
            die = f"{'z' if chain.zero_based else 'd'}{chain.size}"
            table.add_row(term if index == 0 else "", die, faces + mark, value)
    console.print(table)
    console.print(f"[bold]total[/] {result.total}")
    if result.successes is not None:
        console.print(f"[bold]successes[/] {result.successes}")


def _render_odds(result: Odds) -> None:
    table = Table(title=str(result.expression), title_justify="left")
    table.add_column("outcome", justify="right")
    table.add_column("p", justify="right")
    table.add_column("exact", justify="right")
    table.add_column("")
    rows = list(result.distribution.items())
    largest = max(float(p) for _, p in rows)
    for outcome, p in rows:
        label = f"≥ {outcome}" if result.capped and outcome == result.cap else str(outcome)
        bar = "█" * round(_BAR_WIDTH * float(p) / largest)
        table.add_row(label, f"{float(p):.4%}", fraction(p), f"[cyan]{bar}[/]")
    console.print(table)
    console.print(f"[bold]mean[/] {float(result.mean):.4f} (exactly {fraction(result.mean)})")
    if result.capped:
        console.print(f"The last row is the exact probability of {result.cap} or more; the mean is uncapped.")


def register(app: typer.Typer) -> None:
    """Add ``roll`` and ``odds`` to ``app``."""

    @app.command("roll")
    def roll_command(
        notation: Notation,
        seed: Annotated[int | None, typer.Option(help="Seed for a reproducible roll.")] = None,
        as_json: AsJson = False,
    ) -> None:
        """Roll dice notation, showing every die and every explosion."""
        with guarded(as_json):
            expression = parse(notation)
            used = seed if seed is not None else secrets.randbits(63)
            result = roll(expression, random.Random(used))
            emit(roll_payload(result, used), as_json, lambda: _render_roll(result, used))

    @app.command("odds")
    def odds_command(
        notation: Notation,
        cap: Annotated[int, typer.Option(help="Exploding sums list outcomes up to this cap.")] = DEFAULT_CAP,
        as_json: AsJson = False,
    ) -> None:
        """The exact distribution of dice notation (exploding sums up to --cap, last row "≥ cap")."""
        with guarded(as_json):
            result = odds(parse(notation), cap=cap)
            emit(odds_payload(result), as_json, lambda: _render_odds(result))
