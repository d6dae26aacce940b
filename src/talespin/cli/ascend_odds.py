"""``talespin ascend odds | test | opposed | extended``: a Test by its numbers, without a hero sheet.

``odds`` gives the exact Successes distribution (AS-ODDS-1), ``test`` rolls or checks physical dice,
``opposed`` and ``extended`` give the AS-ODDS-2 figures. Numbers are checked against the rules data first, so
bad input is exit 2 with a clear message (``{"error": {...}}`` under ``--json``).
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.table import Table

from ..systems.ascend import default_rules, extended_odds, load_rules, opposed_odds, test_odds
from ..systems.ascend.rolling import roll_faces
from .ascend_files import parse_faces
from .output import BadInput, console, emit, guarded
from .output import percent as shared_percent

__all__ = ["DifficultyOpt", "JsonOpt", "Narration", "RequiredOpt", "SeedOpt", "Tie", "percent", "register"]


class Tie(StrEnum):
    """``--tie``: who takes a tie of an opposed Test (AS-OPP-1)."""

    defender = "defender"
    reroll = "reroll"


class Narration(StrEnum):
    """``--narration``: how the Test is narrated, which sets how many Traits may be invoked."""

    none = "none"
    narrated = "narrated"
    exceptional = "exceptional"


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


def refuse_seed_with_faces(seed: int | None, faces: str | None) -> None:
    """``--seed`` seeds rolled dice; with ``--faces`` no die is rolled: the pair is refused, not ignored."""
    if seed is not None and faces is not None:
        raise BadInput(
            "--seed and --faces do not go together: --faces gives physical dice, so nothing is rolled "
            "and no seed is used; drop one of them",
            code="bad_option",
        )


def percent(value: float) -> str:
    """A probability as a percentage with two decimals, never rounded to a false certainty."""
    return shared_percent(value, 2)


def _rows_table(outcome: str, probability: str, rows: list[list[Any]]) -> Table:
    """A distribution's ``[outcome, p, "n/d"]`` rows as a table for people."""
    shown = Table(outcome, probability, "exact")
    for value, p, exact in rows:
        shown.add_row(str(value), percent(p), exact)
    return shown


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
        payload = test_odds(pool, target, required=_required(required)).to_json()

        def render() -> None:
            console.print(f"[bold]{pool}d10[/], Target {target}, {payload['required']} Success(es) required")
            console.print(_rows_table("Successes", "P(exactly)", payload["distribution"]))
            console.print(
                f"P(success) = [bold]{percent(payload['p_success'])}[/]  ({payload['p_success_exact']})"
            )

        emit(payload, as_json, render)


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
        refuse_seed_with_faces(seed, faces)
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
    tie: Annotated[Tie | None, typer.Option("--tie", help="Who takes a tie (default: the rules').")] = None,
    as_json: JsonOpt = False,
) -> None:
    """P(win), P(tie), P(lose) of an opposed Test, and who finally wins under the tie rule (AS-ODDS-2)."""
    with guarded(as_json):
        target = _target(rating, difficulty, pool)
        vs_target = _target(vs_rating, vs_difficulty, vs_pool, "--vs-rating")
        rules = load_rules(None if tie is None else {"opposed": {"tie": tie.value}})
        figures = opposed_odds((pool, target), (vs_pool, vs_target), rules=rules).to_json()
        payload = {
            "attacker": {"target": target, "pool": pool},
            "defender": {"target": vs_target, "pool": vs_pool},
            **figures,
        }

        def render() -> None:
            console.print(f"{pool}d10 at Target {target} against {vs_pool}d10 at Target {vs_target}")
            for key in ("win", "tie", "lose", "attacker_wins", "defender_wins"):
                label = key.replace("_", " ")
                console.print(f"P({label}) = {percent(figures[f'p_{key}'])}  ({figures[f'p_{key}_exact']})")
            console.print(f"a tie goes to: {figures['tie_rule']}")

        emit(payload, as_json, render)


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
        payload.update(extended_odds(pool, target, goal, limit=limit).to_json())

        def render() -> None:
            console.print(f"{pool}d10 at Target {target}, goal {goal} Successes, limit {limit or 'none'}")
            console.print(_rows_table("Tests", "P(goal first reached)", payload["tests_needed"]))
            console.print(
                f"P(within {payload['horizon']} Tests) = [bold]{percent(payload['p_within_limit'])}[/]"
            )

        emit(payload, as_json, render)


def register(app: typer.Typer) -> None:
    """Add ``odds``, ``test``, ``opposed`` and ``extended`` to the ``ascend`` sub-app."""
    for command in (odds, test, opposed, extended):
        app.command()(command)
