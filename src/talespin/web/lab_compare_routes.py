"""``POST /api/lab/compare``: rules variants side by side over HTTP (pure computation: no campaign, no token).

The body is ``{"system"?: "inciting-incident" | "ascend", "variants": {name: overrides, …}, "max_net"?,
"max_pool"?, "max_required"?}``. The shipped rules come first as ``"shipped"`` (the baseline of every
difference) unless a variant of that name is given. The answer is the comparison's ``to_json()``:
:meth:`talespin.lab.variants.VariantComparison.to_json` for Inciting Incident (with ``"system"`` added, and
each variant's ``"auto_crisis"``: the automatic pass's Crisis, what a player weighs the roll against),
:meth:`talespin.lab.ascend_variants.AscendComparison.to_json` for Ascend. Bad input is a 422 naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Body

from ..lab.ascend_variants import compare_ascend
from ..lab.variants import compare
from ..systems import get_system, registered
from ..systems.errors import MalformedCommand
from ..systems.inciting_incident import load_rules
from ..table.shape import check_input

_II = registered("talespin.systems.inciting_incident").name
_ASCEND = registered("talespin.systems.ascend").name

__all__ = ["MAX_VARIANTS", "add_compare_routes"]

MAX_VARIANTS = 6
"""At most this many variants (besides the shipped rules) in one comparison."""


def _bounded(body: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MalformedCommand(
            f"{key} must be a whole number {low}..{high}, got {value!r}", code="bad_field", path=key
        )
    return value


def _variants(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, Mapping) or not raw:
        raise MalformedCommand(
            'variants is an object of rules overrides by name, e.g. {"auto 5": {"crisis": {"auto": 5}}}',
            code="bad_variant",
            path="variants",
        )
    if len(raw) > MAX_VARIANTS:
        raise MalformedCommand(
            f"compare at most {MAX_VARIANTS} variants at once, got {len(raw)}",
            code="bad_variant",
            path="variants",
        )
    named: dict[str, Any] = {} if "shipped" in raw else {"shipped": {}}
    for name, overrides in raw.items():
        if not isinstance(name, str) or not name.strip() or len(name) > 60:
            raise MalformedCommand("a variant's name is a text of 1 to 60 characters", path="variants")
        if not isinstance(overrides, Mapping):
            raise MalformedCommand(
                f"variant {name!r} must be an object of rules-data overrides", path=f"variants.{name}"
            )
        named[name] = dict(overrides)
    return named


def add_compare_routes(router: APIRouter) -> None:
    """Add ``POST /api/lab/compare`` to the lab's router."""

    @router.post("/api/lab/compare", tags=["lab"])
    def lab_compare(body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        """The shipped rules and each variant on the same grid, with the player's choice per cell."""
        check_input(body, what="lab query")
        system = get_system(str(body.get("system", _II))).name
        named = _variants(body.get("variants"))
        if system == _ASCEND:
            ascend = compare_ascend(
                named,
                max_pool=_bounded(body, "max_pool", 15, 0, 30),
                max_required=_bounded(body, "max_required", 5, 1, 10),
            )
            return ascend.to_json()
        grid = compare(named, max_base=9, max_net=_bounded(body, "max_net", 10, 0, 10)).to_json()
        for row in grid["variants"]:  # the automatic pass's Crisis: the other side of the player's choice
            row["auto_crisis"] = load_rules(named[row["name"]] or None).crisis.auto
        return {"system": system, **grid}
