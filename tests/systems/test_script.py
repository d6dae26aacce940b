"""The one scene-script runner: both systems' scripts are checked, refused and played the same way."""

from __future__ import annotations

import random
from typing import Any

import pytest

from talespin.systems import MalformedCommand
from talespin.systems.ascend import script as ascend_script
from talespin.systems.inciting_incident import script as ii_script
from talespin.systems.script import ScriptError

RUNNERS = [
    pytest.param(ii_script.run_script, "characters", "inciting-incident", id="ii"),
    pytest.param(ascend_script.run_script, "heroes", "ascend", id="ascend"),
]


@pytest.mark.parametrize(("run", "sheets", "name"), RUNNERS)
@pytest.mark.parametrize(
    "broken",
    [
        ({"commands": [], "scenes": []}, "unknown_key", "scenes"),
        ({"system": "chess"}, "wrong_system", "system"),
        ({"commands": {"do": "x"}}, "bad_script", "commands"),
        ([], "bad_script", ""),
    ],
)
def test_a_broken_script_is_refused_alike_in_both_systems(
    run: Any, sheets: str, name: str, broken: tuple[Any, str, str]
) -> None:
    """The same mistake gets the same code and path from either system's runner."""
    script, code, path = broken
    with pytest.raises(MalformedCommand) as refused:
        run(script, random.Random(0))
    assert (refused.value.code, refused.value.path) == (code, path)


@pytest.mark.parametrize(("run", "sheets", "name"), RUNNERS)
def test_sheet_paths_need_a_loader_and_the_loader_reads_them(run: Any, sheets: str, name: str) -> None:
    """A sheet given by path is refused without a loader, naming its place, and read by one."""
    with pytest.raises(MalformedCommand) as refused:
        run({sheets: ["ada.yaml"]}, 0)
    assert (refused.value.code, refused.value.path) == ("bad_script", f"{sheets}[0]")
    asked: list[str] = []

    def load(path: str) -> Any:
        asked.append(path)
        raise MalformedCommand("unreadable", code="unreadable_file")

    with pytest.raises(MalformedCommand):
        run({sheets: ["ada.yaml"]}, 0, load)
    assert asked == ["ada.yaml"]


@pytest.mark.parametrize(("run", "sheets", "name"), RUNNERS)
def test_a_refused_command_stops_the_run_with_one_error_class(run: Any, sheets: str, name: str) -> None:
    """Either system names the refused command from 1 in words and from 0 in ``command_index``."""
    with pytest.raises(ScriptError) as refused:
        run({"system": name, "commands": [{"do": "no_such_command"}]}, 0)
    assert refused.value.command_index == 0
    assert refused.value.message.startswith("command 1 (commands[0]): ")
    assert refused.value.to_json()["code"] == "unknown_command"
