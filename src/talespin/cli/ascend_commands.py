"""``talespin ascend …``: odds, Tests, hero sheets, invoke advice and scene scripts for Ascend.

Every command prints Rich output for people or one JSON document with ``--json`` (contracts.md). Files are
read here (:mod:`.ascend_files`); the rules engine and the script runner never do I/O. Bad input is exit 2
with ``{"error": {...}}``; an invalid sheet is exit 1.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ..systems.ascend import (
    SYSTEM,
    Hero,
    default_rules,
    extended_odds,
    hero_schema,
    load_rules,
    opposed_odds,
    parse_hero,
    run_script,
    test_odds,
)
from ..systems.ascend.commands import script_schema
from ..systems.ascend.rolling import roll_faces
from .ascend_files import parse_faces, read_document
from .output import EXIT_INVALID, BadInput, console, emit, guarded

__all__ = ["app"]

app = typer.Typer(
    no_args_is_help=True, help="Ascend: odds, Tests, hero sheets, invoke advice and scene scripts."
)
hero_app = typer.Typer(no_args_is_help=True, help="Hero sheets: validate one, print the schema.")
app.add_typer(hero_app, name="hero")

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]
RatingOpt = Annotated[int, typer.Option("--rating", help="Rating of the Skill or Conviction Tested (0–9).")]
DifficultyOpt = Annotated[int | None, typer.Option("--difficulty", help="Difficulty (default 0).")]
PoolOpt = Annotated[
    int, typer.Option("--pool", help="Dice in the pool (Trait + Background + Aid + Invokes).")
]
RequiredOpt = Annotated[int | None, typer.Option("--required", help="Successes required (default 1).")]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Seed of the generator.")]


def _target(rating: int, difficulty: int | None, pool: int, option: str = "--rating") -> int:
    """Target = rating − Difficulty, after checking the numbers against the rules (exit 2 otherwise)."""
    rules = default_rules()
    if not rules.ratings.min <= rating <= rules.ratings.max:
        low, high = rules.ratings.min, rules.ratings.max
        raise BadInput(f"{option} is a rating from {low} to {high}, got {rating}", code="bad_option")
    chosen = rules.difficulty.default if difficulty is None else difficulty
    if chosen < rules.difficulty.min:
        raise BadInput(f"the Difficulty is {rules.difficulty.min} or more, got {chosen}", code="bad_option")
    if pool < 0:
        raise BadInput(f"a pool has 0 or more dice, got {pool}", code="bad_option")
    return rating - chosen


def _required(required: int | None) -> int:
    rules = default_rules()
    chosen = rules.required.default if required is None else required
    if chosen < rules.required.min:
        raise BadInput(f"--required is {rules.required.min} or more, got {chosen}", code="bad_option")
    return chosen


def _p(value: float) -> str:
    return f"{value:.2%}"


@app.command()
def odds(
    *,
    rating: RatingOpt,
    pool: PoolOpt,
    difficulty: DifficultyOpt = None,
    required: RequiredOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Exact Successes distribution and P(success) of one Test (AS-ODDS-1)."""
    with guarded(as_json):
        target = _target(rating, difficulty, pool)
        payload = test_odds(None, target=target, pool=pool, required=_required(required)).to_json()

        def render() -> None:
            console.print(f"[bold]{pool}d10[/], Target {target}, {payload['required']} Success(es) required")
            shown = Table("Successes", "P(exactly)", "exact")
            for successes, p, exact in payload["distribution"]:
                shown.add_row(str(successes), _p(p), exact)
            console.print(shown)
            console.print(f"P(success) = [bold]{_p(payload['p_success'])}[/]  ({payload['p_success_exact']})")

        emit(payload, as_json, render)


