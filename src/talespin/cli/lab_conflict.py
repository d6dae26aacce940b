"""``talespin lab conflict``: whole conflicts simulated under each side's stated policy (seeded).

Files are read here (a conflict file may name sheet files, relative to itself); the lab does no I/O.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from ..lab.conflict_sim import ConflictOdds, simulate_conflict
from ..lab.conflict_spec import SIDES, parse_conflict
from ..systems.inciting_incident import default_rules
from . import ascend_files as files
from .output import console, emit, guarded

__all__ = ["conflict_command", "register"]


def _with_sheets(data: Any, folder: Path) -> Any:
    """The conflict with every sheet given as a file name read from beside the conflict file."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    for side in SIDES:
        entries = data.get(side)
        if isinstance(entries, list):
            out[side] = [files.read_document(folder / e).data if isinstance(e, str) else e for e in entries]
    return out


def conflict_command(
    conflict: Annotated[Path, typer.Argument(help="YAML/JSON: characters, enemies, policies, max_rounds.")],
    sims: Annotated[int, typer.Option("--sims", min=1, help="Conflicts to simulate.")] = 100_000,
    seed: Annotated[int, typer.Option("--seed", help="The seed: the same seed, the same answer.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """P(the characters win), rounds, wounds and Crisis, each with its standard error and 95% interval."""
    with guarded(as_json):
        rules = default_rules()
        parsed = parse_conflict(_with_sheets(files.read_document(conflict).data, conflict.parent), rules)
        with Progress(console=console, transient=True, disable=as_json) as bar:
            task = bar.add_task("simulating conflicts", total=sims)
            odds = simulate_conflict(
                parsed, rules, sims=sims, seed=seed, progress=lambda done: bar.update(task, completed=done)
            )
    emit(odds.to_json(), as_json, lambda: _render(odds))


def _render(odds: ConflictOdds) -> None:
    table = Table(title=f"{odds.sims} conflicts, seed {odds.seed}")
    for column in ("figure", "mean", "s.e.", "95% interval"):
        table.add_column(column)
    rows = [
        ("P(characters win)", odds.p_characters_win),
        ("P(enemies win)", odds.p_enemies_win),
        ("P(unfinished)", odds.p_unfinished),
        ("rounds", odds.rounds),
        ("Crisis", odds.crisis),
    ] + [(f"wounds of {name}", e) for name, e in odds.wounds.items()]
    for label, e in rows:
        low, high = e.interval
        table.add_row(escape(label), f"{e.value:.4f}", f"{e.se:.4f}", f"{low:.4f} – {high:.4f}")
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add ``conflict`` to the ``talespin lab`` group."""
    app.command("conflict")(conflict_command)
