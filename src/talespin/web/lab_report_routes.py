"""``POST /api/lab/report``: a system's balance report over HTTP, the page ``talespin lab report`` writes.

Pure computation, no campaign, no token. The body is ``{"system"?: "inciting-incident" | "ascend",
"variants"?: {name: overrides}, "hero"?: sheet}``, where each variant's overrides and the hero sheet are
either a YAML or JSON *text* (what a variant or sheet file holds, read exactly as the CLI reads that file)
or the data itself. ``hero`` is Ascend's (default: the report's reference hero); Inciting Incident's report
refuses it.

The answer is the CLI's ``--json`` document with the page and its pictures inline:
``{"system", "markdown", "plots": [{"key", "name", "media_type", "data_uri"}], …the report's to_json()}``.
``markdown`` names each picture by its ``name`` (``ii-cost.svg``), so saving the page and the decoded
``data_uri`` of each plot side by side gives the folder ``talespin lab report --out`` writes (in SVG).
Without matplotlib (the ``[plot]`` extra) ``plots`` is empty, the page has no pictures and
``plots_missing`` says what to install.

Bad input is a 422 naming the key (``variants.NAME``, ``hero``); at most :data:`MAX_VARIANTS` variants.
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Annotated, Any

from fastapi import APIRouter, Body

from ..documents import DocumentError, read_source
from ..extras import MissingExtra
from ..lab.ascend_report import AscendReport, ascend_report
from ..lab.report import BalanceReport, balance_report
from ..systems import ascend, get_system, inciting_incident, registered
from ..systems.errors import MalformedCommand
from ..table.shape import check_input

__all__ = ["MAX_VARIANTS", "add_report_routes", "report_answer"]

MAX_VARIANTS = 4
"""Variants (besides the shipped rules) in one report: each costs a full grid and its own picture."""

_II = registered("talespin.systems.inciting_incident").name
_ASCEND = registered("talespin.systems.ascend").name
_SVG = "image/svg+xml"

_DRAWING = threading.Lock()
"""matplotlib's pyplot keeps one global figure registry: requests served side by side draw in turn."""


def _document(raw: Any, what: str, path: str) -> Any:
    """The data of ``raw``: a YAML/JSON text read as a file is (a repeated key refused), or data as given."""
    if not isinstance(raw, str):
        return raw
    try:
        document = read_source(what, raw, "yaml")  # YAML reads JSON too
    except DocumentError as error:
        raise MalformedCommand(error.message, code=error.code, path=path) from None
    if document.repeated:
        raise MalformedCommand(
            f"{what} repeats the key {document.repeated[0]!r}: each key may appear once in a mapping",
            code="duplicate_key",
            path=path,
        )
    return document.data


