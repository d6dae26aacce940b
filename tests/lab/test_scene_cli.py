"""``talespin lab scene``: a scene file analysed under several policies, as JSON, for people and as a plot."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from talespin.cli import app

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ii-lab-scene.yaml"


def test_scene_json_gives_each_policy_its_distribution_and_trigger_odds() -> None:
    """Every policy's Crisis distribution sums to 1; always passing automatically costs the most Crisis."""
    # rule: II-SIMPLE-2
    # rule: II-CRISIS-2
    args = ["lab", "scene", str(EXAMPLE), "--policy", "auto", "--policy", "optimal", "--json"]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    auto, best = json.loads(done.stdout)["analyses"]
    for analysis in (auto, best):
        assert abs(sum(p for _, p in analysis["crisis"]) - 1) < 1e-9
        assert [t["at"] for t in analysis["triggers"]] == [10, 15]
    assert auto["expected_rising_tension"] == 2.0  # two Simple Obstacles passed without rolling
    assert best["expected_crisis"] < auto["expected_crisis"]
    assert best["cap"] == 30  # the repeating Trigger's third value


def test_scene_exact_gives_fractions_and_a_plot(tmp_path: Path) -> None:
    """--exact adds n/d strings beside the floats; --plot writes the picture."""
    out = tmp_path / "scene.png"
    done = CliRunner().invoke(
        app, ["lab", "scene", str(EXAMPLE), "--policy", "roll", "--exact", "--json", "--plot", str(out)]
    )
    assert done.exit_code == 0, done.output
    body = json.loads(done.stdout)["analyses"][0]
    n, d = map(int, body["p_cap_reached_exact"].split("/"))
    assert abs(n / d - body["p_cap_reached"]) < 1e-12
    assert out.read_bytes().startswith(b"\x89PNG")


def test_scene_bad_input_exits_2_with_the_path(tmp_path: Path) -> None:
    """A malformed scene or an unknown policy is refused with exit code 2 and a JSON error."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("characters: [{name: Ada, talents: {Wits: 3}}]\nobstacles: [{kind: complex}]\n")
    done = CliRunner().invoke(app, ["lab", "scene", str(bad), "--json"])
    assert done.exit_code == 2
    assert json.loads(done.stdout)["error"]["path"] == "obstacles[0].obstruction"
    done = CliRunner().invoke(app, ["lab", "scene", str(EXAMPLE), "--policy", "lucky", "--json"])
    assert done.exit_code == 2
    assert json.loads(done.stdout)["error"]["code"] == "bad_policy"
