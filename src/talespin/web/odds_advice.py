"""Best play on a Complex Obstacle, added to the table's odds answer (``POST /api/campaigns/{id}/odds``).

While an Inciting Incident Complex Obstacle is in play, the answer gains ``"advice"``: the lab's exact
solver (:func:`talespin.lab.advice.advise`) run on the scene as this viewer sees it — the characters present,
the Obstruction and attempts left, who acted last, the Talents already used, the Crisis so far, the
campaign's variant of the rules — and every row of the character's own choices gains ``"optimal"`` and
``"cost_vs_best"`` (how much worse than the best action anyone present could take, in the objective's units).

The query may name ``"objective"``: ``"crisis"`` (least expected Crisis, the default; Crisis is counted up
to the Crisis so far plus :data:`HORIZON`) or ``"below"`` (most likely to stay below the next Trigger value
this viewer can see, so a GM-only Trigger never shapes a player's advice). An obstacle too large to solve
while a player waits, and any question outside a Complex Obstacle, give ``"advice": null`` and say why in
``"advice_reason"``. The advice weighs every modifier Skill of the characters' sheets (II-SKILL-1/2) as the
table rolls it: each Talent roll with each set of its Skills that change a roll is an action of its own, and a
row of the odds answer is marked with the action of the Skills the query ticks. What a character carries
from an earlier command (a recreated Skill, II-SKILL-3) is not weighed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from ..dice import DiceError
from ..lab.advice import Advice, advise
from ..lab.limits import TABLE
from ..lab.obstacle import Action, Spot, solve_size
from ..lab.party import Member, parse_party
from ..systems.errors import MalformedCommand, RulesError
from ..systems.inciting_incident import Rules, load_rules
from ..table import TableService, Viewer

__all__ = ["HORIZON", "MAX_TABLE_STATES", "odds_with_advice", "with_advice"]

HORIZON = 40
"""Without a visible Trigger ahead, the advice looks this much Crisis beyond the Crisis so far."""

MAX_TABLE_STATES = TABLE.states
"""The largest obstacle solved inside an odds request (about half a second; the reference obstacle of
``bench/bench_lab.py`` has twice as many states); larger ones say so instead, with the count. This and the
other limits of a table's solve are :data:`talespin.lab.limits.TABLE`."""