def _variants(raw: Any, load: Callable[[Any], object]) -> dict[str, Any]:
    """The named overrides, each read and checked against the system's rules (so a bad one is named)."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise MalformedCommand(
            'variants is an object of rules overrides by name, e.g. {"auto 5": "crisis: {auto: 5}"}',
            code="bad_variant",
            path="variants",
        )
    if len(raw) > MAX_VARIANTS:
        raise MalformedCommand(
            f"a report compares at most {MAX_VARIANTS} variants, got {len(raw)}",
            code="too_large",
            path="variants",
        )
    named: dict[str, Any] = {}
    for name, text in raw.items():
        path = f"variants.{name}"
        if not isinstance(name, str) or not name.strip() or len(name) > 60:
            raise MalformedCommand("a variant's name is a text of 1 to 60 characters", path="variants")
        if name == "shipped":
            raise MalformedCommand(
                "a variant may not be called 'shipped': that name is the rules as shipped",
                code="bad_variant",
                path=path,
            )
        overrides = _document(text, f"variant {name!r}", path)
        if overrides is None:
            overrides = {}
        if not isinstance(overrides, Mapping):
            raise MalformedCommand(
                f"variant {name!r} must be a mapping of rules-data overrides (e.g. crisis: {{auto: 5}})",
                code="bad_variant",
                path=path,
            )
        try:
            load(dict(overrides) or None)
        except MalformedCommand as error:
            message = f"variant {name!r}: {error.message}"
            raise MalformedCommand(message, rule=error.rule, code=error.code, path=path) from None
        named[name] = dict(overrides)
    return named


def _draw_ii(report: BalanceReport, folder: Path) -> dict[str, str]:
    from ..lab.report_plot import plot_costs, plot_scene_crisis  # noqa: PLC0415 -- matplotlib is an extra
    from ..lab.variant_plot import plot_comparison  # noqa: PLC0415

    images = {"cost": "ii-cost.svg", "scene": "ii-scene.svg"}
    plot_costs(report, folder / images["cost"])
    plot_scene_crisis(report, folder / images["scene"])
    if len(report.comparison.names) > 1:
        images["variants"] = "ii-variants.svg"
        plot_comparison(report.comparison, folder / images["variants"])
    return images


def _draw_ascend(report: AscendReport, folder: Path) -> dict[str, str]:
    from ..lab.ascend_report_plot import draw_report  # noqa: PLC0415 -- matplotlib is an extra

    return draw_report(report, folder, ".svg")


def _plots(draw: Callable[[Path], dict[str, str]]) -> tuple[dict[str, str], list[dict[str, str]]]:
    """Draw every picture as SVG in a scratch folder: the ``images`` names and each one as a data URI."""
    with _DRAWING, TemporaryDirectory(prefix="talespin-report-") as scratch:
        folder = Path(scratch)
        images = draw(folder)
        plots = [
            {
                "key": key,
                "name": name,
                "media_type": _SVG,
                "data_uri": f"data:{_SVG};base64,"
                + base64.b64encode((folder / name).read_bytes()).decode("ascii"),
            }
            for key, name in images.items()
        ]
    return images, plots


def report_answer(body: Mapping[str, Any]) -> dict[str, Any]:
    """The report ``POST /api/lab/report`` answers for ``body``, every input checked before any work."""
    check_input(body, what="lab report")
    unknown = sorted(set(body) - {"system", "variants", "hero"})
    if unknown:
        raise MalformedCommand(
            f"unknown key {unknown[0]!r}: a report takes system, variants and hero",
            code="bad_field",
            path=unknown[0],
        )
    raw_system = body.get("system", _II)
    if not isinstance(raw_system, str):
        raise MalformedCommand("system must be a system's name", code="bad_field", path="system")
    system = get_system(raw_system).name
    report: BalanceReport | AscendReport
    if system == _ASCEND:
        named = _variants(body.get("variants"), ascend.load_rules)
        hero = _document(body.get("hero"), "the hero sheet", "hero")
        if hero is not None and not isinstance(hero, Mapping):
            raise MalformedCommand("hero must be a hero sheet (a mapping)", code="bad_field", path="hero")
        report = ascend_report(named, hero)
        ascend_page = report

        def draw(folder: Path) -> dict[str, str]:
            return _draw_ascend(ascend_page, folder)

    else:
        if body.get("hero") is not None:
            raise MalformedCommand(
                "hero is for Ascend's report; Inciting Incident's report takes variants only",
                code="bad_option",
                path="hero",
            )
        named = _variants(body.get("variants"), inciting_incident.load_rules)
        report = balance_report(named)
        ii_page = report

        def draw(folder: Path) -> dict[str, str]:
            return _draw_ii(ii_page, folder)

    answer: dict[str, Any] = {"system": system}
    try:
        images, plots = _plots(draw)
    except MissingExtra as missing:
        images, plots = {}, []
        answer["plots_missing"] = str(missing)
    answer.update(markdown=report.markdown(images), plots=plots)
    answer.update({k: v for k, v in report.to_json().items() if k != "system"})
    return answer


def add_report_routes(router: APIRouter) -> None:
    """Add ``POST /api/lab/report`` to the lab's router."""

    @router.post("/api/lab/report", tags=["lab"])
    def lab_report(body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        """A system's balance report for playtesters: the Markdown page, its SVG pictures, its figures."""
        return report_answer(body)
