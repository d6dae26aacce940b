""":func:`talespin.systems.legal.legal` decides each candidate once per state, however often it is asked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from talespin.systems import RulesError
from talespin.systems.legal import legal


@dataclass(frozen=True)
class Pile:
    """A toy state: how many stones are left."""

    stones: int


def test_an_equal_state_reuses_the_verdicts_and_another_state_is_decided_afresh() -> None:
    decided: list[tuple[int, int]] = []

    def take(state: Pile, command: Any, seed: int) -> list[Any]:
        decided.append((state.stones, command["take"]))
        if command["take"] > state.stones:
            raise RulesError("not enough stones")
        return []

    every = [{"do": "take", "take": n} for n in (1, 2, 3)]
    assert legal(Pile(2), every, take) == every[:2]
    assert len(decided) == 3
    # An equal state (another object), asked about fewer candidates and one more: only the new one is decided.
    assert legal(Pile(2), [every[0], every[2], {"do": "take", "take": 0}], take) == [
        every[0],
        {"do": "take", "take": 0},
    ]
    assert decided[3:] == [(2, 0)]
    assert legal(Pile(3), every, take) == every
    assert decided[4:] == [(3, 1), (3, 2), (3, 3)]


def test_a_question_asked_again_about_an_equal_state_gets_the_whole_answer_back() -> None:
    """With a ``question`` the answer is kept: asked again about an equal state, no candidate is even made,
    while another question, or another state, is searched."""
    made: list[str] = []

    def candidates(state: Pile, role: str) -> Any:
        for n in (1, 2, 3):
            made.append(role)
            yield {"do": "take", "take": n, **({"loudly": True} if role == "gm" else {})}

    def take(state: Pile, command: Any, seed: int) -> list[Any]:
        if command["take"] > state.stones:
            raise RulesError("not enough stones")
        return []

    first = legal(Pile(5), candidates(Pile(5), "player"), take, question="player")
    assert [c["take"] for c in first] == [1, 2, 3] and len(made) == 3
    assert legal(Pile(5), candidates(Pile(5), "player"), take, question="player") is first
    assert len(made) == 3  # not one candidate made
    gm = legal(Pile(5), candidates(Pile(5), "gm"), take, question="gm")
    assert all(c["loudly"] for c in gm) and len(made) == 6
    assert [c["take"] for c in legal(Pile(1), candidates(Pile(1), "player"), take, question="player")] == [1]
    assert len(made) == 9
