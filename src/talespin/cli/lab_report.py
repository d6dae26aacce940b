"""``talespin lab report``: a system's balance report, a Markdown page with its pictures.

``--system inciting-incident`` (the default) writes the Inciting Incident report
(:func:`talespin.lab.report.balance_report`, with ``--scene``); ``--system ascend`` the Ascend report
(:func:`talespin.lab.ascend_report.ascend_report`, with ``--hero``). Files are read and written here; the lab
computes.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Any

import typer

from ..lab.ascend_report import ascend_report
from ..lab.ascend_report_plot import draw_report
from ..lab.report import balance_report
from ..lab.report_plot import plot_costs, plot_scene_crisis
from ..lab.variant_plot import plot_comparison
from ..systems import get_system, registered, system_names
from . import ascend_files as files
from .lab_variant_files import read_variant
from .output import BadInput, console, emit, guarded

__all__ = ["register", "report_command"]

PAGE = "inciting-incident-report.md"
ASCEND_PAGE = "ascend-report.md"
_II = registered("talespin.systems.inciting_incident").name
_ASCEND = registered("talespin.systems.ascend").name


def _inciting_incident(named: dict[str, Any], scene: Path | None, out: Path, quiet: bool) -> Any:
    raw_scene = files.read_document(scene).data if scene is not None else None
    with console.status("computing the balance report", spinner="dots") if not quiet else nullcontext():
        report = balance_report(named, raw_scene)
    out.mkdir(parents=True, exist_ok=True)
    images = {"cost": "ii-cost.png", "scene": "ii-scene.png"}
    plot_costs(report, out / images["cost"])
    plot_scene_crisis(report, out / images["scene"])
    if named:
        images["variants"] = "ii-variants.png"
        plot_comparison(report.comparison, out / images["variants"])
    return report, images, out / PAGE


def _ascend(named: dict[str, Any], hero: Path | None, out: Path, quiet: bool) -> Any:
    sheet = files.read_document(hero).strict(f"hero sheet {hero}") if hero is not None else None
    with console.status("computing the balance report", spinner="dots") if not quiet else nullcontext():
        report = ascend_report(named, sheet)
    out.mkdir(parents=True, exist_ok=True)
    return report, draw_report(report, out), out / ASCEND_PAGE


def report_command(  # noqa: PLR0917 -- Typer maps each parameter to an option
    variants: Annotated[
        list[Path] | None,
        typer.Argument(help="YAML/JSON files of rules overrides, or campaign exports, one a variant."),
    ] = None,
    scene: Annotated[
        Path | None,
        typer.Option(
            "--scene", help="Inciting Incident: the scene of 'Crisis per scene' (default: a reference)."
        ),
    ] = None,
    hero: Annotated[
        Path | None,
        typer.Option(
            "--hero", help="Ascend: the hero sheet of narration and best choices (default: a reference)."
        ),
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="Folder for the page and its pictures.")] = Path(
        "lab-report"
    ),
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
    system: Annotated[str, typer.Option("--system", help=" | ".join(system_names()))] = _II,
) -> None:
    """A balance report for playtesters: what points buy, the odds of each choice, what a variant changes."""
    with guarded(as_json):
        chosen = get_system(system).name
        named: dict[str, Any] = {}
        for path in variants or []:
            name, overrides = read_variant(path, chosen)
            named[name if name not in named else f"{name} ({path.name})"] = overrides
        if "shipped" in named:
            raise BadInput("a variant file may not be called 'shipped': that name is the rules as shipped")
        if out.exists() and not out.is_dir():
            raise BadInput(f"--out must be a folder, and {out} is a file", code="bad_out")
        if chosen == _ASCEND:
            if scene is not None:
                raise BadInput(
                    "--scene is for Inciting Incident; Ascend's report takes --hero", code="bad_option"
                )
            report, images, page = _ascend(named, hero, out, as_json)
        else:
            if hero is not None:
                raise BadInput(
                    "--hero is for Ascend; Inciting Incident's report takes --scene", code="bad_option"
                )
            report, images, page = _inciting_incident(named, scene, out, as_json)
        page.write_text(report.markdown(images), encoding="utf-8")
    body = {
        "system": chosen,
        "report": str(page),
        "images": [str(out / v) for v in images.values()],
        **report.to_json(),
    }
    emit(body, as_json, lambda: console.print(f"wrote {page} and {len(images)} pictures"))


def register(app: typer.Typer) -> None:
    """Add ``report`` to the ``talespin lab`` group."""
    app.command("report")(report_command)
