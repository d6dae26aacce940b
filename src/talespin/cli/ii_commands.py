"""``talespin ii …``: odds, rolls, the odds table, character sheets and scene scripts for Inciting Incident.

Every command prints Rich output for people or one JSON document with ``--json`` (contracts.md). Files are
read here (YAML or JSON); the rules engine and the script runner never do I/O.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from ..dice import Rng
from ..lab import odds_grid, plot_grid
from ..systems.inciting_incident import SYSTEM, default_rules, final_d6, roll_chances
from ..systems.inciting_incident import rule_ids as ids
from ..systems.inciting_incident.chances import action_crisis, roll_crisis
from ..systems.inciting_incident.plan import RollSpec
from ..systems.inciting_incident.rolling import make_roll
from ..systems.inciting_incident.script import run_script
from ..systems.inciting_incident.sheet import Character
from ..table.sheet_text import sheet_verdict
from ..text import words
from . import ascend_files as files
from .ascend_odds import refuse_seed_with_faces
from .output import EXIT_INVALID, BadInput, console, emit, fraction, guarded, percent

__all__ = ["app", "parse_faces", "read_document"]

app = typer.Typer(no_args_is_help=True, help="Inciting Incident: odds, rolls, sheets and scene scripts.")
character_app = typer.Typer(no_args_is_help=True, help="Character sheets: validate one, print the schema.")
app.add_typer(character_app, name="character")

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]
DiceOpt = Annotated[int, typer.Option("--dice", help="Base d6 count (the scene difficulty).")]
AdvOpt = Annotated[int, typer.Option("--advantage", min=0, help="Advantage (net with Disadvantage).")]
DisOpt = Annotated[int, typer.Option("--disadvantage", min=0, help="Disadvantage.")]
AgainstOpt = Annotated[int | None, typer.Option("--against", help="Target total (default: the rules' 20).")]
TalentOpt = Annotated[int | None, typer.Option("--talent-level", help="Talent level 0–9.")]
AbilityOpt = Annotated[
    int | None, typer.Option("--ability-level", help="Ability level 0–9 (an Ability Roll).")
]


def read_document(path: Path) -> Any:
    """A YAML or JSON file, or BadInput (exit 2) when it cannot be read, decoded or parsed."""
    return files.read_document(path).data


def parse_faces(text: str) -> list[list[int]]:
    """``"6,2;3;4"`` → ``[[6, 2], [3], [4]]`` (chains separated by ``;``)."""
    try:
        return [[int(face) for face in chain.split(",")] for chain in text.split(";")]
    except ValueError:
        raise BadInput(
            f"faces must be whole numbers, chains separated by ';' and faces by ',' (got {text!r})",
            code="bad_faces",
        ) from None


def _level(talent: int | None, ability: int | None) -> tuple[str, int]:
    rules = default_rules()
    if (talent is None) == (ability is None):
        raise BadInput("give exactly one of --talent-level or --ability-level", code="bad_option")
    kind, level = ("talent", talent) if talent is not None else ("ability", ability)
    assert level is not None
    if not rules.levels.min <= level <= rules.levels.max:
        raise BadInput(
            f"a level lies between {rules.levels.min} and {rules.levels.max}, got {level}", code="bad_level"
        )
    return kind, level


def _base_d6(dice: int) -> int:
    """``--dice`` checked like a scene's difficulty (II-ROLL-5): the rules' span of base d6 counts."""
    span = default_rules().roll.difficulty
    if not span.min <= dice <= span.max:
        raise BadInput(
            f"--dice (the base d6 count) must lie between {span.min} and {span.max}, got {dice}",
            code="bad_dice",
            rule=ids.ROLL_5,
        )
    return dice


def _odds_payload(
    level: int, dice: int, advantage: int, disadvantage: int, against: int | None
) -> dict[str, Any]:
    rules = default_rules()
    target = rules.roll.target if against is None else against
    d6 = final_d6(_base_d6(dice), advantage, disadvantage, rules)
    chances = roll_chances(d6, rules.levels.dice[level], target, rules=rules)
    return {
        "d6": d6,
        "talent_dice": [f"d{s}" for s in rules.levels.dice[level]],
        "against": target,
        "p_success": float(chances.p_success),
        "p_success_exact": fraction(chances.p_success),
        "expected_crisis": float(chances.expected_crisis),
        "expected_crisis_exact": fraction(chances.expected_crisis),
        "auto_crisis": rules.crisis.auto,
        "distribution": [[t, float(p), fraction(p)] for t, p in chances.distribution.items()],
    }


@app.command()
def odds(
    *,
    talent_level: TalentOpt = None,
    ability_level: AbilityOpt = None,
    dice: DiceOpt = 5,
    advantage: AdvOpt = 0,
    disadvantage: DisOpt = 0,
    against: AgainstOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Exact P(success) and expected Crisis of a Talent (or Ability) Roll."""
    with guarded(as_json):
        _, level = _level(talent_level, ability_level)
        payload = _odds_payload(level, dice, advantage, disadvantage, against)

        def render() -> None:
            dice_text = " + ".join([f"{payload['d6']}d6", *payload["talent_dice"]])
            console.print(f"[bold]{dice_text}[/] against {payload['against']}")
            console.print(f"P(success) = {payload['p_success']:.4f}  ({payload['p_success_exact']})")
            console.print(
                f"expected Crisis if rolled = {payload['expected_crisis']:.3f}; "
                f"automatic = {payload['auto_crisis']}"
            )

        emit(payload, as_json, render)


