"""Properties of every Test: the odds are distributions with the binomial mean, and rolls count right."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from talespin.systems.ascend import decide, load_rules, new_state, successes

RULES = load_rules()
RATINGS = st.integers(min_value=0, max_value=9)
SHEET: dict[str, Any] = {
    "name": "Prop",
    "skills": {f"S{r}": r for r in range(10)},
    "traits": {"T1": 1, "T4": 4, "T9": 9},
    "backgrounds": {"B0": 0, "B3": 3},
    "aids": {"A2": 2, "A7": 7},
}
STATE = new_state({"heroes": [SHEET]})


@settings(max_examples=200, deadline=None)
@given(target=st.integers(min_value=-5, max_value=15), pool=st.integers(min_value=0, max_value=40))
def test_successes_form_a_distribution_with_the_binomial_mean(target: int, pool: int) -> None:
    """Probabilities sum to 1, outcomes lie in 0..pool, the mean is pool · p and P(≥1) = 1 − (1 − p)^pool."""
    # rule: AS-ODDS-1, AS-TEST-3, AS-POOL-4
    dist = successes(pool, target, rules=RULES)
    p = RULES.die.p_success(target)
    assert sum(q for _, q in dist.items()) == 1
    assert dist.low >= 0 and dist.high <= pool
    assert dist.mean() == pool * p
    assert dist.p_at_least(1) == (1 - (1 - p) ** pool if pool else Fraction(0))


@settings(max_examples=150, deadline=None)
@given(
    skill=RATINGS,
    difficulty=st.integers(min_value=0, max_value=12),
    trait=st.sampled_from([None, "T1", "T4", "T9"]),
    background=st.sampled_from([None, "B0", "B3"]),
    aid=st.sampled_from([None, "A2", "A7"]),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_a_rolled_test_counts_faces_at_or_below_the_target(
    *, skill: int, difficulty: int, trait: str | None, background: str | None, aid: str | None, seed: int
) -> None:
    """The pool is the sum of the chosen ratings; Successes are the faces ≤ rating − Difficulty."""
    # rule: AS-POOL-1, AS-TEST-2, AS-TEST-3, AS-TEST-4
    command = {
        "do": "test",
        "hero": "Prop",
        "skill": f"S{skill}",
        "difficulty": difficulty,
        "trait": trait,
        "background": background,
        "aid": aid,
    }
    data = decide(STATE, command, random.Random(seed))[-1].data
    ratings = {**SHEET["traits"], **SHEET["backgrounds"], **SHEET["aids"]}
    assert data["pool"] == sum(ratings[name] for name in (trait, background, aid) if name is not None)
    assert data["target"] == skill - difficulty
    assert len(data["faces"]) == data["pool"]
    assert data["successes"] == sum(1 for face in data["faces"] if face <= data["target"])
    assert data["success"] == (data["successes"] >= 1)
