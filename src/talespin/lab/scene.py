"""Whole action scenes analysed exactly: the Crisis a scene ends with, its Triggers, Rising Tension, actions.

A :class:`~.scene_spec.Scene` is played obstacle by obstacle under one policy:

* ``auto`` — pass every Simple Obstacle automatically; on a Complex Obstacle take automatic Regular Actions
  until the Obstruction is at its floor, then a Decisive Action with the Talent likeliest to beat it;
* ``roll`` — always the best Talent roll: on a Simple Obstacle the Talent with the least expected Crisis; on
  a Complex Obstacle a Decisive Action once some Talent beats the Obstruction with probability at least
  ``decisive_at``, else the Regular Action with the least expected Crisis (the +3 of a repeat counted);
* ``optimal`` — the best play for the whole scene's objective (least expected Crisis, or the greatest
  P(Crisis stays below the cap)), found backwards: the value after the last obstacle is the objective, each
  Complex Obstacle is solved exactly against the value of what follows (:func:`~.obstacle.solve`).

The rules the table enforces hold throughout (no one acts twice in a row on one obstacle, the +3 for a
repeated Talent, the last Decisive attempt beating the obstacle). Crisis is capped at the largest relevant
threshold: the distribution's last entry is "at or above the cap", and actions and Rising Tension are
counted while Crisis is below it. With ``exact=True`` every figure is also an exact fraction.

>>> from .scene_spec import parse_scene
>>> scene = parse_scene({"triggers": [{"at": 8}], "characters": [{"name": "Ada", "talents": {"Wits": 3}}],
...                      "obstacles": [{"kind": "simple"}, {"kind": "simple"}]})
>>> analyse_scene(scene, policy="auto").crisis[8]     # two automatic passes: 4 + 4 Crisis
1.0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from ..systems.errors import MalformedCommand
from ..systems.inciting_incident.chances import action_crisis
from ..systems.inciting_incident.rules import Rules, default_rules
from .obstacle import Action, Solution, Spot, check_progress, solve, utility
from .party import Member, roll_table
from .scene_play import Choice, ComplexState, Mass, Play, Talented, play_complex, play_simple
from .scene_result import SceneAnalysis, trigger_odds
from .scene_spec import ComplexStep, Scene, SimpleStep

__all__ = ["DEFAULT_CAP", "POLICIES", "analyse_scene", "default_cap"]

POLICIES = ("auto", "roll", "optimal")
DEFAULT_CAP = 60
"""The Crisis cap of a scene without Triggers."""


def default_cap(scene: Scene) -> int:
    """The largest relevant threshold: each Trigger's value, a repeating one's third value."""
    values = [t.at + 2 * t.every if t.every else t.at for t in scene.triggers]
    return max(values, default=DEFAULT_CAP)


def _choices(member: Member, d6: int, advantage: int, rules: Rules) -> list[Choice]:
    auto = Choice(
        member.name,
        None,
        ((Fraction(1), action_crisis(rules.crisis.auto, 0, rules=rules)),),
        rules.simple.auto_rising_tension,
    )
    out = [auto]
    for name, level in member.talents:
        table = roll_table(d6, advantage, level, rules.roll.target, rules)
        outcomes = tuple((p, crisis) for p, _, crisis in table.regular(rules, 0))
        out.append(Choice(member.name, name, outcomes, 0))
    return out


def _pickers(step: SimpleStep, scene: Scene, rules: Rules) -> list[tuple[Fraction, list[Choice]]]:
    members = [m for m in scene.party if m.name in step.faced_by]
    offers = [_choices(m, step.difficulty, scene.advantage, rules) for m in members]
    if step.choose == "random":
        return [(Fraction(1, len(offers)), o) for o in offers]
    return [(Fraction(1), [c for o in offers for c in o])]


def _worth(choice: Choice, c: int, value: np.ndarray) -> float:
    cap = len(value) - 1
    return sum(float(p) * float(value[min(c + x, cap)]) for p, x in choice.outcomes)


def _simple_chooser(policy: str, value: np.ndarray | None) -> Callable[[int, Sequence[Choice]], Choice]:
    def choose(c: int, choices: Sequence[Choice]) -> Choice:
        if policy == "auto":
            return next(ch for ch in choices if ch.talent is None)
        if policy == "roll":
            rolled = [ch for ch in choices if ch.talent is not None]
            return min(rolled, key=Choice.expected_crisis)
        assert value is not None
        return max(choices, key=lambda ch: _worth(ch, c, value))

    return choose


def _simple_value(pickers: Sequence[tuple[Fraction, Sequence[Choice]]], value: np.ndarray) -> np.ndarray:
    """The value before a Simple Obstacle when it is faced optimally, from the value after it."""
    cap = len(value) - 1
    before = value.copy()
    for c in range(cap):
        before[c] = sum(float(w) * max(_worth(ch, c, value) for ch in chs) for w, chs in pickers)
    return before


def _talents(scene: Scene, step: ComplexStep, rules: Rules) -> list[Talented]:
    tcap = max(rules.roll.target + step.obstruction, step.obstruction, 1)
    out: list[Talented] = []
    for i, member in enumerate(scene.party):
        for j, (_, level) in enumerate(member.talents):
            table = roll_table(step.difficulty, scene.advantage, level, tcap, rules)
            out.append(Talented(i, j, len(out), table))
    return out


def _fixed_picker(
    policy: str, scene: Scene, talents: Sequence[Talented], rules: Rules, decisive_at: float
) -> Callable[[int, ComplexState], Action]:
    """The ``auto`` or ``roll`` policy on a Complex Obstacle, as a function of the state."""
    party, n = scene.party, len(scene.party)
    extra = rules.crisis.repeated_talent
    tails = {id(t): np.cumsum(np.asarray(t.table.floats)[::-1])[::-1] for t in talents}
    costs = {
        (id(t), again): sum(float(p) * cr for p, _, cr in t.table.regular(rules, extra if again else 0))
        for t in talents
        for again in (0, 1)
    }

    def beats(t: Talented, obstruction: int) -> float:
        tail = tails[id(t)]
        return float(tail[obstruction]) if obstruction < len(tail) else 0.0

    def pick(c: int, state: ComplexState) -> Action:
        allowed = [t for t in talents if n == 1 or t.member != state.last]
        can_decide = state.attempts > 0
        if policy == "auto" and (state.obstruction > rules.complex.obstruction_min or not can_decide):
            first = next(i for i in range(n) if n == 1 or i != state.last)
            return Action("auto", party[first].name)
        best = max(allowed, key=lambda t: beats(t, state.obstruction))
        name = party[best.member].name
        if policy == "auto" or (can_decide and beats(best, state.obstruction) >= decisive_at):
            return Action("decisive", name, party[best.member].talents[best.talent][0])
        cheap = min(allowed, key=lambda t: costs[(id(t), int(bool(state.used >> t.bit & 1)))])
        return Action("regular", party[cheap.member].name, party[cheap.member].talents[cheap.talent][0])

    return pick


def _solved_picker(solution: Solution) -> Callable[[int, ComplexState], Action]:
    policy = solution.policy
    assert policy is not None

    def pick(c: int, state: ComplexState) -> Action:
        return solution.actions[int(policy[c, state.last, state.obstruction, state.attempts, state.used])]

    return pick


def analyse_scene(
    scene: Scene,
    rules: Rules | None = None,
    *,
    policy: str = "optimal",
    objective: str = "crisis",
    cap: int | None = None,
    exact: bool = False,
    decisive_at: float = 0.5,
) -> SceneAnalysis:
    """Play ``scene`` under ``policy`` and return the exact distribution of its Crisis and what follows."""
    rules = rules or default_rules()
    check_progress(rules)
    if policy not in POLICIES:
        raise MalformedCommand(
            f"policy must be one of {', '.join(POLICIES)}, got {policy!r}", code="bad_field", path="policy"
        )
    cap = default_cap(scene) if cap is None else cap
    highest = max((t.at for t in scene.triggers), default=1)
    if cap < highest or cap < 1:
        raise MalformedCommand(
            f"the Crisis cap {cap} must be at least 1 and reach every Trigger (the highest is at {highest})",
            code="bad_field",
            path="cap",
        )
    terminal = utility(objective, cap)
    pickers: dict[int, Callable[[int, ComplexState], Action]] = {}
    values: dict[int, np.ndarray] = {}
    value = terminal
    for k in range(len(scene.steps) - 1, -1, -1):
        step = scene.steps[k]
        values[k] = value
        if policy != "optimal":
            continue
        if isinstance(step, SimpleStep):
            value = _simple_value(_pickers(step, scene, rules), value)
        else:
            solution = solve(
                scene.party,
                Spot(step.obstruction, step.attempts),
                rules,
                terminal=value,
                base_d6=step.difficulty,
                advantage=scene.advantage,
                keep_policy=True,
            )
            assert solution.start is not None
            pickers[k] = _solved_picker(solution)
            value = solution.start
    zero: Mass = Fraction(0) if exact else 0.0
    crisis: list[Mass] = [zero] * (cap + 1)
    crisis[0] = Fraction(1) if exact else 1.0
    actions, tension = zero, zero
    for k, step in enumerate(scene.steps):
        played: Play
        if isinstance(step, SimpleStep):
            chooser = _simple_chooser(policy, values[k] if policy == "optimal" else None)
            played = play_simple(crisis, _pickers(step, scene, rules), chooser, exact)
        else:
            talents = _talents(scene, step, rules)
            pick = pickers.get(k) or _fixed_picker(policy, scene, talents, rules, decisive_at)
            start = (step.obstruction, step.attempts)
            played = play_complex(scene.party, talents, start, crisis, pick, rules, exact)
        crisis, actions, tension = played.crisis, actions + played.actions, tension + played.tension
    return SceneAnalysis(
        policy=policy,
        objective=objective,
        cap=cap,
        crisis=tuple(float(p) for p in crisis),
        crisis_exact=tuple(crisis) if exact else None,
        triggers=tuple(trigger_odds(t, crisis, exact) for t in scene.triggers),
        expected_actions=float(actions),
        expected_rising_tension=float(tension),
        actions_exact=actions if exact else None,
        tension_exact=tension if exact else None,
    )
