"""``/api/lab/…``: the designer's lab over HTTP. Pure computation: no campaign, no token.

``POST /api/lab/advise`` takes ``{"characters": [{name, talents: {Talent: level}}], "obstruction",
"attempts"?, "last"?, "used"?: [[character, talent]], "crisis"?, "cap"?, "objective"?, "dice"?,
"advantage"?}`` and answers :meth:`talespin.lab.advice.Advice.to_json`. Bad input is a 422 naming the key.
``POST /api/lab/compare`` puts rules variants side by side (:mod:`.lab_compare_routes`); ``/api/lab/ascend/…``
answers the Ascend lab's questions (:mod:`.lab_ascend_routes`); ``/api/lab/scene`` and
``/api/lab/conflict`` analyse a scene and simulate a conflict (:mod:`.lab_scene_routes`); ``/api/lab/report``
answers a system's balance report, its page and pictures inline (:mod:`.lab_report_routes`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Body

from ..lab.advice import advise
from ..lab.obstacle import Spot
from ..lab.party import parse_party
from ..systems.errors import MalformedCommand
from ..systems.inciting_incident import default_rules
from ..table.shape import check_depth
from .lab_ascend_routes import add_ascend_routes
from .lab_compare_routes import add_compare_routes
from .lab_report_routes import add_report_routes
from .lab_scene_routes import add_scene_routes

__all__ = ["lab_router"]

_MAX_CAP = 200


def _whole(body: Mapping[str, Any], key: str, default: int | None, low: int, high: int) -> int:
    value = body.get(key, default)
    if value is None or isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MalformedCommand(
            f"{key} must be a whole number {low}..{high}, got {value!r}", code="bad_field", path=key
        )
    return value


def _used(raw: Any) -> frozenset[tuple[str, str]]:
    ok = isinstance(raw, list) and all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in raw
    )
    if not ok:
        raise MalformedCommand(
            'used is a list of [character, talent] pairs, e.g. [["Ada", "Piloting"]]',
            code="bad_field",
            path="used",
        )
    return frozenset((p[0], p[1]) for p in raw)


def lab_router() -> APIRouter:
    """The lab's endpoints."""
    router = APIRouter()

    @router.post("/api/lab/advise", tags=["lab"])
    def lab_advise(body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        """Each legal action on a Complex Obstacle with its value under optimal play, best first."""
        check_depth(body, what="lab query")
        rules = default_rules()
        party = parse_party(body.get("characters"), rules)
        last = body.get("last")
        if last is not None and not isinstance(last, str):
            raise MalformedCommand("last must be a character's name", code="bad_field", path="last")
        spot = Spot(
            _whole(body, "obstruction", None, 0, 200),
            _whole(body, "attempts", rules.complex.attempts.max, 0, rules.complex.attempts.max),
            last,
            _used(body.get("used", [])),
            _whole(body, "crisis", 0, 0, _MAX_CAP),
        )
        objective = body.get("objective", "crisis")
        if objective not in ("crisis", "below"):
            raise MalformedCommand(
                "objective must be 'crisis' or 'below'", code="bad_field", path="objective"
            )
        span = rules.roll.difficulty
        return advise(
            party,
            spot,
            objective=str(objective),
            cap=_whole(body, "cap", 60, 1, _MAX_CAP),
            base_d6=_whole(body, "dice", span.default, span.min, span.max),
            advantage=_whole(body, "advantage", 0, -20, 20),
            rules=rules,
        ).to_json()

    add_compare_routes(router)
    add_ascend_routes(router)
    add_scene_routes(router)
    add_report_routes(router)
    return router