@app.command()
def roll(
    *,
    talent_level: TalentOpt = None,
    ability_level: AbilityOpt = None,
    dice: DiceOpt = 5,
    advantage: AdvOpt = 0,
    disadvantage: DisOpt = 0,
    against: AgainstOpt = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the generator.")] = None,
    faces: Annotated[str | None, typer.Option("--faces", help='Physical dice: "6,2;3;4" (d6 first).')] = None,
    as_json: JsonOpt = False,
) -> None:
    """Roll a Talent (or Ability) Roll, or check physical dice, and report total, success and Crisis."""
    with guarded(as_json):
        rules = default_rules()
        kind, level = _level(talent_level, ability_level)
        target = rules.roll.target if against is None else against
        refuse_seed_with_faces(seed, faces)
        spec = RollSpec("", kind, kind, level, _base_d6(dice), advantage, disadvantage, target, rules)
        rng: Rng = random.Random(seed)
        pool = make_roll(spec, parse_faces(faces) if faces is not None else None, rng)
        crisis = action_crisis(roll_crisis(pool.total, target, rules), 0, rules=rules)
        payload = {
            "total": pool.total,
            "success": pool.total >= target,
            "chains": [c.to_json() for c in pool.chains],
            "crisis": crisis,
            "d6": spec.d6,
            "talent_dice": [f"d{s}" for s in spec.talent_dice],
            "against": target,
        }

        def render() -> None:
            shown = "  ".join(f"d{c.size}:{'+'.join(map(str, c.faces))}" for c in pool.chains)
            verdict = "[green]success[/]" if payload["success"] else "[red]failure[/]"
            console.print(shown or "(no dice)")
            console.print(f"total [bold]{pool.total}[/] against {target}: {verdict}, Crisis +{crisis}")

        emit(payload, as_json, render)


@app.command()
def table(
    against: AgainstOpt = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Draw a heatmap to FILE.png or FILE.svg.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """P(success) for every level 0–9 × base d6 count 1–9."""
    with guarded(as_json):
        if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
            raise BadInput(f"--plot draws PNG or SVG files, got {plot.name!r}", code="bad_option")
        grid = odds_grid(against)
        payload = grid.to_json()
        if plot is not None:
            try:
                payload["plot"] = str(plot_grid(grid, plot))
            except OSError as error:
                raise BadInput(
                    f"cannot write {plot}: {error.strerror or error}", code="unwritable_file"
                ) from None

        def render() -> None:
            shown = Table(title=f"P(total ≥ {grid.against}) in %, by Talent level and base d6 count")
            shown.add_column("level")
            for d in grid.dice:
                shown.add_column(f"{d}d6", justify="right")
            for level, row in zip(grid.levels, grid.p_success, strict=True):
                shown.add_row(str(level), *(percent(p, sign=False) for p in row))
            console.print(shown)
            if plot is not None:
                console.print(f"heatmap written to {escape(str(plot))}")

        emit(payload, as_json, render)


@character_app.command("validate")
def character_validate(file: Path, as_json: JsonOpt = False) -> None:
    """Check a sheet against every II-CHAR rule; exit 1 when it is invalid."""
    with guarded(as_json):
        verdict = sheet_verdict(SYSTEM, files.read_document(file))

        def render() -> None:
            if verdict["valid"]:
                console.print(f"[green]valid[/], cost {verdict['cost']} points")
            for error in verdict["errors"]:
                console.print(
                    f"[red]{error['rule']}[/] {escape(error['path'])}: {escape(error['message'])}",
                    highlight=False,
                )

        emit(verdict, as_json, render)
    if not verdict["valid"]:
        raise typer.Exit(EXIT_INVALID)


@character_app.command("schema")
def character_schema() -> None:
    """Print the JSON Schema of a character sheet."""
    typer.echo(json.dumps(character_json_schema(), indent=2, ensure_ascii=False))


def character_json_schema() -> dict[str, Any]:
    """The published JSON Schema of an Inciting Incident character sheet."""
    schema = Character.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Inciting Incident character"
    return schema


@app.command()
def play(
    script: Path,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for rolls without faces.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Run a scene script; an illegal command stops the run (exit 2)."""
    with guarded(as_json):
        document = read_document(script)

        def load(path: str) -> Any:
            return read_document(script.parent / path)

        result = run_script(document, random.Random(seed), load)
        payload = result.summary()

        def render() -> None:
            state = payload["state"]
            for event in result.events:
                shown = {k: v for k, v in event.data.items() if k not in ("chains", "sheet", "enemies")}
                if "enemies" in event.data:
                    shown["enemies"] = [e["sheet"]["name"] for e in event.data["enemies"]]
                data = "; ".join(f"{k}={words(v)}" for k, v in shown.items())
                console.print(f"[cyan]{event.type}[/] {escape(data)}", highlight=False)
            console.print(
                f"[bold]Crisis {state['crisis']}[/], Rising Tension {state['rising_tension']}, "
                f"Obstruction {words(state['obstruction'])}, Flow {words(state['flow'])}, "
                f"wounds {escape(words(state['wounds']))}"
            )

        emit(payload, as_json, render)
