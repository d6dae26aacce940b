"""The commands a viewer may send now: the system's legal commands for its role, kept to what it may send.

The GM gets every command the rule system accepts in the true state, and the table's own it may send now
(``undo`` naming the entry it would undo, ``reveal`` of each blind roll held, the settings it can change,
a fresh seed; for a system without scenes, starting and ending one). A player gets the commands the
system accepts in the state the players know that act only for characters it owns (the table refuses any
other, :mod:`.commands`). Commands needing a text or a sheet (a note, ``add_character``) are not listed:
they are always open, to their senders as the contract says.

Each item is a complete command: sent as it is, at the version it was listed at, the table accepts it.
"""

from __future__ import annotations

from typing import Any

from ..systems import Role
from .auth import Viewer
from .ledger import BLIND_REVEAL, PHYSICAL_DICE, Ledger, is_secret

__all__ = ["legal_json"]


def _table_commands(ledger: Ledger) -> list[dict[str, Any]]:
    """The table's own commands the GM may send now."""
    offered: list[dict[str, Any]] = []
    undoable = ledger.latest_undoable()
    if undoable is not None:
        offered.append({"do": "undo", "entry": undoable.version})
    offered.extend({"do": "reveal", "entry": entry} for entry in ledger.release.held_blind)
    offered.extend(
        {"do": "set_physical_dice", "who": who} for who in PHYSICAL_DICE if who != ledger.physical_dice
    )
    offered.extend({"do": "set_blind_reveal", "at": at} for at in BLIND_REVEAL if at != ledger.blind_reveal)
    offered.append({"do": "reveal_seed"})
    if not ledger.system.scenes:
        offered.extend([{"do": "start_scene"}, {"do": "end_scene"}])
    return offered


def legal_json(ledger: Ledger, viewer: Viewer) -> list[dict[str, Any]]:
    """Every complete command ``viewer`` may send now (see the module's docstring)."""
    role: Role = "gm" if viewer.is_gm else "player"
    system = ledger.system
    if viewer.is_gm:
        return [*system.legal_commands(ledger.state, role), *_table_commands(ledger)]
    state = ledger.release.state
    mine: list[dict[str, Any]] = []
    for command in system.legal_commands(state, role):
        acting = system.actors(state, command)
        owned = all(ledger.owner_of(name) == viewer.player_id for name in acting)
        if acting and owned and command["do"] not in system.joins and not is_secret(command):
            mine.append(command)
    return mine
