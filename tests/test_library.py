"""The library in a notebook: whole-number seeds wherever a generator goes, and arguments refused in words."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

import talespin
from talespin.dice import generator, roll, roll_chain, roll_pool
from talespin.lab.advice import advise as advise_obstacle
from talespin.lab.obstacle import Spot
from talespin.lab.party import parse_party
from talespin.systems import get_system
from talespin.systems.arguments import BadArgument
from talespin.systems.ascend import advise, parse_hero
from talespin.systems.ascend import default_rules as ascend_rules
from talespin.systems.inciting_incident import default_rules as ii_rules
from talespin.systems.inciting_incident import run_script

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SUSAN = parse_hero(yaml.safe_load((EXAMPLES / "ascend-hero-susan.yaml").read_text()), ascend_rules())


def test_a_whole_number_is_a_seed_wherever_a_generator_goes() -> None:
    """`roll("3d6", 1)` is `roll("3d6", random.Random(1))`; the same for chains, pools, decide and scripts."""
    assert roll("3d6", 1).total == roll("3d6", random.Random(1)).total
    assert roll("2d6! + 1d8!", 9).total == roll("2d6! + 1d8!", random.Random(9)).total
    assert roll_chain(6, 3).faces == roll_chain(6, random.Random(3)).faces
    assert (
        roll_pool([10, 10, 10], 5, zero_based=True).faces()
        == roll_pool([10, 10, 10], random.Random(5), zero_based=True).faces()
    )
    ascend = get_system("ascend")
    state = ascend.new_state({"heroes": [SUSAN.to_json()]})
    command = {"do": "test", "hero": "Susan", "skill": "Athletics", "trait": "Agility"}
    seeded = ascend.decide(state, command, 11)
    generated = ascend.decide(state, command, random.Random(11))
    assert [e.data for e in seeded] == [e.data for e in generated]
    script = yaml.safe_load((EXAMPLES / "ii-cooperative.yaml").read_text())

    def load(path: str) -> Any:
        return yaml.safe_load((EXAMPLES / path).read_text())

    by_seed = run_script(script, 4, load).summary()
    by_generator = run_script(script, random.Random(4), load).summary()
    assert by_seed == by_generator


def test_anything_else_is_refused_as_a_generator() -> None:
    """A text, a float or a bool is not a seed: a TypeError saying what is expected."""
    for wrong in ("7", 7.5, True, object()):
        with pytest.raises(TypeError, match=r"random\.Random\(seed\), or a whole-number seed"):
            generator(wrong)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="whole-number seed; got str"):
        roll("3d6", "1")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (
            {"skill": "Athletics", "narration": "loud"},
            "narration must be one of 'none', 'narrated', 'exceptional'",
        ),
        ({"skill": 3}, "skill must be a name"),
        ({"skill": "Athletics", "difficulty": "hard"}, "difficulty must be a whole number; got 'hard'"),
        ({"skill": "Athletics", "rules": {"opposed": {}}}, "rules must be a Rules"),
    ],
)
def test_ascend_advise_names_a_bad_argument(arguments: dict[str, Any], named: str) -> None:
    """Invoke advice refuses a bad argument with BadArgument naming it, not an AttributeError."""
    with pytest.raises(BadArgument, match=named) as refused:
        advise(SUSAN, **arguments)
    assert refused.value.path == named.split(maxsplit=1)[0] and refused.value.code == "bad_argument"
    with pytest.raises(BadArgument, match="hero must be a Hero"):
        advise({"name": "Susan"}, skill="Athletics")  # type: ignore[arg-type]


def test_obstacle_advise_names_a_bad_argument() -> None:
    """The Complex Obstacle solver checks its arguments first: each refusal names what was expected."""
    party = parse_party([{"name": "Ada", "talents": {"Piloting": 5}}], ii_rules())
    spot = Spot(obstruction=10, attempts_left=2)
    refusals: list[tuple[dict[str, Any], str]] = [
        ({"objective": "loud"}, "objective must be one of 'crisis', 'below'"),
        ({"cap": -1}, "cap must be a whole number from 1 to 10000; got -1"),
        ({"cap": "60"}, "cap must be a whole number"),
        ({"base_d6": 12}, "base_d6 must be a whole number from 1 to 9; got 12"),
        ({"advantage": -1}, "advantage must be a whole number of 0 or more"),
        ({"rules": "x"}, "rules must be a Rules"),
    ]
    for keywords, message in refusals:
        with pytest.raises(BadArgument, match=message):
            advise_obstacle(party, spot, **keywords)
    with pytest.raises(BadArgument, match="party must be a non-empty list of Member"):
        advise_obstacle([{"name": "Ada"}], spot)  # type: ignore[list-item]
    with pytest.raises(BadArgument, match="spot must be a Spot"):
        advise_obstacle(party, {"obstruction": 10})  # type: ignore[arg-type]
    assert advise_obstacle(party, spot, cap=30).rows, "good arguments still give advice"


def test_top_level_subpackages_load_on_first_use() -> None:
    """`import talespin; talespin.dice.roll(...)` works in a notebook without importing the layer first."""
    assert talespin.dice.roll("1d6", 2).total in range(1, 7)
