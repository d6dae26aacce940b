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

__all__ = ["legal_json", "system_legal"]


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


def system_legal(ledger: Ledger, role: Role) -> list[dict[str, Any]]:
    """The rule system's legal commands for ``role`` now: in the true state for the GM, in the state the
    players know for a player (the same for every player: what each may send is cut from it).

    Finding them decides every candidate, the dearest part of a viewer's state, so they are found once per
    version and role and kept on the ledger (:attr:`.Ledger.legal_memo`) for every viewer that asks at that
    version. The list is shared: read it, never change it.
    """
    key = (role, ledger.version)
    found = ledger.legal_memo.get(key)
    if found is None:
        state = ledger.state if role == "gm" else ledger.release.state
        found = ledger.system.legal_commands(state, role)
        kept = {k: v for k, v in ledger.legal_memo.items() if k[1] == ledger.version}
        ledger.legal_memo = {**kept, key: found}
    return found


def _player_offers(ledger: Ledger) -> list[tuple[dict[str, Any], frozenset[str]]]:
    """The players' legal commands that some player could be offered, each with the characters it acts for.

    A command is offered to a player only if it acts for characters (all of them that player's), is no
    join of the system's and carries nothing GM-only. All of that but the owner is the same for every
    player, so it is decided once for all of them and each player's list is cut from it by ownership
    alone. The offers are kept with the list they came from
    (:attr:`.Ledger.offers_memo`): while the system gives back that very list (the same version, or a
    players' state equal to one it searched), they stand.
    """
    found = system_legal(ledger, "player")
    memo = ledger.offers_memo
    if memo is not None and memo[0] is found:
        return memo[1]
    system, state = ledger.system, ledger.release.state
    offers = []
    for command in found:
        if command["do"] in system.joins or is_secret(command):
            continue
        acting = system.actors(state, command)
        if acting:
            offers.append((command, frozenset(acting)))
    ledger.offers_memo = (found, offers)
    return offers


def legal_json(ledger: Ledger, viewer: Viewer) -> list[dict[str, Any]]:
    """Every complete command ``viewer`` may send now (see the module's docstring)."""
    if viewer.is_gm:
        return [*system_legal(ledger, "gm"), *_table_commands(ledger)]
    owner = ledger.owner_of
    return [
        command
        for command, acting in _player_offers(ledger)
        if all(owner(name) == viewer.player_id for name in acting)
    ]
