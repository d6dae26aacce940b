"""``talespin lab ascend …`` and ``lab compare --system ascend``: JSON for scripts, exit 2 on bad input."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from talespin.cli import app

SUSAN = Path(__file__).parents[2] / "examples" / "ascend-hero-susan.yaml"


def _json(args: list[str]) -> dict[str, object]:
    done = CliRunner().invoke(app, [*args, "--json"])
    assert done.exit_code == 0, done.output
    body: dict[str, object] = json.loads(done.stdout)
    return body


def test_extended_from_a_heros_pools_lists_largest_first() -> None:
    """With a hero, every distinct pool the hero can build is a row, labelled by its items."""
    # rule: AS-ODDS-2
    body = _json(
        [
            "lab",
            "ascend",
            "extended",
            "--hero",
            str(SUSAN),
            "--skill",
            "Athletics",
            "--goal",
            "4",
            "--limit",
            "3",
            "--narration",
            "narrated",
        ]
    )
    rows = body["rows"]
    assert isinstance(rows, list)
    assert [r["pool"] for r in rows] == sorted((r["pool"] for r in rows), reverse=True)
    assert rows[0]["pool"] == 7 and "Strength" in rows[0]["label"]
    assert all(r["within"][0][1] <= r["within"][-1][1] for r in rows)


def test_opposed_and_narration_give_both_tie_rules_and_every_test() -> None:
    """Opposed lists both tie rules; narration lists each Skill and Conviction of the hero."""
    # rule: AS-OPP-1
    body = _json(["lab", "ascend", "opposed", "--target", "3", "--vs-target", "3", "--pools", "2,4"])
    wins = body["p_attacker_wins"]
    assert isinstance(wins, dict)
    assert wins["defender"][0][0] < 0.5 < wins["reroll"][1][0]
    names = [r["name"] for r in _json(["lab", "ascend", "narration", "--hero", str(SUSAN)])["rows"]]  # type: ignore[attr-defined]
    assert names == ["Athletics", "Stealth", "Persuasion", "Protect the weak"]


def test_compare_ascend_variant_file_and_plot(tmp_path: Path) -> None:
    """A variant file against the shipped rules on the Ascend grid, with its difference heatmap."""
    # rule: AS-TEST-3
    variant = tmp_path / "d12.yaml"
    variant.write_text("die: {size: 12}\n")
    plot = tmp_path / "d12.png"
    body = _json(["lab", "compare", "--system", "ascend", str(variant), "--plot", str(plot)])
    assert [v["name"] for v in body["variants"]] == ["shipped", "d12"]  # type: ignore[attr-defined]
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_bad_input_is_exit_2_with_a_json_error(tmp_path: Path) -> None:
    """Bad pools, an unknown system, and a missing Target each say what was expected."""
    runner = CliRunner()
    cases = [
        (["lab", "ascend", "opposed", "--target", "3", "--vs-target", "2", "--pools", "two"], "pool sizes"),
        (["lab", "ascend", "extended", "--goal", "3", "--limit", "2", "--pools", "3"], "--target"),
        (["lab", "compare", "--system", "chess", str(SUSAN)], "unknown system"),
    ]
    for args, expected in cases:
        done = runner.invoke(app, [*args, "--json"])
        assert done.exit_code == 2, done.output
        assert expected in json.loads(done.stdout)["error"]["message"]
