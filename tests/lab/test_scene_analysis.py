"""Whole-scene analysis against a brute-force recursion that restates the rules and the policies itself."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import pytest

from talespin.dice import pool_total
from talespin.lab.scene import analyse_scene
from talespin.lab.scene_spec import parse_scene
from talespin.systems.errors import MalformedCommand
from talespin.systems.inciting_incident import default_rules

RULES = default_rules()
DICE = {lv: RULES.levels.dice[lv] for lv in range(10)}


@cache
def _outcomes(level: int, cap: int) -> tuple[tuple[int, Fraction], ...]:
    """(total, p) of 5d6 plus the Talent's dice, the total capped at ``cap``."""
    return tuple(pool_total([6] * 5 + list(DICE[level]), cap).items())


def _simple_crisis(t: int) -> int:
    return 2 if t >= 20 else max(2, 20 - t)


def _oracle(party, steps, cap, policy):
    """(distribution of min(Crisis, cap), E[actions], E[Rising Tension]) by enumerating every outcome.

    ``party``: [(name, [levels])]; ``steps``: ("simple", who: index or None for the group) or
    ("complex", obstruction, attempts). Policies as documented in talespin.lab.scene.
    """
    n = len(party)

    def e_simple(lv):
        return sum(p * _simple_crisis(t) for t, p in _outcomes(lv, 20))

    def combine(parts):
        dist, acts, rt = {}, Fraction(0), Fraction(0)
        for p, (d, a, r) in parts:
            for c, q in d.items():
                dist[c] = dist.get(c, 0) + p * q
            acts += p * a
            rt += p * r
        return dist, acts, rt

    @cache
    def scene(k, c):
        if c >= cap:
            return {cap: Fraction(1)}, Fraction(0), Fraction(0)
        if k == len(steps):
            return {c: Fraction(1)}, Fraction(0), Fraction(0)
        step = steps[k]
        if step[0] == "simple":
            who = [step[1]] if step[1] is not None else list(range(n))
            if policy == "auto":
                d, a, r = scene(k + 1, c + 4)
                return d, a + 1, r + 1
            lv = min((lv for i in who for lv in party[i][1]), key=e_simple)
            d, a, r = combine([(p, scene(k + 1, c + _simple_crisis(t))) for t, p in _outcomes(lv, 20)])
            return d, a + 1, r
        return obstacle(k, c, step[1], step[2], -1, frozenset())

    def p_beat(lv, o, top):
        return sum(p for t, p in _outcomes(lv, 20 + top) if t >= o)

    def e_regular(lv, extra, top):
        return sum(p * (_simple_crisis(t) + extra) for t, p in _outcomes(lv, 20 + top))

    @cache
    def obstacle(k, c, o, a, last, used):  # noqa: PLR0917 -- one state, spelled out
        if c >= cap:
            return {cap: Fraction(1)}, Fraction(0), Fraction(0)
        top = steps[k][1]
        allowed = [i for i in range(n) if n == 1 or i != last]
        talents = [(i, j, lv) for i in allowed for j, lv in enumerate(party[i][1])]
        best = max(talents, key=lambda x: p_beat(x[2], o, top))
        go_auto = policy == "auto" and (o > 0 or a == 0)
        decide = a > 0 and (policy == "auto" or p_beat(best[2], o, top) >= Fraction(1, 2))
        if go_auto:
            d, acts, r = obstacle(k, c + 4, max(0, o - 4), a, allowed[0], used)
            return d, acts + 1, r
        if decide:
            i, j, lv = best
            parts = []
            for t, p in _outcomes(lv, 20 + top):
                if t >= o or a == 1:
                    parts.append((p, scene(k + 1, c + (2 if t >= o else max(2, o - t)))))
                else:
                    parts.append((p, obstacle(k, c + max(2, o - t), o, a - 1, i, used)))
            d, acts, r = combine(parts)
            return d, acts + 1, r
        i, j, lv = min(talents, key=lambda x: e_regular(x[2], 3 if (x[0], x[1]) in used else 0, top))
        extra = 3 if (i, j) in used else 0
        parts = []
        for t, p in _outcomes(lv, 20 + top):
            o2 = max(0, o - (t - 20)) if t >= 20 else o
            parts.append((p, obstacle(k, c + _simple_crisis(t) + extra, o2, a, i, used | {(i, j)})))
        d, acts, r = combine(parts)
        return d, acts + 1, r

    return scene(0, 0)


