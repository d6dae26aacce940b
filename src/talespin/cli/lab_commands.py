"""``talespin lab …``: the designer's lab on the command line (``advise``: best play on a Complex Obstacle).

Files are read here; the lab itself does no I/O.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ..lab.advice import advise
from ..lab.obstacle import Spot
from ..lab.party import parse_party
from ..lab.variant_plot import plot_comparison
from ..lab.variants import compare
from ..systems import get_system, registered, system_names
from ..systems.inciting_incident import default_rules
from . import ascend_files as files
from . import lab_ascend, lab_conflict, lab_report, lab_scene
from .lab_variant_files import read_variant
from .output import BadInput, console, emit, guarded

_II = registered("talespin.systems.inciting_incident").name

__all__ = ["app"]

app = typer.Typer(no_args_is_help=True, help="The designer's lab: best play, variants, scenes.")
app.add_typer(lab_ascend.app, name=registered("talespin.systems.ascend").short)
lab_scene.register(app)
lab_conflict.register(app)
lab_report.register(app)


@app.command("advise")
def advise_command(  # noqa: PLR0917 -- Typer maps each parameter to an option
    party: Annotated[Path, typer.Option("--party", help="YAML/JSON list of {name, talents: {name: level}}.")],
    obstruction: Annotated[int, typer.Option("--obstruction", min=0, help="Obstruction left.")],
    attempts: Annotated[int, typer.Option("--attempts", min=0, help="Decisive attempts left.")] = 3,
    crisis: Annotated[int, typer.Option("--crisis", min=0, help="Crisis so far.")] = 0,
    last: Annotated[str | None, typer.Option("--last", help="The character who acted last.")] = None,
    used: Annotated[list[str] | None, typer.Option("--used", help="CHARACTER:TALENT already used.")] = None,
    cap: Annotated[int, typer.Option("--cap", min=1, help="Crisis cap (or the next Trigger).")] = 60,
    objective: Annotated[str, typer.Option("--objective", help="crisis | below")] = "crisis",
    dice: Annotated[int | None, typer.Option("--dice", help="Base d6 count.")] = None,
    advantage: Annotated[int, typer.Option("--advantage", help="Net Advantage.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Each legal action's value under optimal play, the best marked, with each alternative's cost."""
    with guarded(as_json):
        members = parse_party(files.read_document(party).data, default_rules())
        pairs = []
        for item in used or []:
            who, sep, talent = item.partition(":")
            if not sep:
                raise BadInput(f"--used takes CHARACTER:TALENT, got {item!r}", code="bad_used")
            pairs.append((who, talent))
        spot = Spot(obstruction, attempts, last, frozenset(pairs), crisis)
        advice = advise(members, spot, objective=objective, cap=cap, base_d6=dice, advantage=advantage)
    body = advice.to_json()

    def render() -> None:
        what = "E[Crisis]" if objective == "crisis" else f"P(Crisis < {cap})"
        table = Table(title=f"Obstruction {obstruction}, {attempts} attempts, Crisis {crisis}")
        for column in ("action", what, "cost vs best"):
            table.add_column(column)
        for k, (action, figure, cost) in enumerate(advice.rows):
            table.add_row(action.label + (" ★" if k == 0 else ""), f"{figure:.4f}", f"{cost:+.4f}")
        console.print(table)

    emit(body, as_json, render)


@app.command("compare")
def compare_command(
    variants: Annotated[
        list[Path],
        typer.Argument(help="YAML/JSON files of rules overrides, or campaign exports, one a variant."),
    ],
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write the difference heatmaps (.png/.svg).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
    system: Annotated[str, typer.Option("--system", help=" | ".join(system_names()))] = _II,
) -> None:
    """The shipped rules and each variant on the same grid: P(success), E[Crisis], auto-vs-roll per cell."""
    with guarded(as_json):
        named: dict[str, object] = {"shipped": {}}
        for path in variants:
            name, overrides = read_variant(path, system)
            named[name if name not in named else f"{name} ({path.name})"] = overrides
        if get_system(system).name == registered("talespin.systems.ascend").name:
            lab_ascend.compare_ascend_command(named, plot, as_json)
            return
        cmp = compare(named, max_base=9, max_net=10)
        if plot is not None:
            if plot.suffix not in (".png", ".svg"):
                raise BadInput(f"--plot must end in .png or .svg, got {plot.name}", code="bad_plot")
            plot_comparison(cmp, plot)
    body = cmp.to_json()

    def render() -> None:
        table = Table(title="Variants against the shipped rules (net Advantage −10..10, base 1–9)")
        for column in ("variant", "mean P(success)", "mean E[Crisis]", "cells that roll", "choices changed"):
            table.add_column(column)
        for name in cmp.names:
            table.add_row(
                name,
                f"{float(cmp.p_success[name].mean()):.4f}",
                f"{float(cmp.expected_crisis[name].mean()):.3f}",
                str(int(cmp.rolls[name].sum())),
                str(cmp.changed_choices(name)),
            )
        console.print(table)

    emit(body, as_json, render)
