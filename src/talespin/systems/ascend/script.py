"""Running a scene script: parsed mappings in, results out (no files are read here).

A script is ``{"system": "ascend", "variant": {...}, "heroes": [sheets], "commands": [{do: ...}, ...]}``; the
caller reads the file and hands sheet paths to a ``load_hero`` callable. The one runner of
:mod:`talespin.systems.script` decides each command and folds its events in order; a command the rules
refuse stops the run with a :class:`ScriptError` that names its index. The result keeps one object per
rolled or narrated command, each with its ``"do"``::

    {"results": [{"do": "test", "target", "pool", "faces", "successes", "success", "margin", ...}, ...],
     "state": {...}, "events": [...]}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...dice import Rng
from ..protocol import Event
from ..script import ScriptError, ScriptShape, play_script
from .state import AscendState
from .system import SYSTEM
from .view import view

__all__ = ["SHAPE", "ScriptError", "run_script"]

SHAPE = ScriptShape(sheets="heroes", sheet="hero")
"""An Ascend script: ``heroes`` besides the common keys."""
_ROLL_KEYS = (
    "hero",
    "kind",
    "skill",
    "conviction",
    "target",
    "pool",
    "faces",
    "successes",
    "success",
    "margin",
)


def _roll(data: Mapping[str, Any]) -> dict[str, Any]:
    return {key: data[key] for key in _ROLL_KEYS if key in data}


def _result(do: str, events: list[Event], state: AscendState) -> dict[str, Any] | None:
    rolled = [event.data for event in events if event.type == "TestRolled"]
    by_type = {event.type: event.data for event in events}
    if do == "test":
        return {"do": do, **_roll(rolled[-1]), "narration": rolled[-1]["narration"]}
    if do == "opposed_test" and "OpposedTestProposed" in by_type:
        proposed = by_type["OpposedTestProposed"]
        return {
            "do": do,
            "proposed": True,
            "attacker": proposed["attacker_hero"],
            "defender": proposed["defender"],
        }
    if do in ("opposed_test", "defend"):
        decided = by_type["OpposedTestDecided"]
        sides = {side: [_roll(r) for r in rolled if r["side"] == side] for side in ("attacker", "defender")}
        return {
            "do": do,
            "attacker": sides["attacker"][-1],
            "defender": sides["defender"][-1],
            "winner": decided["winner"],
            "winning_hero": decided["winning_hero"],
            "tie": decided["tie"],
            "rolls": decided["rolls"],
        }
    if do in {"extended_test", "extended_step", "end_extended"}:
        progress = state.extended
        assert progress is not None  # every extended command leaves one behind
        body: dict[str, Any] = {"do": do, **progress.to_json()}
        if do == "extended_test":
            body["steps"] = [_roll(r) for r in rolled]
        elif do == "extended_step":
            body["step"] = _roll(rolled[-1])
        return body
    if do == "narrate":
        told = by_type["OutcomeNarrated"]
        return {"do": do, "hero": told["hero"], "text": told["text"], "success": told["success"]}
    return None


def run_script(
    script: Mapping[str, Any], rng: Rng | int, load_hero: Callable[[str], Any] | None = None
) -> dict[str, Any]:
    """Run every command of ``script`` in order; ``{"results", "state", "events"}`` or a ScriptError.

    ``rng`` rolls what the script gives no faces for: a generator or a whole-number seed. Hero entries that
    are strings are handed to ``load_hero`` (the CLI reads them as paths beside the script). The run itself is
    :func:`talespin.systems.script.play_script`'s, the same as Inciting Incident's.
    """
    start, steps = play_script(SYSTEM, SHAPE, script, rng, load_hero)
    results: list[dict[str, Any]] = []
    for step in steps:
        result = _result(str(step.command["do"]), step.events, step.state)
        if result is not None:
            results.append(result)
    state = steps[-1].state if steps else start
    return {
        "results": results,
        "state": view(state, "gm"),
        "events": [e.to_json() for s in steps for e in s.events],
    }