def _optimal_value(party, steps, cap):
    """max over all play of −E[min(Crisis, cap)], by direct recursion."""
    n = len(party)

    def term(c):
        return -Fraction(min(c, cap))

    @cache
    def scene(k, c):
        if c >= cap or k == len(steps):
            return term(c)
        step = steps[k]
        if step[0] == "simple":
            who = [step[1]] if step[1] is not None else list(range(n))
            options = [scene(k + 1, c + 4)]
            for i in who:
                for lv in party[i][1]:
                    options.append(sum(p * scene(k + 1, c + _simple_crisis(t)) for t, p in _outcomes(lv, 20)))
            return max(options)
        return obstacle(k, c, step[1], step[2], -1, frozenset())

    @cache
    def obstacle(k, c, o, a, last, used):  # noqa: PLR0917 -- one state, spelled out
        if c >= cap:
            return term(cap)
        top = steps[k][1]
        options = []
        for i in range(n):
            if n > 1 and i == last:
                continue
            options.append(obstacle(k, c + 4, max(0, o - 4), a, i, used))
            for j, lv in enumerate(party[i][1]):
                extra = 3 if (i, j) in used else 0
                v = Fraction(0)
                for t, p in _outcomes(lv, 20 + top):
                    o2 = max(0, o - (t - 20)) if t >= 20 else o
                    v += p * obstacle(k, c + _simple_crisis(t) + extra, o2, a, i, used | {(i, j)})
                options.append(v)
                if a:
                    v = Fraction(0)
                    for t, p in _outcomes(lv, 20 + top):
                        if t >= o or a == 1:
                            v += p * scene(k + 1, c + (2 if t >= o else max(2, o - t)))
                        else:
                            v += p * obstacle(k, c + max(2, o - t), o, a - 1, i, used)
                    options.append(v)
        return max(options)

    return scene(0, 0)


def _raw(party, steps, triggers):
    obstacles = []
    for step in steps:
        if step[0] == "simple":
            obstacles.append(
                {"kind": "simple"} if step[1] is None else {"kind": "simple", "to": f"C{step[1]}"}
            )
        else:
            obstacles.append({"kind": "complex", "obstruction": step[1], "attempts": step[2]})
    return {
        "difficulty": 5,
        "triggers": triggers,
        "characters": [
            {"name": f"C{i}", "talents": {f"T{j}": lv for j, lv in enumerate(lvs)}}
            for i, (_, lvs) in enumerate(party)
        ],
        "obstacles": obstacles,
    }


SCENES = [
    ([("C0", [5]), ("C1", [2, 4])], [("simple", 0), ("simple", None), ("complex", 6, 2)], 18),
    ([("C0", [3, 6])], [("complex", 9, 2), ("simple", None)], 20),
    ([("C0", [1]), ("C1", [7])], [("simple", 1), ("complex", 5, 1), ("simple", 0)], 14),
    ([("C0", [2, 5])], [("complex", 30, 1)], 16),  # one character alone: Regular Actions repeat Talents
]


@pytest.mark.parametrize(("party", "steps", "cap"), SCENES)
@pytest.mark.parametrize("policy", ["auto", "roll"])
def test_fixed_policies_match_enumeration_exactly(party, steps, cap, policy) -> None:
    """The Crisis distribution, E[actions] and E[Rising Tension] equal the enumeration's, as fractions."""
    # rule: II-SIMPLE-2
    # rule: II-SIMPLE-3
    # rule: II-COMPLEX-2
    # rule: II-COMPLEX-3
    # rule: II-COMPLEX-4
    # rule: II-COMPLEX-5
    # rule: II-COMPLEX-6
    # rule: II-COMPLEX-7
    scene = parse_scene(_raw(party, steps, [{"at": cap}]), RULES)
    got = analyse_scene(scene, RULES, policy=policy, cap=cap, exact=True)
    dist, acts, rt = _oracle(party, steps, cap, policy)
    assert got.crisis_exact is not None
    assert {c: p for c, p in enumerate(got.crisis_exact) if p} == {c: p for c, p in dist.items() if p}
    assert got.actions_exact == acts
    assert got.tension_exact == rt
    assert sum(got.crisis_exact) == 1


@pytest.mark.parametrize(("party", "steps", "cap"), SCENES)
def test_optimal_play_reaches_the_best_value_of_any_play(party, steps, cap) -> None:
    """Under optimal play, E[min(Crisis, cap)] is the least any play can reach (direct recursion)."""
    # rule: II-COMPLEX-5
    # rule: II-COMPLEX-7
    scene = parse_scene(_raw(party, steps, [{"at": cap}]), RULES)
    got = analyse_scene(scene, RULES, policy="optimal", cap=cap, exact=True)
    best = _optimal_value(party, steps, cap)
    assert got.crisis_exact is not None
    mean = sum(c * p for c, p in enumerate(got.crisis_exact))
    assert float(mean) == pytest.approx(float(-best), abs=1e-9)
    for policy in ("auto", "roll"):
        fixed = analyse_scene(scene, RULES, policy=policy, cap=cap)
        assert got.expected_crisis <= fixed.expected_crisis + 1e-9


def test_triggers_fire_as_the_crisis_distribution_says() -> None:
    """A repeating Trigger's firings add up to 1 and its last row is 'at least'; a one-off fires once."""
    # rule: II-CRISIS-2
    # rule: II-CRISIS-4
    raw = _raw([("C0", [4])], [("simple", 0)] * 4, [{"at": 6, "every": 4}, {"at": 12}])
    got = analyse_scene(parse_scene(raw, RULES), RULES, policy="auto", exact=True)
    assert got.cap == 14  # the repeating Trigger's third value
    repeating, once = got.triggers
    assert [(k, p, least) for k, _, p, least in repeating.firings] == [
        (0, 0, False),
        (1, 0, False),
        (2, 0, False),
        (3, 1, True),
    ]  # four automatic passes: Crisis 16, past 6, 10 and 14
    assert once.p_fires_exact == 1
    body = got.to_json()
    assert body["triggers"][0]["firings"][-1]["at_least"] is True
    assert body["expected_rising_tension"] == 4.0