def _next_trigger(scene: Mapping[str, Any]) -> int | None:
    """II-CRISIS-2: the smallest Trigger value above the Crisis so far that has not fired."""
    crisis = int(scene.get("crisis", 0))
    values = []
    for trigger in scene.get("triggers") or []:
        at, every, fired = trigger.get("at"), trigger.get("every"), set(trigger.get("fired") or [])
        if not isinstance(at, int):
            continue
        value = at
        if isinstance(every, int) and every > 0 and value <= crisis:
            value += ((crisis - value) // every + 1) * every
        while value in fired and isinstance(every, int) and every > 0:
            value += every
        if value > crisis and value not in fired:
            values.append(value)
    return min(values, default=None)


@lru_cache(maxsize=64)
def _solved(
    *, party: tuple[Member, ...], spot: Spot, objective: str, cap: int, base: int, net: int, rules: Rules
) -> Advice:
    return advise(
        party, spot, objective=objective, cap=cap, base_d6=base, advantage=net, rules=rules, limits=TABLE
    )


def _advice(view: Mapping[str, Any], query: Mapping[str, Any]) -> tuple[Advice | None, str | None]:
    state = view.get("state") or {}
    scene = state.get("scene") or {}
    obstacle = scene.get("obstacle") or {}
    if obstacle.get("kind") != "complex" or obstacle.get("beaten"):
        return None, "no Complex Obstacle is in play"
    rules = load_rules(view.get("variant") or None)
    present = set(scene.get("present") or [])
    # Sheets in a campaign are checked already; a character without Talents still takes automatic actions.
    party = tuple(
        _member(c["name"], c["sheet"].get("talents") or [], rules)
        for c in state.get("characters", [])
        if not present or c["name"] in present
    )
    used = frozenset(
        (who, talent) for who, talents in (obstacle.get("used_talents") or {}).items() for talent in talents
    )
    crisis = int(scene.get("crisis", 0))
    spot = Spot(obstacle["obstruction"], obstacle["attempts_left"], obstacle.get("last_actor"), used, crisis)
    objective = query.get("objective", "crisis")
    if objective not in ("crisis", "below"):
        raise MalformedCommand("objective must be 'crisis' or 'below'", code="bad_field", path="objective")
    trigger = _next_trigger(scene) if objective == "below" else None
    cap = trigger if trigger is not None else crisis + HORIZON
    excess = solve_size(party, spot, rules, cap).excess(TABLE)
    if excess is not None:
        return None, f"too large to solve at the table, {excess}; or use talespin lab advise"
    base = obstacle.get("difficulty") or scene.get("difficulty") or rules.roll.difficulty.default
    net = int(query.get("advantage", 0) or 0) - int(query.get("disadvantage", 0) or 0)
    try:
        solved = _solved(
            party=party, spot=spot, objective=str(objective), cap=cap, base=int(base), net=net, rules=rules
        )
    except (RulesError, DiceError) as error:  # e.g. a variant whose actions may add no Crisis
        return None, f"the solver cannot answer under these rules: {error.message}"
    return solved, None


def _member(name: str, talents: list[Any], rules: Rules) -> Member:
    """A character of the table as the solver sees it: its Talents and their modifier Skills."""
    if not talents:
        return Member(name, ())
    return parse_party([{"name": name, "talents": talents}], rules)[0]


def _action(advice: Advice, kind: str, who: str, talent: str | None, ticked: Any) -> Action:
    """The advice's action for a row: its Talent with the ticked Skills that change a roll, in sheet order."""
    if talent is None:
        return Action(kind, who)
    member = next((m for m in advice.party if m.name == who), None)
    names = set(ticked or [])
    mods = member.modifiers_of(talent) if member is not None else ()
    return Action(kind, who, talent, tuple(m.name for m in mods if m.name in names))


def _mark(row: dict[str, Any], costs: Mapping[Action, float], action: Action) -> None:
    if action in costs:
        row["cost_vs_best"] = costs[action]
        row["optimal"] = costs[action] <= 1e-12


def odds_with_advice(service: TableService, campaign_id: str, who: Viewer, query: Any) -> dict[str, Any]:
    """The system's odds for ``query`` (checked there), with the solver's advice on a Complex Obstacle."""
    answer = service.odds(campaign_id, who, query)
    return with_advice(answer, query, lambda: service.state(campaign_id, who))


def with_advice(
    answer: dict[str, Any], query: Mapping[str, Any], view: Callable[[], Mapping[str, Any]]
) -> dict[str, Any]:
    """``answer`` (an odds answer) with the solver's advice when a Complex Obstacle is in play."""
    if answer.get("situation") not in ("regular_action", "decisive_action"):
        return answer
    advice, reason = _advice(view(), query)
    if advice is None:
        return answer | {"advice": None, "advice_reason": reason}
    costs = {action: cost for action, _, cost in advice.rows}
    who = answer["character"]
    # the service remembers its answers (by version and query): mark copies of the rows, never its own
    marked = ("choices", "decisive")
    answer = answer | {key: [dict(row) for row in answer[key]] for key in marked if key in answer}
    for row in answer.get("choices", []):
        kind = "auto" if row.get("choice") == "auto" else answer["situation"].split("_")[0]
        talent = None if kind == "auto" else row.get("talent")
        _mark(row, costs, _action(advice, kind, who, talent, row.get("skills")))
    for row in answer.get("decisive", []):
        _mark(row, costs, _action(advice, "decisive", who, row.get("talent"), row.get("skills")))
    return answer | {"advice": advice.to_json(), "advice_reason": None}
