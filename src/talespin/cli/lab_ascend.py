"""``talespin lab ascend …`` and ``talespin lab compare --system ascend``: the Ascend side of the lab.

``extended`` gives P(reaching the goal within n Tests) per pool, ``opposed`` P(the attacker wins) under
both tie rules, ``narration`` the value of narration for a hero's every Test. Each takes ``--variant FILE``
(rules overrides). Files are read here; the lab itself does no I/O.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ..lab.ascend_plot import plot_ascend_comparison
from ..lab.ascend_tests import NARRATIONS, extended_table, narration_value, opposed_table, pool_choices
from ..lab.ascend_variants import compare_ascend
from ..systems.ascend import Rules, load_rules, parse_hero
from ..systems.ascend.rules import Narration
from .ascend_files import read_document
from .ascend_odds import Narration as NarrationChoice
from .output import BadInput, console, emit, guarded

__all__ = ["app", "compare_ascend_command"]

app = typer.Typer(no_args_is_help=True, help="Ascend: extended and opposed Tests, the value of narration.")

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]
VariantOpt = Annotated[Path | None, typer.Option("--variant", help="YAML/JSON file of rules overrides.")]
PoolsOpt = Annotated[str | None, typer.Option("--pools", help='Pool sizes, e.g. "3,4,5,6".')]
HeroOpt = Annotated[Path | None, typer.Option("--hero", help="A hero sheet: its pools instead of --pools.")]
NarrationOpt = Annotated[NarrationChoice, typer.Option("--narration", help="How every Test is narrated.")]


def _rules(variant: Path | None) -> Rules:
    return load_rules(None if variant is None else read_document(variant).strict(f"variant {variant}"))


def _pools(text: str | None, option: str = "--pools") -> list[int]:
    parts = [p.strip() for p in (text or "").split(",") if p.strip()]
    try:
        sizes = [int(p) for p in parts]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 0:
        raise BadInput(
            f'{option} takes pool sizes of 0 or more, e.g. "3,4,5", got {text!r}', code="bad_pools"
        )
    return sizes


def _narration(text: str) -> Narration:
    """The rules' narration level of a --narration choice."""
    for level in NARRATIONS:
        if text == level:
            return level
    raise BadInput(f"--narration is none, narrated or exceptional, got {text!r}", code="bad_option")


def _percent_table(title: str, head: list[str], rows: list[list[str]]) -> Table:
    table = Table(title=title)
    for column in head:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    return table


