"""How fast the ``talespin`` command answers ``--help``, against Python starting and doing nothing.

Each sample starts a fresh process, as a person typing the command does: ``python -c pass`` (the floor any
Python command pays), ``talespin --help`` and ``talespin -h`` (the root's help, written without Typer), and
``talespin roll --help`` (a sub-command's help, which loads Typer, Rich and that command's module), and the
root's help rendered by Typer's Rich formatter, as ``talespin --help`` was written before. The
runs are interleaved, so load from other work on the machine falls on all alike, and each figure is the
median of its samples. ``cli_help_vs_python_startup`` is the ratio of the medians within this one run; the
target is ``talespin --help`` ≤ 150 ms.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

SAMPLES = 15
TYPER_HELP = "from talespin.cli.root import app; app(['--help'])"
"""The root's help as Typer writes it (the app exits 0 after printing)."""


def _talespin() -> list[str]:
    script = Path(sys.executable).with_name("talespin")
    return [str(script)] if script.exists() else [sys.executable, "-m", "talespin"]


def _seconds(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def run() -> dict[str, float | int | str]:
    """Median wall-clock seconds of each command over interleaved fresh processes, and their ratios."""
    commands = {
        "python_startup": [sys.executable, "-c", "pass"],
        "cli_help": [*_talespin(), "--help"],
        "cli_h": [*_talespin(), "-h"],
        "cli_sub_command_help": [*_talespin(), "roll", "--help"],
        "cli_help_through_typer": [sys.executable, "-c", TYPER_HELP],
    }
    for command in commands.values():  # warm the file cache and the bytecode once
        _seconds(command)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(SAMPLES):
        for name, command in commands.items():
            times[name].append(_seconds(command))
    median = {name: statistics.median(values) for name, values in times.items()}
    floor = median["python_startup"]
    return {
        "cli_samples": SAMPLES,
        "python_startup_ms": round(floor * 1000, 1),
        "cli_help_ms": round(median["cli_help"] * 1000, 1),
        "cli_h_ms": round(median["cli_h"] * 1000, 1),
        "cli_sub_command_help_ms": round(median["cli_sub_command_help"] * 1000, 1),
        "cli_help_through_typer_ms": round(median["cli_help_through_typer"] * 1000, 1),
        "cli_help_vs_python_startup": round(median["cli_help"] / floor, 2),
        "cli_help_through_typer_vs_python_startup": round(median["cli_help_through_typer"] / floor, 2),
        "cli_sub_command_help_vs_python_startup": round(median["cli_sub_command_help"] / floor, 2),
    }
