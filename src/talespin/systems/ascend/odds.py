"""Odds queries: what the table asks before anyone rolls (``odds(state, query)``).

The query is a mapping; its ``kind`` picks the question (``advice`` when a ``hero`` is named):

* ``advice`` — ``{"hero", "skill" | "conviction", "difficulty", "required", "narration", "limit",
  "distinct", "top", "current"}``: every legal Dice Pool ranked by P(success) (AS-ODDS-3), in the shape of
  docs/state-views.md; with ``top`` only the best ``top`` rows and the ``current`` choice's row;
* ``test`` — ``{"rating", "difficulty", "pool", "required"}``: the Successes distribution (AS-ODDS-1);
* ``opposed`` — ``{"attacker": {"rating", "difficulty", "pool"}, "defender": {...}}`` (AS-ODDS-2);
* ``extended`` — ``{"rating", "difficulty", "pool", "goal", "limit"}``: Tests needed (AS-ODDS-2).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

from ..bounds import Whole
from ..errors import IllegalCommand, MalformedCommand
from .advice import Choice, advise
from .advice_marks import goal_chances, mark_rows
from .chances import extended_odds, opposed_odds, test_odds
from .rule_ids import TEST_1
from .rules import Narration, Rules
from .state import AscendState

__all__ = ["answer"]


class _Query(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CurrentChoice(_Query):
    """The Dice Pool a page has chosen now: its Trait, Background, Aid and Invoked items (by name)."""

    trait: StrictStr | None = None
    background: StrictStr | None = None
    aid: StrictStr | None = None
    invoke: list[StrictStr] = Field(default_factory=list, max_length=16)

    def matches(self, choice: Choice) -> bool:
        """Whether ``choice`` is this pool (the Invoked items in any order)."""
        return (choice.trait, choice.background, choice.aid, sorted(choice.invoke)) == (
            self.trait,
            self.background,
            self.aid,
            sorted(self.invoke),
        )


class AdviceQuery(_Query):
    """AS-ODDS-3 for one hero's Test."""

    kind: Literal["advice"] = "advice"
    hero: StrictStr
    skill: StrictStr | None = None
    conviction: StrictStr | None = None
    difficulty: Whole | None = None
    required: Whole | None = None
    narration: Narration = "none"
    limit: Whole | None = Field(default=None, ge=1)
    distinct: bool = False
    top: Whole | None = Field(default=None, ge=1)
    current: CurrentChoice | None = None


class Side(_Query):
    """A Test by its numbers: rating, Difficulty and pool size."""

    rating: Whole
    difficulty: Whole = 0
    pool: Whole = Field(ge=0)

    @property
    def target(self) -> int:
        """Target = rating − Difficulty."""
        return self.rating - self.difficulty


class TestQuery(Side):
    """AS-ODDS-1 for a Test by its numbers."""

    kind: Literal["test"]
    required: Whole | None = Field(default=None, ge=1)


class OpposedQuery(_Query):
    """AS-ODDS-2 for two sides by their numbers."""

    kind: Literal["opposed"]
    attacker: Side
    defender: Side


class ExtendedQuery(Side):
    """AS-ODDS-2 for an extended Test of equal steps."""

    kind: Literal["extended"]
    goal: Whole = Field(ge=1)
    limit: Whole | None = Field(default=None, ge=1)


_QUERIES: dict[str, type[_Query]] = {
    "advice": AdviceQuery,
    "test": TestQuery,
    "opposed": OpposedQuery,
    "extended": ExtendedQuery,
}


def _parse(query: Mapping[str, Any]) -> _Query:
    if not isinstance(query, Mapping):
        raise MalformedCommand("an odds query is a mapping", code="bad_query", path="")
    kind = query.get("kind", "advice" if "hero" in query else None)
    model = _QUERIES.get(kind) if isinstance(kind, str) else None
    if model is None:
        known = ", ".join(_QUERIES)
        raise MalformedCommand(
            f"unknown odds query kind {kind!r}; expected one of: {known}", code="bad_query", path="kind"
        )
    try:
        return model.model_validate({**query, "kind": kind})
    except ValidationError as error:
        first = error.errors()[0]
        path = ".".join(str(p) for p in first["loc"])
        raise MalformedCommand(f"odds query {path}: {first['msg']}", code="bad_query", path=path) from None