@app.command()
def test(
    *,
    rating: RatingOpt,
    pool: PoolOpt,
    difficulty: DifficultyOpt = None,
    required: RequiredOpt = None,
    seed: SeedOpt = None,
    faces: Annotated[
        str | None, typer.Option("--faces", help='Physical dice, one face per die: "0,3,9".')
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Roll a Test (or check physical dice) and count its Successes (AS-TEST-3, AS-TEST-4)."""
    with guarded(as_json):
        target = _target(rating, difficulty, pool)
        needed = _required(required)
        given = parse_faces(faces) if faces is not None else None
        rolled = roll_faces(pool, given, random.Random(seed), default_rules())
        count = sum(1 for face in rolled if face <= target)
        payload = {
            "target": target,
            "pool": pool,
            "required": needed,
            "faces": rolled,
            "successes": count,
            "success": count >= needed,
            "margin": count - needed,
        }

        def render() -> None:
            shown = " ".join(f"[green]{f}[/]" if f <= target else f"[dim]{f}[/]" for f in rolled)
            console.print(shown or "(no dice)")
            verdict = "[green]success[/]" if payload["success"] else "[red]failure[/]"
            console.print(
                f"{count} Success(es) against Target {target}: {verdict}, margin {payload['margin']}"
            )

        emit(payload, as_json, render)


@app.command()
def opposed(
    *,
    rating: RatingOpt,
    pool: PoolOpt,
    vs_rating: Annotated[int, typer.Option("--vs-rating", help="The defender's rating.")],
    vs_pool: Annotated[int, typer.Option("--vs-pool", help="The defender's pool.")],
    difficulty: DifficultyOpt = None,
    vs_difficulty: Annotated[
        int | None, typer.Option("--vs-difficulty", help="The defender's Difficulty.")
    ] = None,
    tie: Annotated[str | None, typer.Option("--tie", help="defender | reroll (default: the rules').")] = None,
    as_json: JsonOpt = False,
) -> None:
    """P(win), P(tie), P(lose) of an opposed Test, and who finally wins under the tie rule (AS-ODDS-2)."""
    with guarded(as_json):
        attacker = (_target(rating, difficulty, pool), pool)
        defender = (_target(vs_rating, vs_difficulty, vs_pool, "--vs-rating"), vs_pool)
        if tie not in (None, "defender", "reroll"):
            raise BadInput(f"--tie is defender or reroll, got {tie!r}", code="bad_option")
        rules = load_rules(None if tie is None else {"opposed": {"tie": tie}})
        figures = opposed_odds(rules, attacker, defender).to_json()
        payload = {
            "attacker": {"target": attacker[0], "pool": pool},
            "defender": {"target": defender[0], "pool": vs_pool},
            **figures,
        }

        def render() -> None:
            console.print(f"{pool}d10 at Target {attacker[0]} against {vs_pool}d10 at Target {defender[0]}")
            for key in ("win", "tie", "lose", "attacker_wins", "defender_wins"):
                label = key.replace("_", " ")
                console.print(f"P({label}) = {_p(figures[f'p_{key}'])}  ({figures[f'p_{key}_exact']})")
            console.print(f"a tie goes to: {figures['tie_rule']}")

        emit(payload, as_json, render)


@app.command()
def extended(
    *,
    rating: RatingOpt,
    pool: PoolOpt,
    goal: Annotated[int, typer.Option("--goal", help="Successes to accumulate.")],
    limit: Annotated[int | None, typer.Option("--limit", help="At most this many Tests.")] = None,
    difficulty: DifficultyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """How many Tests an extended Test needs to reach its goal, and P(within the limit) (AS-ODDS-2)."""
    with guarded(as_json):
        target = _target(rating, difficulty, pool)
        if goal < 1 or (limit is not None and limit < 1):
            raise BadInput("--goal and --limit are 1 or more", code="bad_option")
        payload: dict[str, Any] = {"target": target, "pool": pool}
        payload.update(extended_odds(None, target=target, pool=pool, goal=goal, limit=limit).to_json())

        def render() -> None:
            console.print(f"{pool}d10 at Target {target}, goal {goal} Successes, limit {limit or 'none'}")
            shown = Table("Tests", "P(goal first reached)", "exact")
            for n, p, exact in payload["tests_needed"]:
                shown.add_row(str(n), _p(p), exact)
            console.print(shown)
            console.print(f"P(within {payload['horizon']} Tests) = [bold]{_p(payload['p_within_limit'])}[/]")

        emit(payload, as_json, render)


@hero_app.command("validate")
def hero_validate(file: Path, as_json: JsonOpt = False) -> None:
    """Check a hero sheet against every AS-HERO rule at once; exit 1 when it is invalid."""
    with guarded(as_json):
        document = read_document(file)
        verdict = SYSTEM.validate_sheet(document.data)
        repeated = [
            {
                "rule": "AS-HERO-2",
                "path": path,
                "message": "this name appears twice: names are unique within their kind",
            }
            for path in document.repeated
        ]
        if repeated:
            verdict = {**verdict, "valid": False, "errors": repeated + verdict["errors"]}

        def render() -> None:
            if verdict["valid"]:
                console.print(f"[green]valid[/]: {file}")
            for error in verdict["errors"]:
                where = error["path"] or "(sheet)"
                console.print(f"[red]{error['rule']}[/] {where}: {error['message']}", highlight=False)

        emit(verdict, as_json, render)
    if not verdict["valid"]:
        raise typer.Exit(EXIT_INVALID)


@hero_app.command("schema")
def hero_schema_command() -> None:
    """Print the JSON Schema of a hero sheet."""
    typer.echo(json.dumps(published_hero_schema(), indent=2, ensure_ascii=False))


@app.command("script-schema")
def script_schema_command() -> None:
    """Print the JSON Schema of an Ascend scene script."""
    typer.echo(json.dumps(script_schema(), indent=2, ensure_ascii=False))


def published_hero_schema() -> dict[str, Any]:
    """The JSON Schema committed as docs/schemas/ascend-hero.schema.json."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **hero_schema()}


def _load_hero(file: Path) -> Hero:
    sheet = read_document(file).strict(f"hero sheet {file}")
    return parse_hero(sheet, default_rules(), path=str(file))


@app.command()
def advise_command(
    *,
    hero: Annotated[Path, typer.Option("--hero", help="The hero sheet (YAML or JSON).")],
    skill: Annotated[str | None, typer.Option("--skill", help="The Skill Tested.")] = None,
    conviction: Annotated[str | None, typer.Option("--conviction", help="The Conviction Tested.")] = None,
    difficulty: DifficultyOpt = None,
    required: RequiredOpt = None,
    narration: Annotated[str, typer.Option("--narration", help="none | narrated | exceptional.")] = "none",
    top: Annotated[int | None, typer.Option("--top", help="Show this many choices (default 10).")] = None,
    show_all: Annotated[bool, typer.Option("--all", help="Show every legal choice.")] = False,
    every: Annotated[
        bool, typer.Option("--every-assignment", help="List each way to assign the same items separately.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Rank every legal Trait/Background/Aid (and Invoke) choice for a Test by P(success) (AS-ODDS-3)."""
    with guarded(as_json):
        if narration not in ("none", "narrated", "exceptional"):
            raise BadInput(
                f"--narration is none, narrated or exceptional, got {narration!r}", code="bad_option"
            )
        if top is not None and top < 1:
            raise BadInput(f"--top is 1 or more, got {top}", code="bad_option")
        sheet = _load_hero(hero)
        query: dict[str, Any] = {"hero": sheet.name, "narration": narration, "distinct": not every}
        query.update(
            {"skill": skill, "conviction": conviction, "difficulty": difficulty, "required": required}
        )
        query["limit"] = None if show_all else top or default_rules().advice.shown
        state = SYSTEM.new_state({"heroes": [sheet.to_json()]})
        payload: dict[str, Any] = SYSTEM.odds(state, {k: v for k, v in query.items() if v is not None})

        def render() -> None:
            title = f"{sheet.name}: {skill or conviction}, Target {payload['target']}, narration {narration}"
            table = Table(
                "#", "Trait", "Background", "Aid", "Invoked", "pool", "P(success)", "exact", title=title
            )
            for rank, row in enumerate(payload["advice"], start=1):
                table.add_row(
                    str(rank),
                    row["trait"] or "–",
                    row["background"] or "–",
                    row["aid"] or "–",
                    ", ".join(row["invoke"]) or "–",
                    f"{row['pool']}d10",
                    _p(row["p_success"]),
                    row["p_success_exact"],
                )
            console.print(table)
            hidden = payload["choices"] - len(payload["advice"])
            if hidden:
                console.print(f"{hidden} more choice(s); --all shows every one")

        emit(payload, as_json, render)


app.command("advise")(advise_command)


@app.command()
def play(
    script: Path,
    seed: SeedOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run a scene script; an illegal command stops the run (exit 2) with the command's index."""
    with guarded(as_json):
        document = read_document(script).strict(f"script {script}")

        def load(path: str) -> Any:
            return read_document(script.parent / path).strict(f"hero sheet {path}")

        payload = run_script(document, random.Random(seed), load)

        def render() -> None:
            for result in payload["results"]:
                console.print(_describe(result), highlight=False)

        emit(payload, as_json, render)


def _roll_text(roll: dict[str, Any]) -> str:
    faces = " ".join(str(face) for face in roll["faces"]) or "no dice"
    tested = roll.get("skill") or roll.get("conviction")
    dice = f"{roll['pool']}d10 at Target {roll['target']}"
    return f"{roll['hero']} {tested}: {dice} [{faces}] → {roll['successes']}"


def _describe(result: dict[str, Any]) -> str:
    do = result["do"]
    if do == "test":
        verdict = "success" if result["success"] else "failure"
        return f"[bold]test[/] {_roll_text(result)} Successes, {verdict} (margin {result['margin']})"
    if do == "opposed_test":
        winner = f"{result['winner']} ({result['winning_hero']}) wins"
        again = f" after {result['rolls']} rolls" if result["rolls"] > 1 else ""
        sides = f"{_roll_text(result['attacker'])} vs {_roll_text(result['defender'])}"
        return f"[bold]opposed[/] {sides}: {winner}{again}"
    if do == "narrate":
        return f"[bold]narrated[/] {result['hero'] or 'the Storyteller'}: {result['text']}"
    state = "reached" if result["reached"] else "done" if result["done"] else "under way"
    gathered = f"{result['successes']}/{result['goal']} Successes"
    return f"[bold]{do}[/] {gathered} in {result['tests']} Test(s): {state}"
