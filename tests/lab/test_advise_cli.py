"""``talespin lab advise``: the best action on a Complex Obstacle, as JSON and for people."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from talespin.cli import app

PARTY = "- {name: Ada, talents: {Piloting: 5, Wits: 2}}\n- {name: Bo, talents: {Brawl: 4}}\n"


def test_advise_json_marks_one_best_action_and_costs(tmp_path: Path) -> None:
    """The JSON lists every legal action, best first with cost 0, the rest costing 0 or more."""
    # rule: II-COMPLEX-5
    party = tmp_path / "party.yaml"
    party.write_text(PARTY)
    args = ["lab", "advise", "--party", str(party), "--obstruction", "12", "--attempts", "2", "--last", "Bo"]
    done = CliRunner().invoke(app, [*args, "--json"])
    assert done.exit_code == 0, done.output
    body = json.loads(done.stdout)
    assert [a["character"] for a in body["actions"]] == ["Ada"] * 5  # Bo acted last
    assert body["actions"][0]["best"] and body["actions"][0]["cost"] == 0
    assert all(a["cost"] >= 0 for a in body["actions"])
    assert body["best"] == body["actions"][0]["label"]
    human = CliRunner().invoke(app, args)
    assert "★" in human.stdout


def test_advise_refuses_an_unknown_last_actor(tmp_path: Path) -> None:
    """A last actor who is not in the party is exit 2 with a JSON error naming it."""
    party = tmp_path / "party.yaml"
    party.write_text(PARTY)
    args = ["lab", "advise", "--party", str(party), "--obstruction", "8", "--last", "Zed", "--json"]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 2
    assert "Zed" in json.loads(done.stdout)["error"]["message"]


def test_compare_lists_each_variant_and_draws_the_heatmap(tmp_path: Path) -> None:
    """``lab compare`` puts the shipped rules first, counts changed choices and writes the PNG."""
    # rule: II-SIMPLE-2
    variant = tmp_path / "auto5.yaml"
    variant.write_text("crisis: {auto: 5}\n")
    png = tmp_path / "cmp.png"
    done = CliRunner().invoke(app, ["lab", "compare", str(variant), "--plot", str(png), "--json"])
    assert done.exit_code == 0, done.output
    names = [v["name"] for v in json.loads(done.stdout)["variants"]]
    assert names == ["shipped", "auto5"]
    assert json.loads(done.stdout)["variants"][1]["changed_choices"] > 0
    assert png.read_bytes().startswith(b"\x89PNG")
