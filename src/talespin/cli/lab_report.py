"""``talespin lab report``: the Inciting Incident balance report, a Markdown page with its pictures.

Files are read and written here; the lab computes (:func:`talespin.lab.report.balance_report`).
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Any

import typer

from ..lab.report import balance_report
from ..lab.report_plot import plot_costs, plot_scene_crisis
from ..lab.variant_plot import plot_comparison
from . import ascend_files as files
from .output import BadInput, console, emit, guarded

__all__ = ["register", "report_command"]

PAGE = "inciting-incident-report.md"


def report_command(
    variants: Annotated[
        list[Path] | None, typer.Argument(help="YAML/JSON files of rules overrides, one a variant.")
    ] = None,
    scene: Annotated[
        Path | None,
        typer.Option("--scene", help="The scene of 'Crisis per scene' (default: a reference scene)."),
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="Folder for the page and its pictures.")] = Path(
        "lab-report"
    ),
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Cost per level against the odds it buys, auto-vs-roll crossovers, Crisis per scene, variant changes."""
    with guarded(as_json):
        named: dict[str, Any] = {path.stem: files.read_document(path).data for path in variants or []}
        if "shipped" in named:
            raise BadInput("a variant file may not be called 'shipped': that name is the rules as shipped")
        raw_scene = files.read_document(scene).data if scene is not None else None
        if out.exists() and not out.is_dir():
            raise BadInput(f"--out must be a folder, and {out} is a file", code="bad_out")
        with console.status("computing the balance report", spinner="dots") if not as_json else nullcontext():
            report = balance_report(named, raw_scene)
        out.mkdir(parents=True, exist_ok=True)
        images = {"cost": "ii-cost.png", "scene": "ii-scene.png"}
        plot_costs(report, out / images["cost"])
        plot_scene_crisis(report, out / images["scene"])
        if named:
            images["variants"] = "ii-variants.png"
            plot_comparison(report.comparison, out / images["variants"])
        page = out / PAGE
        page.write_text(report.markdown(images), encoding="utf-8")
    body = {"report": str(page), "images": [str(out / v) for v in images.values()], **report.to_json()}
    emit(body, as_json, lambda: console.print(f"wrote {page} and {len(images)} pictures"))


def register(app: typer.Typer) -> None:
    """Add ``report`` to the ``talespin lab`` group."""
    app.command("report")(report_command)
