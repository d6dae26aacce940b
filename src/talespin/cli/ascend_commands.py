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
from rich.markup import escape
from rich.table import Table

from ..systems.ascend import (
    SYSTEM,
    Hero,
    default_rules,
    hero_schema,
    parse_hero,
    run_script,
)
from ..systems.ascend.commands import script_schema
from ..table.sheet_text import sheet_verdict
from .ascend_files import read_document
from .ascend_odds import DifficultyOpt, JsonOpt, Narration, RequiredOpt, SeedOpt, percent, register
from .output import EXIT_INVALID, BadInput, console, emit, guarded

__all__ = ["app"]

app = typer.Typer(
    no_args_is_help=True, help="Ascend: odds, Tests, hero sheets, invoke advice and scene scripts."
)
hero_app = typer.Typer(no_args_is_help=True, help="Hero sheets: validate one, print the schema.")
app.add_typer(hero_app, name="hero")
register(app)


@hero_app.command("validate")
def hero_validate(file: Path, as_json: JsonOpt = False) -> None:
    """Check a hero sheet against every AS-HERO rule at once; exit 1 when it is invalid."""
    with guarded(as_json):
        verdict = sheet_verdict(SYSTEM, read_document(file))

        def render() -> None:
            if verdict["valid"]:
                console.print(f"[green]valid[/]: {escape(str(file))}", highlight=False)
            for error in verdict["errors"]:
                where = error["path"] or "(sheet)"
                message = escape(error["message"])
                console.print(f"[red]{error['rule']}[/] {escape(where)}: {message}", highlight=False)

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


@app.command("advise")
def advise_command(
    *,
    hero: Annotated[Path, typer.Option("--hero", help="The hero sheet (YAML or JSON).")],
    skill: Annotated[str | None, typer.Option("--skill", help="The Skill Tested.")] = None,
    conviction: Annotated[str | None, typer.Option("--conviction", help="The Conviction Tested.")] = None,
    difficulty: DifficultyOpt = None,
    required: RequiredOpt = None,
    narration: Annotated[
        Narration, typer.Option("--narration", help="How the Test is narrated (sets the Invokes allowed).")
    ] = Narration.none,
    top: Annotated[int | None, typer.Option("--top", help="Show this many choices (default 10).")] = None,
    show_all: Annotated[bool, typer.Option("--all", help="Show every legal choice.")] = False,
    every: Annotated[
        bool, typer.Option("--every-assignment", help="List each way to assign the same items separately.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Rank every legal Trait/Background/Aid (and Invoke) choice for a Test by P(success) (AS-ODDS-3)."""
    with guarded(as_json):
        if top is not None and top < 1:
            raise BadInput(f"--top is 1 or more, got {top}", code="bad_option")
        sheet = _load_hero(hero)
        query: dict[str, Any] = {"hero": sheet.name, "narration": narration.value, "distinct": not every}
        query.update(
            {"skill": skill, "conviction": conviction, "difficulty": difficulty, "required": required}
        )
        query["limit"] = None if show_all else top or default_rules().advice.shown
        state = SYSTEM.new_state({"heroes": [sheet.to_json()]})
        payload: dict[str, Any] = SYSTEM.odds(state, {k: v for k, v in query.items() if v is not None})

        def render() -> None:
            tested = f"{sheet.name}: {skill or conviction}"
            title = f"{tested}, Target {payload['target']}, narration {narration.value}"
            table = Table("#", "Trait", "Background", "Aid", "Invoked", "dice", "P(success)", title=title)
            for rank, row in enumerate(payload["advice"], start=1):
                invoked = ", ".join(f"{k} {n}" for item in row["invoke_items"] for k, n in item.items())
                cells = [row["trait"], row["background"], row["aid"], invoked]
                table.add_row(
                    str(rank), *(c or "–" for c in cells), str(row["pool"]), percent(row["p_success"])
                )
            console.print(table)
            console.print("exact fractions and Successes distributions: --json")
            hidden = payload["choices"] - len(payload["advice"])
            if hidden:
                console.print(f"{hidden} more choice(s); --all shows every one")

        emit(payload, as_json, render)


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
    return escape(f"{roll['hero']} {tested}: {dice} [{faces}] → {roll['successes']}")


def _describe(result: dict[str, Any]) -> str:
    do = result["do"]
    if do == "test":
        verdict = "success" if result["success"] else "failure"
        return f"[bold]test[/] {_roll_text(result)} Successes, {verdict} (margin {result['margin']})"
    if do == "opposed_test":
        winner = escape(f"{result['winner']} ({result['winning_hero']}) wins")
        again = f" after {result['rolls']} rolls" if result["rolls"] > 1 else ""
        sides = f"{_roll_text(result['attacker'])} vs {_roll_text(result['defender'])}"
        return f"[bold]opposed[/] {sides}: {winner}{again}"
    if do == "narrate":
        who = escape(str(result["hero"] or "the Storyteller"))
        return f"[bold]narrated[/] {who}: {escape(str(result['text']))}"
    state = "reached" if result["reached"] else "done" if result["done"] else "under way"
    gathered = f"{result['successes']}/{result['goal']} Successes"
    return f"[bold]{do}[/] {gathered} in {result['tests']} Test(s): {state}"
