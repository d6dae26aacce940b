"""``POST /api/lab/scene`` and ``POST /api/lab/conflict``: scene analysis and conflict simulation over HTTP.

Pure computation, no campaign, no token, and bounded work: every size that drives the cost has a limit
below, and a body past one is refused with a 422 before any work is done.

- ``/api/lab/scene`` takes the scene the CLI reads (:mod:`talespin.lab.scene_spec`: ``difficulty``,
  ``triggers``, ``characters``, ``obstacles``, ``advantage``) as JSON, plus optional ``policy``
  (auto | roll | optimal, default optimal), ``objective`` (crisis | below) and ``cap`` (default: the
  largest Trigger value), and answers :meth:`talespin.lab.scene_result.SceneAnalysis.to_json`.
- ``/api/lab/conflict`` takes the conflict the CLI reads (:mod:`talespin.lab.conflict_spec`, sheets given
  inline) plus ``seed`` and ``runs``, and answers :meth:`talespin.lab.conflict_sim.ConflictOdds.to_json`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Body

from ..lab.conflict_sim import simulate_conflict
from ..lab.conflict_spec import SIDES, parse_conflict
from ..lab.scene import POLICIES, analyse_scene
from ..lab.scene_spec import ComplexStep, parse_scene
from ..systems.errors import MalformedCommand
from ..systems.inciting_incident import default_rules
from ..table.shape import check_input

__all__ = [
    "MAX_CAP",
    "MAX_CHARACTERS",
    "MAX_COMPLEX",
    "MAX_FIGHTERS",
    "MAX_OBSTRUCTION",
    "MAX_ROUNDS",
    "MAX_RUNS",
    "MAX_STEPS",
    "MAX_TALENTS",
    "MAX_TRIGGERS",
    "add_scene_routes",
    "conflict_answer",
    "scene_answer",
]

MAX_CHARACTERS = 4
"""Characters present in a scene."""
MAX_TALENTS = 6
"""Talents across the scene's characters (the optimal solver tracks which were used)."""
MAX_STEPS = 12
"""Obstacles faced, counting one per character for an obstacle faced individually."""
MAX_COMPLEX = 3
"""Complex Obstacles in a scene (each is solved over every Crisis it may start at)."""
MAX_TRIGGERS = 10
"""Triggers in a scene."""
MAX_OBSTRUCTION = 30
"""A Complex Obstacle's Obstruction."""
MAX_CAP = 40
"""The Crisis cap (the analysis is over Crisis 0..cap)."""
MAX_FIGHTERS = 6
"""Sheets on each side of a conflict."""
MAX_ROUNDS = 100
"""A conflict's ``max_rounds``."""
MAX_RUNS = 10_000
"""Conflicts simulated per request."""
MAX_SEED = 10_000
"""The largest seed."""

_SCENE_OPTIONS = ("policy", "objective", "cap")


def _limit(count: int, high: int, what: str, path: str) -> None:
    if count > high:
        raise MalformedCommand(f"{what}: at most {high}, got {count}", code="too_large", path=path)


def _whole(body: Mapping[str, Any], key: str, low: int, high: int, default: int | None) -> int:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MalformedCommand(
            f"{key} must be a whole number {low}..{high}, got {value!r}", code="bad_field", path=key
        )
    return value


def _length(body: Mapping[str, Any], key: str, high: int, what: str) -> None:
    raw = body.get(key)
    if isinstance(raw, list):
        _limit(len(raw), high, what, key)


def _choice(body: Mapping[str, Any], key: str, allowed: tuple[str, ...], default: str) -> str:
    value = body.get(key, default)
    if value not in allowed:
        raise MalformedCommand(
            f"{key} must be one of {', '.join(allowed)}, got {value!r}", code="bad_field", path=key
        )
    return str(value)


def scene_answer(body: Mapping[str, Any]) -> dict[str, Any]:
    """The analysis ``POST /api/lab/scene`` answers for ``body``, every limit checked first."""
    check_input(body, what="lab scene")
    rules = default_rules()
    spec = {k: v for k, v in body.items() if k not in _SCENE_OPTIONS}
    _length(spec, "characters", MAX_CHARACTERS, "characters present")
    _length(spec, "obstacles", MAX_STEPS, "obstacles")
    _length(spec, "triggers", MAX_TRIGGERS, "triggers")
    scene = parse_scene(spec, rules)
    _limit(sum(len(m.talents) for m in scene.party), MAX_TALENTS, "Talents in the party", "characters")
    _limit(len(scene.steps), MAX_STEPS, "obstacles faced (one per character faced individually)", "obstacles")
    complex_steps = [s for s in scene.steps if isinstance(s, ComplexStep)]
    _limit(len(complex_steps), MAX_COMPLEX, "Complex Obstacles", "obstacles")
    for k, step in enumerate(scene.steps):
        if isinstance(step, ComplexStep):
            _limit(step.obstruction, MAX_OBSTRUCTION, "Obstruction", f"obstacles[{k}].obstruction")
    policy = _choice(body, "policy", POLICIES, "optimal")
    objective = _choice(body, "objective", ("crisis", "below"), "crisis")
    cap = _whole(body, "cap", 1, MAX_CAP, None) if body.get("cap") is not None else None
    if cap is None:
        highest = max((t.at for t in scene.triggers), default=1)
        _limit(highest, MAX_CAP, "the Crisis cap (the highest Trigger value)", "triggers")
    return analyse_scene(scene, rules, policy=policy, objective=objective, cap=cap).to_json()


def conflict_answer(body: Mapping[str, Any]) -> dict[str, Any]:
    """The odds ``POST /api/lab/conflict`` answers for ``body``, every limit checked first."""
    check_input(body, what="lab conflict")
    rules = default_rules()
    spec = {k: v for k, v in body.items() if k not in ("seed", "runs")}
    for side in SIDES:
        _length(spec, side, MAX_FIGHTERS, f"{side} sheets")
    rounds = spec.get("max_rounds")
    if isinstance(rounds, int) and not isinstance(rounds, bool):
        _limit(rounds, MAX_ROUNDS, "max_rounds", "max_rounds")
    conflict = parse_conflict(spec, rules)
    runs = _whole(body, "runs", 1, MAX_RUNS, None)
    seed = _whole(body, "seed", 0, MAX_SEED, None)
    return simulate_conflict(conflict, rules, sims=runs, seed=seed).to_json()


def add_scene_routes(router: APIRouter) -> None:
    """Add ``/api/lab/scene`` and ``/api/lab/conflict`` to the lab's router."""

    @router.post("/api/lab/scene", tags=["lab"])
    def lab_scene(body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        """A whole action scene analysed exactly: its Crisis, each Trigger's odds, E[actions]."""
        return scene_answer(body)

    @router.post("/api/lab/conflict", tags=["lab"])
    def lab_conflict(body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        """Whole conflicts simulated from a seed: P(the characters win), rounds, wounds, Crisis."""
        return conflict_answer(body)
