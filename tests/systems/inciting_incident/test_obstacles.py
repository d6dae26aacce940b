"""Simple and Complex Obstacles, as the rules document numbers them."""

from __future__ import annotations

from typing import Any

import pytest

from talespin.systems.errors import IllegalCommand, MalformedCommand
from talespin.systems.inciting_incident import decide

LOW7 = [[1], [1], [1], [1], [1], [1], [1]]  # 5d6 + 2d6 (Piloting) = 7
HIGH7 = [[6, 6, 6, 1], [5], [5], [5], [5], [4], [4]]  # = 47
BRAWL_LOW = [[1], [1], [1], [1], [1], [2]]  # 5d6 + d10 = 7


def test_simple_auto_pass(h: Any) -> None:
    """An automatic pass adds 4 Crisis and 1 Rising Tension and passes the obstacle."""
    # rule: II-SIMPLE-2 II-RT-2
    state, events = h.run(
        [h.ACTION, h.OBSTACLE, {"do": "simple_obstacle", "character": "Ada", "choice": "auto"}]
    )
    assert state.scene.crisis == 4 and state.rising_tension == 6
    assert state.scene.obstacle.beaten
    assert h.last(events, "RisingTensionGained").data["cause"] == "Ada passed an obstacle without rolling"


def test_simple_roll_success_and_failure(h: Any) -> None:
    """Success adds 2 Crisis; failure adds max(2, 20 − total); either way the obstacle is passed."""
    # rule: II-SIMPLE-3
    roll = {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting"}
    state, _ = h.run([h.ACTION, h.OBSTACLE, {**roll, "faces": HIGH7}])
    assert state.scene.crisis == 2 and state.scene.obstacle.beaten
    state, _ = h.run([h.ACTION, h.OBSTACLE, {**roll, "faces": LOW7}])
    assert state.scene.crisis == 13 and state.scene.obstacle.beaten
    near = [[6, 1], [3], [3], [2], [2], [1], [1]]  # 19 → 1, raised to the minimum 2
    state, _ = h.run([h.ACTION, h.OBSTACLE, {**roll, "faces": near}])
    assert state.scene.crisis == 2


def test_simple_presented_to_one_or_each(h: Any) -> None:
    """Presented to one character, others are refused; presented individually, each must pass once."""
    # rule: II-SIMPLE-1
    state, events = h.run([h.ACTION, {"do": "simple_obstacle", "to": "Bram"}])
    with pytest.raises(IllegalCommand) as refused:
        decide(state, {"do": "simple_obstacle", "character": "Ada", "choice": "auto"}, None)
    assert refused.value.rule == "II-SIMPLE-1"
    state, events = h.run([{"do": "simple_obstacle", "character": "Bram", "choice": "auto"}], state=state)
    assert h.last(events, "ObstaclePassed").data["characters"] == ["Ada", "Bram"]
    state, events = h.run(
        [
            {"do": "simple_obstacle", "individually": True},
            {"do": "simple_obstacle", "character": "Ada", "choice": "auto"},
        ],
        state=state,
    )
    assert not state.scene.obstacle.beaten
    with pytest.raises(IllegalCommand, match="again"):
        decide(state, {"do": "simple_obstacle", "character": "Ada", "choice": "auto"}, None)
    state, events = h.run([{"do": "simple_obstacle", "character": "Bram", "choice": "auto"}], state=state)
    assert state.scene.obstacle.beaten
    state, events = h.run([{"do": "simple_obstacle", "choose": "random"}], state=state, seed=4)
    assert h.last(events, "SimpleObstaclePresented").data["to"] in ("Ada", "Bram")


def test_complex_obstacle_setup_is_checked(h: Any) -> None:
    """Obstruction is a whole number ≥ 0 and attempts lie in 1–3; the Obstruction is visible to all."""
    # rule: II-COMPLEX-1
    state, _ = h.run([h.ACTION])
    for bad in ({"obstruction": -1}, {"obstruction": 10, "attempts": 4}, {"obstruction": 10, "attempts": 0}):
        with pytest.raises(MalformedCommand) as refused:
            decide(state, {"do": "complex_obstacle", **bad}, None)
        assert refused.value.rule == "II-COMPLEX-1"
    state, events = h.run([{"do": "complex_obstacle", "obstruction": 0, "attempts": 3}], state=state)
    assert events[-1].visibility == "public" and state.scene.obstacle.attempts_left == 3


def test_regular_action_auto(h: Any) -> None:
    """Automatic Regular Action: Obstruction −4 (not below 0), Crisis +4, no Rising Tension."""
    # rule: II-COMPLEX-2
    state, _ = h.run(
        [
            h.ACTION,
            {"do": "complex_obstacle", "obstruction": 6, "attempts": 2},
            {"do": "regular_action", "character": "Ada", "choice": "auto"},
            {"do": "regular_action", "character": "Bram", "choice": "auto"},
        ]
    )
    assert state.scene.obstacle.obstruction == 0
    assert state.scene.crisis == 8 and state.rising_tension == 5


def test_regular_action_rolled(h: Any) -> None:
    """Success lowers Obstruction by total − 20 with Crisis +2; failure adds at least 2 Crisis."""
    # rule: II-COMPLEX-3
    state, _ = h.run(
        [
            h.ACTION,
            {"do": "complex_obstacle", "obstruction": 30, "attempts": 2},
            {"do": "regular_action", "character": "Ada", "talent": "Piloting", "faces": HIGH7},
        ]
    )
    assert state.scene.obstacle.obstruction == 3 and state.scene.crisis == 2
    state, _ = h.run(
        [{"do": "regular_action", "character": "Bram", "talent": "Brawling", "faces": BRAWL_LOW}], state=state
    )
    assert state.scene.obstacle.obstruction == 3 and state.scene.crisis == 2 + 13


def test_repeated_talent_adds_three(h: Any) -> None:
    """A character's second Regular Action with the same Talent on one obstacle adds +3 Crisis."""
    # rule: II-COMPLEX-4
    state, events = h.run(
        [
            h.ACTION,
            {"do": "complex_obstacle", "obstruction": 90, "attempts": 2},
            {"do": "regular_action", "character": "Ada", "talent": "Piloting", "faces": HIGH7},
            {"do": "regular_action", "character": "Bram", "choice": "auto"},
            {"do": "regular_action", "character": "Ada", "talent": "Piloting", "faces": HIGH7},
            {"do": "regular_action", "character": "Bram", "choice": "auto"},
            {"do": "regular_action", "character": "Ada", "talent": "Quickdraw"},
        ]
    )
    amounts = [e.data["amount"] for e in events if e.type == "CrisisRaised"]
    assert amounts[:4] == [2, 4, 5, 4]
    assert state.scene.obstacle.used_talents == (("Ada", ("Piloting", "Piloting", "Quickdraw")),)


def test_no_two_actions_in_a_row(h: Any) -> None:
    """A character may not act twice in a row on one obstacle, unless it is alone."""
    # rule: II-COMPLEX-5
    state, _ = h.run(
        [
            h.ACTION,
            {"do": "complex_obstacle", "obstruction": 30, "attempts": 2},
            {"do": "regular_action", "character": "Ada", "choice": "auto"},
        ]
    )
    for command in (
        {"do": "regular_action", "character": "Ada", "choice": "auto"},
        {"do": "decisive_action", "character": "Ada", "talent": "Piloting"},
    ):
        with pytest.raises(IllegalCommand) as refused:
            decide(state, command, None)
        assert refused.value.rule == "II-COMPLEX-5"
    alone, _ = h.run(
        [
            {"do": "start_scene", "kind": "action", "present": ["Ada"]},
            {"do": "complex_obstacle", "obstruction": 30, "attempts": 2},
            {"do": "regular_action", "character": "Ada", "choice": "auto"},
            {"do": "regular_action", "character": "Ada", "choice": "auto"},
        ]
    )
    assert alone.scene.obstacle.obstruction == 22


def test_decisive_action(h: Any) -> None:
    """A Decisive Action beats the obstacle at total ≥ Obstruction, else adds max(2, gap), uses an attempt."""
    # rule: II-COMPLEX-6
    state, events = h.run(
        [
            h.ACTION,
            {"do": "complex_obstacle", "obstruction": 12, "attempts": 2},
            {"do": "decisive_action", "character": "Ada", "talent": "Piloting", "faces": LOW7},
        ]
    )
    assert not state.scene.obstacle.beaten and state.scene.obstacle.attempts_left == 1
    assert state.scene.crisis == 5
    state, events = h.run(
        [
            {
                "do": "decisive_action",
                "character": "Bram",
                "talent": "Brawling",
                "faces": [[6, 2], [1], [1], [1], [1], [2]],
            }
        ],
        state=state,
    )
    assert state.scene.obstacle.beaten and state.scene.crisis == 7
    assert h.last(events, "ObstacleBeaten").data["last_attempt"] is False


def test_last_attempt_always_beats(h: Any) -> None:
    """The last Decisive attempt beats the obstacle even on a failure, with its Crisis counted."""
    # rule: II-COMPLEX-7
    state, events = h.run(
        [
            h.ACTION,
            {"do": "complex_obstacle", "obstruction": 40, "attempts": 1},
            {"do": "decisive_action", "character": "Ada", "talent": "Piloting", "faces": LOW7},
        ]
    )
    assert state.scene.obstacle.beaten and state.scene.crisis == 33
    assert h.last(events, "ObstacleBeaten").data["last_attempt"] is True


def test_beaten_obstacle_refuses_actions(h: Any) -> None:
    """Actions on a beaten obstacle are refused with a clear error; the state is unchanged."""
    # rule: II-COMPLEX-8
    state, _ = h.run(
        [
            h.ACTION,
            {"do": "complex_obstacle", "obstruction": 0, "attempts": 1},
            {"do": "decisive_action", "character": "Ada", "talent": "Piloting", "faces": LOW7},
        ]
    )
    before = state
    with pytest.raises(IllegalCommand, match="already beaten") as refused:
        decide(state, {"do": "regular_action", "character": "Bram", "choice": "auto"}, None)
    assert refused.value.rule == "II-COMPLEX-8"
    assert state == before


def test_obstacles_need_an_action_scene(h: Any) -> None:
    """An action scene holds obstacles; a cooperative one refuses them."""
    # rule: II-SCENE-4
    state, _ = h.run([{"do": "start_scene", "kind": "cooperative"}])
    with pytest.raises(IllegalCommand) as refused:
        decide(state, {"do": "complex_obstacle", "obstruction": 3}, None)
    assert refused.value.rule == "II-SCENE-4"
