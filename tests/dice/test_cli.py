"""``talespin roll`` and ``talespin odds``: golden JSON, human output, exit codes and clean errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from talespin.cli import app

runner = CliRunner()

GOLDEN_ROLL = {
    "notation": "2d6! + 1d8! - 3",
    "total": 9,
    "chains": [{"size": 6, "faces": [3]}, {"size": 6, "faces": [2]}, {"size": 8, "faces": [7]}],
    "successes": None,
    "seed": 7,
}

GOLDEN_ODDS = {
    "notation": "1d6!",
    "distribution": [
        [1, 1 / 6, "1/6"],
        [2, 1 / 6, "1/6"],
        [3, 1 / 6, "1/6"],
        [4, 1 / 6, "1/6"],
        [5, 1 / 6, "1/6"],
        [7, 1 / 36, "1/36"],
        [8, 5 / 36, "5/36"],
    ],
    "mean": 4.2,
    "mean_exact": "21/5",
    "cap": 8,
    "last_row_is_at_least": True,
}


def _json(args: list[str]) -> tuple[int, dict[str, object]]:
    result = runner.invoke(app, args)
    assert "Traceback" not in result.output
    return result.exit_code, json.loads(result.stdout)


def test_roll_json_is_the_golden_document() -> None:
    """A seeded roll prints exactly the contract's document, plus the seed."""
    code, payload = _json(["roll", "2d6!+1d8!-3", "--seed", "7", "--json"])
    assert code == 0
    assert payload == GOLDEN_ROLL


# rule: AS-TEST-3
def test_roll_json_counts_successes() -> None:
    """A success count reports its successes; the chains hold faces numbered from 0."""
    code, payload = _json(["roll", "6z10<=2", "--seed", "3", "--json"])
    assert code == 0
    faces = [chain["faces"][0] for chain in payload["chains"]]  # type: ignore[attr-defined]
    assert faces == [3, 9, 8, 2, 5, 9]
    assert payload["successes"] == 1
    assert payload["total"] == sum(faces)


def test_roll_without_seed_reports_the_seed_that_replays_it() -> None:
    """Without --seed a seed is drawn and reported; rolling again with it gives the same roll."""
    code, first = _json(["roll", "4d6!", "--json"])
    assert code == 0
    assert isinstance(first["seed"], int)
    _, again = _json(["roll", "4d6!", "--seed", str(first["seed"]), "--json"])
    assert again == first


def test_odds_json_is_the_golden_document() -> None:
    """Odds of an exploding die list outcomes up to the cap; the last row is marked as "≥ cap"."""
    code, payload = _json(["odds", "1d6!", "--cap", "8", "--json"])
    assert code == 0
    assert payload == GOLDEN_ODDS


def test_odds_default_cap_is_100() -> None:
    """Without --cap an exploding sum is listed up to 100."""
    code, payload = _json(["odds", "2d6!", "--json"])
    assert code == 0
    rows = payload["distribution"]
    assert rows[-1][0] == 100  # type: ignore[index]
    assert payload["cap"] == 100
    assert sum(row[1] for row in rows) == pytest.approx(1.0, abs=1e-12)  # type: ignore[union-attr]


def test_odds_of_a_bounded_sum_are_uncapped() -> None:
    """A sum without exploding dice lists its whole distribution and says it is not capped."""
    code, payload = _json(["odds", "2d4 - 1", "--json"])
    assert code == 0
    assert [row[0] for row in payload["distribution"]] == list(range(1, 8))  # type: ignore[union-attr]
    assert payload["mean_exact"] == "4/1"
    assert payload["last_row_is_at_least"] is False
    assert payload["cap"] is None


def test_human_output_shows_chains_and_bars() -> None:
    """Without --json, roll shows each chain and the total, odds a table with the "≥ cap" row."""
    rolled = runner.invoke(app, ["roll", "2d6!+1d8!-3", "--seed", "7"])
    assert rolled.exit_code == 0
    assert "total 9" in rolled.stdout
    listed = runner.invoke(app, ["odds", "1d6!", "--cap", "8"])
    assert listed.exit_code == 0
    assert "≥ 8" in listed.stdout
    assert "5/36" in listed.stdout
    assert "█" in listed.stdout


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["roll", "0d1!"], "limit_exceeded"),
        (["roll", "1001d6"], "limit_exceeded"),
        (["roll", "2d"], "bad_notation"),
        (["roll", "3d6!<=2"], "bad_notation"),
        (["odds", "1000d1000"], "limit_exceeded"),
        (["odds", "2d6!", "--cap", "0"], "limit_exceeded"),
        (["odds", "1d6! - 1d6!"], "bad_notation"),
    ],
)
def test_bad_input_exits_2_with_a_json_error(args: list[str], code: str) -> None:
    """Bad notation and limits exit with code 2 and one JSON error document, never a traceback."""
    exit_code, payload = _json([*args, "--json"])
    assert exit_code == 2
    error = payload["error"]
    assert error["code"] == code  # type: ignore[index]
    assert error["message"]  # type: ignore[index]


@pytest.mark.parametrize("notation", ["0d1!", "1001d6", "2d"])
def test_the_installed_command_refuses_bad_input_cleanly(notation: str) -> None:
    """The real console script exits 2 with a one-line message on stderr and no traceback."""
    script = Path(sys.executable).with_name("talespin")
    done = subprocess.run(
        [str(script), "roll", notation], check=False, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "error:" in done.stderr
    assert done.stdout == ""
