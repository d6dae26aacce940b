"""``talespin lab scene``: a whole action scene analysed exactly under one or more policies.

Files are read here; the lab itself does no I/O. :func:`register` adds the commands to ``talespin lab``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from ..lab.scene import POLICIES, analyse_scene
from ..lab.scene_plot import plot_scene
from ..lab.scene_spec import parse_scene
from ..systems.inciting_incident import default_rules
from . import ascend_files as files
from .output import BadInput, console, emit, guarded

__all__ = ["register", "scene_command"]


def scene_command(  # noqa: PLR0917 -- Typer maps each parameter to an option
    scene: Annotated[
        Path, typer.Argument(help="YAML/JSON scene: difficulty, triggers, characters, obstacles.")
    ],
    policy: Annotated[
        list[str] | None,
        typer.Option("--policy", help="auto | roll | optimal (repeatable; default optimal)."),
    ] = None,
    objective: Annotated[
        str, typer.Option("--objective", help="What optimal play seeks: crisis | below")
    ] = "crisis",
    cap: Annotated[
        int | None, typer.Option("--cap", help="Crisis cap (default: the largest Trigger value).")
    ] = None,
    exact: Annotated[bool, typer.Option("--exact", help="Exact fractions beside the floats.")] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write the Crisis distributions (.png/.svg).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """The Crisis the scene ends with, each Trigger's odds, E[Rising Tension] and E[actions], exactly."""
    with guarded(as_json):
        rules = default_rules()
        parsed = parse_scene(files.read_document(scene).data, rules)
        chosen = policy or ["optimal"]
        for name in chosen:
            if name not in POLICIES:
                raise BadInput(
                    f"--policy must be one of {', '.join(POLICIES)}, got {name!r}", code="bad_policy"
                )
        if plot is not None and plot.suffix not in (".png", ".svg"):
            raise BadInput(f"--plot must end in .png or .svg, got {plot.name}", code="bad_plot")
        analyses = [
            analyse_scene(parsed, rules, policy=name, objective=objective, cap=cap, exact=exact)
            for name in chosen
        ]
        if plot is not None:
            plot_scene(analyses, plot, title=scene.stem)
    body = {"scene": scene.name, "analyses": [a.to_json() for a in analyses]}

    def render() -> None:
        table = Table(title=f"{scene.name}: Crisis capped at {analyses[0].cap}")
        for column in ("policy", "E[Crisis]", "P(≥ cap)", "E[actions]", "E[Rising Tension]"):
            table.add_column(escape(column))
        for a in analyses:
            table.add_row(
                a.policy,
                f"{a.expected_crisis:.3f}",
                f"{a.crisis[a.cap]:.4f}",
                f"{a.expected_actions:.3f}",
                f"{a.expected_rising_tension:.3f}",
            )
        console.print(table)
        triggers = Table(title="Triggers: P(fires)")
        triggers.add_column("Trigger")
        for a in analyses:
            triggers.add_column(a.policy)
        for k, odds in enumerate(analyses[0].triggers):
            t = odds.trigger
            label = f"{t.at}" + (f" every {t.every}" if t.every else "") + (f" {t.text}" if t.text else "")
            triggers.add_row(label, *(f"{a.triggers[k].p_fires:.4f}" for a in analyses))
        if analyses[0].triggers:
            console.print(triggers)

    emit(body, as_json, render)


def register(app: typer.Typer) -> None:
    """Add ``scene`` to the ``talespin lab`` group."""
    app.command("scene")(scene_command)
