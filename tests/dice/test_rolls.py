"""Rolling notation: every chain kept, seeded rolls reproducible, physical dice validated chain by chain."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from talespin.dice import (
    Chain,
    Expression,
    FacesError,
    LimitExceeded,
    chains_from_faces,
    parse,
    roll,
    roll_chain,
    roll_from_faces,
    roll_pool,
)
from talespin.dice.limits import MAX_CHAIN

from .strategies import expressions


class _Scripted:
    """A generator that returns the given ``randrange`` results in order (faces minus one)."""

    def __init__(self, draws: list[int]) -> None:
        self._draws = iter(draws)

    def randrange(self, stop: int, /) -> int:
        value = next(self._draws)
        assert 0 <= value < stop
        return value


# rule: II-ROLL-4
def test_a_roll_keeps_every_chain_in_order() -> None:
    """``2d6! + 1d8 - 2`` rolls a chain per die, keeps each face, and totals faces and constants."""
    # Faces 6, 2 | 3 | 8 (d8 does not explode here)
    result = roll(parse("2d6! + 1d8 - 2"), _Scripted([5, 1, 2, 7]))
    assert [chain.faces for chain in result.chains] == [(6, 2), (3,), (8,)]
    assert result.chains[0].exploded
    assert result.total == 6 + 2 + 3 + 8 - 2
    assert result.successes is None
    assert result.to_json() == {
        "notation": "2d6! + 1d8 - 2",
        "total": 17,
        "chains": [{"size": 6, "faces": [6, 2]}, {"size": 6, "faces": [3]}, {"size": 8, "faces": [8]}],
        "successes": None,
    }


def test_subtracted_dice_count_against_the_total() -> None:
    """A subtracted dice term lowers the total by its faces."""
    result = roll("1d10 - 1d4", _Scripted([6, 3]))
    assert result.total == 7 - 4


# rule: AS-TEST-3
def test_success_count_counts_dice_and_keeps_the_face_sum() -> None:
    """``6z10<=2`` counts dice showing 0, 1 or 2; ``total`` stays the plain sum of faces."""
    result = roll("6z10<=2", _Scripted([0, 3, 9, 4, 7, 2]))
    assert [chain.faces[0] for chain in result.chains] == [0, 3, 9, 4, 7, 2]
    assert result.successes == 2
    assert result.total == 25
    at_least = roll("4d6>=5", _Scripted([4, 5, 0, 3]))
    assert at_least.successes == 2


def test_seeded_rolls_are_reproducible() -> None:
    """The same seed gives the same chains; the module-level random state plays no part."""
    first = roll("5d6! + 2d10!", random.Random(2024))
    random.seed(0)
    second = roll("5d6! + 2d10!", random.Random(2024))
    assert first == second
    assert [roll("3d6", random.Random(seed)).total for seed in range(20)] == [
        roll("3d6", random.Random(seed)).total for seed in range(20)
    ]


@settings(max_examples=150, deadline=None)
@given(expressions(), st.integers(0, 2**32))
def test_any_valid_tree_rolls_consistently(tree: Expression, seed: int) -> None:
    """Rolling any valid tree gives one chain per die, faces on the dice, and a total that adds up."""
    result = roll(tree, random.Random(seed))
    assert len(result.chains) == sum(dice.count for _, dice in tree.dice_terms)
    for chain in result.chains:
        low = 0 if chain.zero_based else 1
        assert all(low <= face <= chain.size - 1 + low for face in chain.faces)
    assert result.total == sum(part.value for part in result.parts)
    again = roll_from_faces(tree, [list(chain.faces) for chain in result.chains])
    assert again.total == result.total
    assert again.successes == result.successes


# rule: II-ROLL-2
def test_exploding_chain_continues_only_on_the_maximum() -> None:
    """An exploding die rolls again exactly while it shows its maximum face."""
    chain = roll_chain(4, _Scripted([3, 3, 0]))
    assert chain == Chain(4, (4, 4, 1))
    assert roll_chain(4, _Scripted([3]), explodes=False).faces == (4,)


def test_runaway_chain_is_stopped_with_a_limit_error() -> None:
    """A chain longer than MAX_CHAIN faces (a broken generator) raises LimitExceeded, never hangs."""
    with pytest.raises(LimitExceeded, match="chain passed"):
        roll_chain(6, _Scripted([5] * (MAX_CHAIN + 1)))


def test_roll_pool_refuses_too_many_dice() -> None:
    """More than 1,000 dice in one pool is refused before rolling."""
    with pytest.raises(LimitExceeded):
        roll_pool([6] * 1001, random.Random(1))


# rule: II-ROLL-4
@pytest.mark.parametrize(
    ("faces", "chain", "message"),
    [
        ([[6, 2], [3], [9]], 2, r"chain 3 \(d8\): face 9 is not on the die \(expected 1..8\)"),
        ([[6], [3], [2]], 0, r"chain 1 \(d6\): it ends on the maximum 6, so it explodes"),
        ([[5, 2], [3], [2]], 0, r"chain 1 \(d6\): 5 is not the maximum 6"),
        ([[6, 2], [], [2]], 1, r"chain 2 \(d6\) is empty"),
        ([[6, 2], [3], [2.5]], 2, "is not a whole number"),
    ],
)
def test_physical_faces_name_the_bad_chain(faces: list[list[float]], chain: int, message: str) -> None:
    """Faces entered by hand that cannot come from the dice are refused, naming the offending chain."""
    with pytest.raises(FacesError, match=message) as caught:
        roll_from_faces("2d6! + 1d8!", faces)  # type: ignore[arg-type]
    assert caught.value.chain == chain


# rule: II-ROLL-4
def test_physical_faces_of_later_terms_are_numbered_in_the_whole_expression() -> None:
    """A bad chain in the second dice term is named by its position over all terms."""
    with pytest.raises(FacesError, match=r"chain 4 \(d10\)") as caught:
        roll_from_faces("3d6 + 2z10", [1, 2, 3, 10, 0])
    assert caught.value.chain == 3
    with pytest.raises(FacesError, match="this die does not explode"):
        chains_from_faces([6], [[6, 1]], explodes=False)


# rule: II-ROLL-4
def test_wrong_number_of_chains_is_refused() -> None:
    """The number of chains must equal the number of dice, and the message says how many are expected."""
    with pytest.raises(FacesError, match="expected 3 chains of faces for 2d6! \\+ 1d8!, got 2"):
        roll_from_faces("2d6! + 1d8!", [[1], [2]])
    with pytest.raises(FacesError, match=r"expected 2 chains of faces \(d6, d8\), got 1"):
        chains_from_faces([6, 8], [[1]])


# rule: AS-TEST-3
def test_zero_based_physical_faces_run_from_zero() -> None:
    """Zero-based dice accept 0 and refuse their size as a face."""
    assert roll_from_faces("2z10<=0", [0, 9]).successes == 1
    with pytest.raises(FacesError, match=r"expected 0..9"):
        roll_from_faces("2z10<=0", [0, 10])