def test_a_cap_below_a_trigger_is_refused() -> None:
    """The cap must reach every Trigger, or P(fires) would be unknown."""
    raw = _raw([("C0", [4])], [("simple", 0)], [{"at": 30}])
    with pytest.raises(MalformedCommand, match="reach every Trigger"):
        analyse_scene(parse_scene(raw, RULES), RULES, cap=20)


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"obstacles": [{"kind": "bridge"}]}, "obstacles[0].kind"),
        ({"obstacles": [{"kind": "complex"}]}, "obstacles[0].obstruction"),
        ({"obstacles": [{"kind": "simple", "to": "Nobody"}]}, "obstacles[0].to"),
        ({"triggers": [{"every": 3}]}, "triggers[0].at"),
        ({"difficulty": 0}, "scene.difficulty"),
    ],
)
def test_bad_scenes_are_refused_with_the_path(change, path) -> None:
    """Every malformed part of a scene names where it is."""
    raw = _raw([("C0", [4])], [("simple", 0)], []) | change
    with pytest.raises(MalformedCommand) as caught:
        parse_scene(raw, RULES)
    assert caught.value.path == path


@cache
def _e_simple(lv):
    return sum(p * _simple_crisis(t) for t, p in _outcomes(lv, 20))


@cache
def _p_beat(lv, o, top):
    return sum(p for t, p in _outcomes(lv, 20 + top) if t >= o)


@cache
def _e_regular(lv, extra, top):
    return sum(p * (_simple_crisis(t) + extra) for t, p in _outcomes(lv, 20 + top))


def _sample_scene(rng, party, steps, cap):
    """One scene under the 'roll' policy, rolled die by die: (min(Crisis, cap), actions while below cap)."""

    def roll(level, d6=5):
        total = 0
        for size in [6] * d6 + list(DICE[level]):
            face = rng.randint(1, size)
            total += face
            while face == size:
                face = rng.randint(1, size)
                total += face
        return total

    e_simple, p_beat, e_regular = _e_simple, _p_beat, _e_regular
    crisis, actions = 0, 0
    for step in steps:
        if crisis >= cap:
            break
        if step[0] == "simple":
            who = [step[1]] if step[1] is not None else range(len(party))
            lv = min((lv for i in who for lv in party[i][1]), key=e_simple)
            crisis, actions = crisis + _simple_crisis(roll(lv)), actions + 1
            continue
        o, a, top, last, used = step[1], step[2], step[1], -1, set()
        while crisis < cap:
            allowed = [i for i in range(len(party)) if len(party) == 1 or i != last]
            talents = [(i, j, lv) for i in allowed for j, lv in enumerate(party[i][1])]
            beat = {x: p_beat(x[2], o, top) for x in talents}
            best = max(talents, key=lambda x: beat[x])
            actions += 1
            if a > 0 and beat[best] >= Fraction(1, 2):
                t = roll(best[2])
                last = best[0]
                if t >= o or a == 1:
                    crisis += 2 if t >= o else max(2, o - t)
                    break
                crisis, a = crisis + max(2, o - t), a - 1
                continue
            cost = {x: e_regular(x[2], 3 if x[:2] in used else 0, top) for x in talents}
            i, j, lv = min(talents, key=lambda x: cost[x])
            t = roll(lv)
            crisis += _simple_crisis(t) + (3 if (i, j) in used else 0)
            o = max(0, o - (t - 20)) if t >= 20 else o
            last = i
            used.add((i, j))
    return min(crisis, cap), actions


def test_exact_analysis_agrees_with_dice_rolled_one_by_one_within_4_standard_errors() -> None:
    """A scene too big to enumerate: E[Crisis], P(each Trigger), E[actions] against 10,000 rolled scenes."""
    party = [("C0", [5, 3]), ("C1", [4, 2])]
    steps = [("simple", 0), ("simple", None), ("complex", 30, 2)]
    cap = 30
    scene = parse_scene(_raw(party, steps, [{"at": 10, "every": 10}, {"at": 15}]), RULES)
    got = analyse_scene(scene, RULES, policy="roll", cap=cap)
    rng = random.Random(2024)
    runs = [_sample_scene(rng, party, steps, cap) for _ in range(10_000)]
    n = len(runs)

    def check(values, exact):
        mean = sum(values) / n
        sd = (sum((v - mean) ** 2 for v in values) / (n - 1)) ** 0.5
        assert abs(mean - exact) <= 4 * max(sd / n**0.5, 1e-12), (mean, exact)

    check([c for c, _ in runs], got.expected_crisis)
    check([a for _, a in runs], got.expected_actions)
    check([float(c >= 10) for c, _ in runs], got.triggers[0].p_fires)
    check([float(c >= 15) for c, _ in runs], got.triggers[1].p_fires)