@app.command("extended")
def extended_command(  # noqa: PLR0917 -- Typer maps each parameter to an option
    goal: Annotated[int, typer.Option("--goal", min=1, help="Successes to accumulate.")],
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most this many Tests.")],
    target: Annotated[
        int | None, typer.Option("--target", help="Target of every Test (with --pools).")
    ] = None,
    pools: PoolsOpt = None,
    hero: HeroOpt = None,
    skill: Annotated[str | None, typer.Option("--skill", help="The hero's Skill Tested.")] = None,
    conviction: Annotated[str | None, typer.Option("--conviction", help="The hero's Conviction.")] = None,
    difficulty: Annotated[int | None, typer.Option("--difficulty", help="Difficulty (with --hero).")] = None,
    narration: NarrationOpt = NarrationChoice.none,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """P(reaching the goal within 1, 2, … limit Tests), exactly, for each pool (AS-EXT-1, AS-ODDS-2)."""
    with guarded(as_json):
        rules = _rules(variant)
        labels: list[str] = []
        if hero is not None:
            sheet = parse_hero(read_document(hero).strict(f"hero sheet {hero}"), rules, path=str(hero))
            aim, sizes, labels = pool_choices(
                sheet,
                rules,
                skill=skill,
                conviction=conviction,
                difficulty=difficulty,
                narration=_narration(narration),
            )
        elif target is None:
            raise BadInput("give --target with --pools, or --hero with --skill", code="bad_option")
        else:
            aim, sizes = target, _pools(pools)
        table = extended_table(rules, target=aim, pools=sizes, goal=goal, limit=limit, labels=labels)
    body = table.to_json()

    def render() -> None:
        head = ["pool", *(f"≤ {n}" for n in range(1, limit + 1))]
        rows = [[r["label"], *(f"{w[1]:.2%}" for w in r["within"])] for r in body["rows"]]
        title = f"Target {aim}: P({goal} Successes within n Tests)"
        console.print(_percent_table(title, head, rows))

    emit(body, as_json, render)


@app.command("opposed")
def opposed_command(  # noqa: PLR0917 -- Typer maps each parameter to an option
    target: Annotated[int, typer.Option("--target", help="The attacker's Target.")],
    vs_target: Annotated[int, typer.Option("--vs-target", help="The defender's Target.")],
    pools: PoolsOpt = "1,2,3,4,5,6",
    vs_pools: Annotated[str | None, typer.Option("--vs-pools", help="The defender's pool sizes.")] = None,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """P(the attacker wins) for every pair of pools, a tie to the defender and a tie rolled again."""
    with guarded(as_json):
        mine = _pools(pools)
        theirs = _pools(vs_pools, "--vs-pools") if vs_pools is not None else mine
        table = opposed_table(
            _rules(variant),
            attacker_target=target,
            defender_target=vs_target,
            attacker_pools=mine,
            defender_pools=theirs,
        )
    body = table.to_json()

    def render() -> None:
        wins = body["p_attacker_wins"]
        head = ["attacker \\ defender", *(f"{d}d10" for d in theirs)]
        rows = [
            [
                f"{a}d10",
                *(f"{d:.1%} / {r:.1%}" for d, r in zip(wins["defender"][i], wins["reroll"][i], strict=True)),
            ]
            for i, a in enumerate(mine)
        ]
        title = f"P(attacker wins), Target {target} against {vs_target}: tie to the defender / rolled again"
        console.print(_percent_table(title, head, rows))

    emit(body, as_json, render)


@app.command("narration")
def narration_command(
    hero: Annotated[Path, typer.Option("--hero", help="The hero sheet (YAML or JSON).")],
    difficulty: Annotated[int | None, typer.Option("--difficulty", help="Difficulty (default 0).")] = None,
    required: Annotated[int | None, typer.Option("--required", help="Successes required.")] = None,
    variant: VariantOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """For each Skill and Conviction: best P(success) without narration, narrated, exceptional."""
    with guarded(as_json):
        rules = _rules(variant)
        sheet = parse_hero(read_document(hero).strict(f"hero sheet {hero}"), rules, path=str(hero))
        table = narration_value(sheet, rules, difficulty=difficulty, required=required)
    body = table.to_json()

    def render() -> None:
        head = ["Test", "Target", "none", "narrated", "exceptional", "+ narration", "+ exceptional"]
        rows = [
            [
                f"{r['name']} ({r['kind']})",
                str(r["target"]),
                *(
                    f"{r[n]['p_success']:.2%} ({r[n]['pool']}d10)"
                    for n in ("none", "narrated", "exceptional")
                ),
                f"{r['narration_gain']:+.2%}",
                f"{r['exceptional_gain']:+.2%}",
            ]
            for r in body["rows"]
        ]
        console.print(_percent_table(f"{sheet.name}: the value of narration", head, rows))

    emit(body, as_json, render)


def compare_ascend_command(named: dict[str, Any], plot: Path | None, as_json: bool) -> None:
    """``lab compare --system ascend``: the variants on the Target × pool × required grid."""
    with guarded(as_json):
        cmp = compare_ascend(named)
        if plot is not None:
            if plot.suffix not in (".png", ".svg"):
                raise BadInput(f"--plot must end in .png or .svg, got {plot.name}", code="bad_plot")
            plot_ascend_comparison(cmp, plot)
    body = cmp.to_json()

    def render() -> None:
        head = ["variant", "mean P(success)", "largest |ΔP|", "even-odds pools changed"]
        rows = [
            [
                n,
                f"{float(cmp.p_success[n].mean()):.4f}",
                f"{float(abs(cmp.difference(n)).max()):.4f}",
                str(cmp.changed_choices(n)),
            ]
            for n in cmp.names
        ]
        grid = f"Target 0–{cmp.targets[-1]}, 0–{cmp.pools[-1]} dice, 1–{cmp.required[-1]} required"
        title = f"Ascend variants ({grid})"
        console.print(_percent_table(title, head, rows))

    emit(body, as_json, render)
