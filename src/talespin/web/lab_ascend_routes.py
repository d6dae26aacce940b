"""``POST /api/lab/ascend/…``: the Ascend lab over HTTP (pure computation: no campaign, no token).

Every body may carry ``"variant"`` (rules overrides); the answers are the lab results' ``to_json()``:

- ``/api/lab/ascend/extended`` ``{"target", "pools": [n, …], "goal", "limit"}`` — P(reaching the goal within
  n Tests) per pool (:func:`talespin.lab.ascend_tests.extended_table`);
- ``/api/lab/ascend/opposed`` ``{"target", "vs_target", "pools", "vs_pools"?}`` — P(the attacker wins) under
  both tie rules (:func:`talespin.lab.ascend_tests.opposed_table`);
- ``/api/lab/ascend/narration`` ``{"hero": sheet, "difficulty"?, "required"?}`` — the value of narration for
  each Skill and Conviction (:func:`talespin.lab.ascend_tests.narration_value`).

Bad input is a 422 naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Body

from ..lab.ascend_tests import extended_table, narration_value, opposed_table
from ..systems.ascend import Rules, load_rules, parse_hero
from ..systems.errors import MalformedCommand
from ..table.shape import check_input

__all__ = ["add_ascend_routes"]

_MAX_POOL = 60
_MAX_POOLS = 20


def _whole(body: Mapping[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MalformedCommand(
            f"{key} must be a whole number {low}..{high}, got {value!r}", code="bad_field", path=key
        )
    return value


def _pools(body: Mapping[str, Any], key: str) -> list[int]:
    raw = body.get(key)
    if not isinstance(raw, list):
        raw = []
    whole = all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= _MAX_POOL for n in raw)
    if not whole or not 0 < len(raw) <= _MAX_POOLS:
        raise MalformedCommand(
            f"{key} is a list of 1 to {_MAX_POOLS} pool sizes 0..{_MAX_POOL}, e.g. [3, 4, 5]",
            code="bad_field",
            path=key,
        )
    return list(raw)


def _rules(body: Mapping[str, Any]) -> Rules:
    variant = body.get("variant")
    if variant is not None and not isinstance(variant, Mapping):
        raise MalformedCommand("variant must be an object of rules-data overrides", path="variant")
    return load_rules(variant or None)


def add_ascend_routes(router: APIRouter) -> None:
    """Add the Ascend lab's three routes to the lab's router."""

    @router.post("/api/lab/ascend/extended", tags=["lab"])
    def lab_extended(body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        """P(reaching the goal within 1, 2, … limit Tests), exactly, for each pool."""
        check_input(body, what="lab query")
        rules = _rules(body)
        return extended_table(
            rules,
            target=_whole(body, "target", -1, rules.die.size),
            pools=_pools(body, "pools"),
            goal=_whole(body, "goal", 1, 100),
            limit=_whole(body, "limit", 1, 50),
        ).to_json()

    @router.post("/api/lab/ascend/opposed", tags=["lab"])
    def lab_opposed(body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        """P(the attacker wins) for every pair of pools, a tie to the defender and a tie rolled again."""
        check_input(body, what="lab query")
        rules = _rules(body)
        pools = _pools(body, "pools")
        return opposed_table(
            rules,
            attacker_target=_whole(body, "target", -1, rules.die.size),
            defender_target=_whole(body, "vs_target", -1, rules.die.size),
            attacker_pools=pools,
            defender_pools=_pools(body, "vs_pools") if "vs_pools" in body else pools,
        ).to_json()

    @router.post("/api/lab/ascend/narration", tags=["lab"])
    def lab_narration(body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        """Per Skill and Conviction of the hero: best P(success) with no narration, narrated, exceptional."""
        check_input(body, what="lab query")
        rules = _rules(body)
        hero = parse_hero(body.get("hero"), rules, path="hero")
        difficulty = _whole(body, "difficulty", rules.difficulty.min, 100, rules.difficulty.default)
        required = _whole(body, "required", rules.required.min, 100, rules.required.default)
        return narration_value(hero, rules, difficulty=difficulty, required=required).to_json()
