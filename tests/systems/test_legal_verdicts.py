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
