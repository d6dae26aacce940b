"""``talespin lab conflict``: a conflict file (naming sheet files) simulated from a seed."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from talespin.cli import app

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ii-lab-conflict.yaml"


def test_conflict_json_is_reproducible_and_has_intervals() -> None:
    """The same seed prints the same document; every figure carries se and a 95% interval around it."""
    # rule: II-FLOW-4
    args = ["lab", "conflict", str(EXAMPLE), "--sims", "3000", "--seed", "9", "--json"]
    first, second = CliRunner().invoke(app, args), CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    body = json.loads(first.stdout)
    total = body["p_characters_win"]["value"] + body["p_enemies_win"]["value"] + body["p_unfinished"]["value"]
    assert abs(total - 1) < 1e-12
    low, high = body["crisis"]["ci95"]
    assert low <= body["crisis"]["value"] <= high
    assert set(body["wounds"]) == {"Ada", "Bram", "Guard", "Captain"}


def test_conflict_bad_file_exits_2(tmp_path: Path) -> None:
    """A conflict without enemies is refused with exit code 2 and the path."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("characters: []\n")
    done = CliRunner().invoke(app, ["lab", "conflict", str(bad), "--json"])
    assert done.exit_code == 2
    assert json.loads(done.stdout)["error"]["path"] == "characters"