_RANKINGS: OrderedDict[tuple[str, ...], tuple[Rules, list[Choice]]] = OrderedDict()
"""The latest rankings by hero sheet and Test: a page that changes only its chosen pool (``current``,
``top``) is answered without ranking every pool again. A ranking is a pure function of these, so a
remembered one is the ranking itself."""
_RANKINGS_KEPT: Final = 64


def _ranked(state: AscendState, query: AdviceQuery) -> list[Choice]:
    hero = state.hero(query.hero)
    if hero is None:
        raise IllegalCommand(f"no hero called {query.hero!r}", rule=TEST_1, code="unknown_hero", path="hero")
    asked = (query.skill, query.conviction, query.difficulty, query.required, query.distinct, query.narration)
    key = (hero.model_dump_json(), *(repr(value) for value in asked))
    found = _RANKINGS.get(key)
    if found is not None and found[0] is state.rules:
        _RANKINGS.move_to_end(key)
        return found[1]
    choices = advise(
        hero,
        skill=query.skill,
        conviction=query.conviction,
        difficulty=query.difficulty,
        required=query.required,
        narration=query.narration,
        rules=state.rules,
        distinct=query.distinct,
    )
    _RANKINGS[key] = (state.rules, choices)
    while len(_RANKINGS) > _RANKINGS_KEPT:
        _RANKINGS.popitem(last=False)
    return choices


def _shown(choices: list[Choice], query: AdviceQuery) -> tuple[list[Choice], Choice | None]:
    """The rows to answer with (``limit``, then ``top`` plus the current choice) and the current choice."""
    shown = choices if query.limit is None else choices[: query.limit]
    current = None
    if query.current is not None:
        current = next((choice for choice in choices if query.current.matches(choice)), None)
    if query.top is not None:
        shown = shown[: query.top]
        if current is not None and current not in shown:
            shown = [*shown, current]
    return shown, current


def _advice(state: AscendState, query: AdviceQuery) -> dict[str, Any]:
    choices = _ranked(state, query)
    hero = state.hero(query.hero)
    assert hero is not None  # _ranked refused an unknown hero
    shown, current = _shown(choices, query)
    first = choices[0]
    tested = {"skill": query.skill} if query.skill is not None else {"conviction": query.conviction}
    rows = [choice.to_json(state.rules) for choice in shown]
    # A blind roll's Successes are the GM's alone, and odds carry no role: such a Test gets no goal chances.
    extended = state.extended
    progress = extended if extended is not None and extended.open and not extended.blind else None
    reach = None if progress is None else goal_chances(state.rules, progress, target=first.target)
    mark_rows(rows, [c.p_success for c in shown], reach)
    body: dict[str, Any] = {
        "hero": hero.name,
        **tested,
        "narration": query.narration,
        "target": first.target,
        "required": first.required,
        "choices": len(choices),
        "advice": rows,
        "truncated": len(shown) < len(choices),
    }
    if query.top is not None:
        body["top"] = query.top
    if query.current is not None:  # the chosen pool's row (also among "advice"), or null if it is not legal
        body["current"] = rows[shown.index(current)] if current is not None else None
    if progress is not None:  # an extended Test under way: each pool's chance to finish it
        tests_left = None if progress.limit is None else progress.limit - progress.tests
        needed = max(progress.goal - progress.successes, 0)
        body["extended"] = {"successes_needed": needed, "tests_left": tests_left}
    return body


def answer(state: AscendState, query: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON answer to one odds query (see the module docstring for the kinds)."""
    parsed = _parse(query)
    rules = state.rules
    if isinstance(parsed, AdviceQuery):
        return _advice(state, parsed)
    if isinstance(parsed, TestQuery):
        return {
            "kind": "test",
            **test_odds(parsed.pool, parsed.target, required=parsed.required, rules=rules).to_json(),
        }
    if isinstance(parsed, OpposedQuery):
        a, d = parsed.attacker, parsed.defender
        body = opposed_odds((a.pool, a.target), (d.pool, d.target), rules=rules).to_json()
        return {
            "kind": "opposed",
            "attacker": {"target": a.target, "pool": a.pool},
            "defender": {"target": d.target, "pool": d.pool},
            **body,
        }
    assert isinstance(parsed, ExtendedQuery)  # the last kind of _QUERIES
    odds = extended_odds(parsed.pool, parsed.target, parsed.goal, limit=parsed.limit, rules=rules)
    return {"kind": "extended", "target": parsed.target, "pool": parsed.pool, **odds.to_json()}
