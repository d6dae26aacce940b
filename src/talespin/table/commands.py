"""Deciding a command at the table: who may send it, what the table handles itself, what the system decides.

Every command becomes one *entry* in the log: ``CommandIssued`` first (the command, who sent it, which dice
it used), then the events it caused. The table handles its own vocabulary:

* ``{"do": "undo", "entry": 12}`` (GM only) undoes the latest command entry not yet undone and not itself an
  undo; sending it again walks further back. The entry stays in the log, marked by ``EntryUndone``. ``entry``
  (optional) names the entry the GM means to undo: when it is not that latest entry, nothing is undone and
  the command is refused (``undo_not_last``), so an undo never strikes another entry than the one it named.
* ``{"do": "note", "text": "...", "visibility": "public" | "gm"}`` a table-level note (GM-only notes from
  the GM only).
* ``{"do": "set_physical_dice", "who": "players" | "gm"}`` (GM only): who may enter physical dice
  (``faces``), the players for their own characters (the default, as at a real table) or only the GM.
* ``{"do": "reveal", "entry": n}`` (GM only) reveals the blind roll of entry ``n`` to the players
  (:mod:`.blind`); until then players get a stand-in for it and for every entry after it (:mod:`.release`).
* ``{"do": "set_blind_reveal", "at": "gm" | "scene_end"}`` (GM only): whether ``end_scene`` also reveals
  the blind rolls still held (by default only ``reveal`` does).
* ``{"do": "reveal_seed"}`` (GM only) reveals the open seed and commits a fresh one; so do ``start_scene``
  and ``end_scene`` (see below), so every server roll can be verified once its scene is over.

Everything else goes to the rule system: ``actors(state, command)`` names every character it acts for (an
opposed Test's defender, each step of an extended Test); a player may send it only when it owns every one of
them, the GM for anyone; a command with no actor is the GM's, except the system's ``joins``
(``add_character``), by which anyone brings in a character (and owns it). A command carrying
``"visibility": "gm"`` anywhere (a blind roll, a GM-only Trigger) is the GM's too.

``start_scene`` draws a new seed before the system sees the command; ``end_scene`` reveals it after. For a
system without scenes in its rules (its ``scenes`` is false), the table handles both itself.

Every server roll mixes the open seed with the *nonce* the rolling client sent with its command (a fresh
random hex string, see :class:`~.fairness.HmacRng`); a command sent without one gets one from the server,
and its ``CommandIssued`` says so (``"nonce_from": "server"``). A nonce serves one roll per seed: sending it
again is refused, so no one can replay a roll they liked.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping
from typing import Any, Final

from ..store.port import NewEvent
from ..systems import IllegalCommand, MalformedCommand, RulesError
from .auth import Viewer
from .blind import BlindRng, blind_facts, reveal_at_scene_end, reveal_events
from .errors import Forbidden
from .fairness import HmacRng, commitment
from .ledger import BLIND_REVEAL, PHYSICAL_DICE, Entry, Ledger, is_secret
from .shape import check_depth

__all__ = [
    "MAX_NOTE",
    "NONCE",
    "TABLE_COMMANDS",
    "decide",
    "first_events",
    "rotate_seed",
    "server_nonce",
]

TABLE_COMMANDS: Final = frozenset(
    {"undo", "note", "reveal_seed", "set_physical_dice", "reveal", "set_blind_reveal"}
)
"""Commands the table handles itself, for every system."""
MAX_NOTE: Final = 4000
"""The longest note, in characters."""

SeedSource = Callable[[], bytes]
NONCE: Final = re.compile(r"[0-9a-f]{16,128}")
"""A client's nonce: 16 to 128 lowercase hex digits (the page sends 32, from ``crypto.getRandomValues``)."""


def server_nonce() -> str:
    """A nonce the server makes for a command sent without one."""
    return secrets.token_hex(16)


def first_events(name: str, system: str, variant: Mapping[str, Any], seed: bytes) -> list[NewEvent]:
    """The events that open a campaign's log: its creation and its first seed commitment."""
    return [
        NewEvent("CampaignCreated", {"name": name, "system": system, "variant": dict(variant)}),
        *_commit(1, seed),
    ]


def _commit(number: int, seed: bytes) -> list[NewEvent]:
    return [
        NewEvent("SeedDrawn", {"number": number, "seed": seed.hex()}, "server"),
        NewEvent("SeedCommitted", {"number": number, "commitment": commitment(seed)}),
    ]


def rotate_seed(ledger: Ledger, draw_seed: SeedSource) -> tuple[list[NewEvent], int, bytes]:
    """Reveal the open seed (if any) and commit a fresh one: the events, its number and the seed."""
    events: list[NewEvent] = []
    current = ledger.open_seed()
    if current is not None and current.seed is not None:
        events.append(
            NewEvent(
                "SeedRevealed",
                {"number": current.number, "seed": current.seed.hex(), "commitment": current.sha256},
            )
        )
    number = max(ledger.seeds, default=0) + 1
    seed = draw_seed()
    return [*events, *_commit(number, seed)], number, seed


def _issued(
    command: Mapping[str, Any],
    viewer: Viewer,
    handled_by: str,
    actor: str | None,
    *,
    secret: bool = False,
    **extra: Any,
) -> NewEvent:
    data = {"command": dict(command), "by": viewer.label, "handled_by": handled_by, **extra}
    return NewEvent("CommandIssued", data, "gm" if secret or is_secret(command) else "public", actor)


def _require_gm(viewer: Viewer, what: str) -> None:
    if not viewer.is_gm:
        raise Forbidden(f"only the GM may {what}")


def decide(
    ledger: Ledger,
    viewer: Viewer,
    command: Any,
    draw_seed: SeedSource,
    *,
    nonce: Any = None,
    make_nonce: Callable[[], str] = server_nonce,
) -> list[NewEvent]:
    """The events one command causes at this table, or an error with nothing changed.

    ``nonce`` is the client's contribution to the command's server dice; ``None`` lets the server make one.
    """
    if nonce is not None and (not isinstance(nonce, str) or not NONCE.fullmatch(nonce)):
        raise MalformedCommand(
            "nonce must be 16 to 128 lowercase hex digits, fresh for each roll", path="nonce"
        )
    if not isinstance(command, Mapping) or not isinstance(command.get("do"), str):
        raise MalformedCommand(
            'a command is an object with a "do" naming it, e.g. {"do": "note", "text": "…"}'
        )
    check_depth(command)
    do = command["do"]
    if is_secret(command):
        _require_gm(viewer, 'send anything with "visibility": "gm" (blind rolls, GM-only Triggers and notes)')
    if do in TABLE_COMMANDS or (do in {"start_scene", "end_scene"} and not ledger.system.scenes):
        return _decide_table(ledger, viewer, command, draw_seed)
    return _decide_system(
        ledger, viewer, command, draw_seed, (nonce, "client") if nonce else (make_nonce(), "server")
    )


def _decide_table(
    ledger: Ledger, viewer: Viewer, command: Mapping[str, Any], draw_seed: SeedSource
) -> list[NewEvent]:
    do = command["do"]
    if do == "note":
        text, visibility = command.get("text"), command.get("visibility", "public")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_NOTE:
            raise MalformedCommand(
                f"a note needs a non-empty text of at most {MAX_NOTE} characters", path="text"
            )
        if visibility not in {"public", "gm"}:
            raise MalformedCommand(
                f"visibility must be 'public' or 'gm', got {visibility!r}", path="visibility"
            )
        extra = set(command) - {"do", "text", "visibility"}
        if extra:
            raise MalformedCommand(f"a note takes only text and visibility, not {sorted(extra)}", path="do")
        return [
            _issued(command, viewer, "table", None),
            NewEvent("NoteAdded", {"text": text, "by": viewer.label}, visibility),
        ]
    _require_gm(viewer, f"{do.replace('_', ' ')}")
    if do == "set_physical_dice":
        who = command.get("who")
        if who not in PHYSICAL_DICE or set(command) - {"do", "who"}:
            raise MalformedCommand(
                f"set_physical_dice takes who: one of {', '.join(PHYSICAL_DICE)}, got {who!r}", path="who"
            )
        setting = NewEvent("SettingChanged", {"physical_dice": who, "by": viewer.label})
        return [_issued(command, viewer, "table", None), setting]
    if do == "reveal":
        return reveal_events(ledger, command, lambda sent: _issued(sent, viewer, "table", None))
    if do == "set_blind_reveal":
        at = command.get("at")
        if at not in BLIND_REVEAL or set(command) - {"do", "at"}:
            raise MalformedCommand(
                f"set_blind_reveal takes at: one of {', '.join(BLIND_REVEAL)}, got {at!r}", path="at"
            )
        setting = NewEvent("SettingChanged", {"blind_reveal": at, "by": viewer.label})
        return [_issued(command, viewer, "table", None), setting]
    if do == "undo":
        target = ledger.latest_undoable()
        if target is None:
            raise IllegalCommand("there is nothing to undo", code="nothing_to_undo")
        _check_undo_names(command, target.version)
        unseen = _unseen_by_players(ledger, target)
        undone = NewEvent(
            "EntryUndone",
            {"entry": target.version, "undone": target.version, "do": target.command.get("do")},
            "gm" if unseen else "public",
        )
        return [_issued(command, viewer, "table", None, secret=unseen), undone]
    rotation, _, _ = rotate_seed(ledger, draw_seed)
    reveals = reveal_at_scene_end(ledger) if do == "end_scene" else []
    return [_issued(command, viewer, "table", None), *reveals, *rotation]


def _unseen_by_players(ledger: Ledger, target: Entry) -> bool:
    """Whether players received nothing of the entry ``target`` (a GM-only note or Trigger): its undo is then
    GM-only too, or players would count the GM's secrets by its undos. A blind roll is not unseen: players
    received its stand-in, and receive its undo (:mod:`.release`)."""
    if target.visibility != "gm" or ledger.blind_of(target.version) is not None:
        return False
    return all(stored.visibility != "public" for stored in ledger.log[target.version - 1 : target.last])


def _check_undo_names(command: Mapping[str, Any], latest: int) -> None:
    """Refuse an undo whose ``entry`` is not ``latest``, the entry undo would undo now."""
    if "entry" not in command:
        return
    named = command["entry"]
    if isinstance(named, bool) or not isinstance(named, int) or named < 1:
        raise MalformedCommand(f"entry must be an entry number (1 or more), got {named!r}", path="entry")
    if named != latest:
        raise IllegalCommand(
            f"entry #{named} is not the last entry that can be undone (#{latest} is); nothing was undone",
            code="undo_not_last",
        )


def _has_faces(value: Any) -> bool:
    """True when a command carries physical dice anywhere (its own, a side's, a step's)."""
    if isinstance(value, Mapping):
        return "faces" in value or any(_has_faces(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_faces(v) for v in value if isinstance(v, Mapping | list))
    return False


def _first_named(command: Mapping[str, Any], acting: frozenset[str]) -> str | None:
    """The entry's actor when a command acts for several: the first one named (an opposed Test's attacker)."""
    for key in ("hero", "character", "attacker"):
        value = command.get(key)
        name = value.get("hero") if isinstance(value, Mapping) else value
        if isinstance(name, str) and name in acting:
            return name
    return min(acting) if acting else None


def _rolled(
    ledger: Ledger,
    command: Mapping[str, Any],
    rng: HmacRng | BlindRng,
    number: int,
    nonce: tuple[str, str],
) -> tuple[dict[str, Any], list[NewEvent]]:
    """What ``CommandIssued`` records of the dice (and a blind roll's seed event): seed, nonce, blind."""
    blind_seed = rng.seed(_has_faces(command)) if isinstance(rng, BlindRng) else None
    if blind_seed is not None:
        blind, seed_event = blind_facts(ledger, blind_seed)
        return {"seed_number": None, "nonce": nonce[0], "nonce_from": nonce[1], "blind": blind}, [seed_event]
    if not rng.used:
        return {"seed_number": None}, []
    if ledger.nonce_used(number, nonce[0]):
        raise IllegalCommand("this nonce was used for a roll already: send a fresh one", code="nonce_used")
    return {"seed_number": number, "nonce": nonce[0], "nonce_from": nonce[1]}, []


def _outcome(
    ledger: Ledger, viewer: Viewer, command: Mapping[str, Any], rng: HmacRng | BlindRng
) -> tuple[list[Any], dict[str, Any] | None]:
    """The system's events for a command, and why it came to nothing (``None`` when it did not).

    While a blind roll is held from the players, a player's command is judged first on the state the
    players know, so whether it is refused cannot depend on the blind roll. One that state allows but the
    true state refuses is recorded as *void*: it changes nothing, and players learn so with the reveal.
    """
    if viewer.is_gm or not ledger.release.held_blind:
        return ledger.system.decide(ledger.state, command, rng), None
    probe = HmacRng(bytes(32), ledger.campaign_id, 0, "0" * 32)
    ledger.system.decide(ledger.release.state, command, probe)
    try:
        return ledger.system.decide(ledger.state, command, rng), None
    except RulesError as error:
        return [], error.to_json()


def _decide_system(
    ledger: Ledger,
    viewer: Viewer,
    command: Mapping[str, Any],
    draw_seed: SeedSource,
    nonce: tuple[str, str],
) -> list[NewEvent]:
    system = ledger.system
    do = command["do"]
    acting = system.actors(ledger.state, command)
    actor = min(acting) if len(acting) == 1 else _first_named(command, acting)
    if do not in system.joins:
        if not acting:
            _require_gm(viewer, f"send {do!r}")
        elif not viewer.is_gm:
            for name in sorted(acting):
                if viewer.player_id is None or ledger.owner_of(name) != viewer.player_id:
                    raise Forbidden(f"{name!r} is not one of your characters", character=name)
            if ledger.physical_dice == "gm" and _has_faces(command):
                raise Forbidden(
                    "in this campaign only the GM enters physical dice: leave faces out", path="faces"
                )
    before: list[NewEvent] = []
    seed = ledger.open_seed()
    number, seed_bytes = (seed.number, seed.seed) if seed is not None else (0, None)
    if do == "start_scene":
        before, number, seed_bytes = rotate_seed(ledger, draw_seed)
    if seed_bytes is None:
        raise IllegalCommand("the table has no open seed commitment for server rolls", code="no_seed")
    args = (ledger.campaign_id, ledger.version + 1, nonce[0])
    rng = BlindRng(draw_seed, *args) if is_secret(command) else HmacRng(seed_bytes, *args)
    events, void = _outcome(ledger, viewer, command, rng)
    dice = "server" if rng.used else ("physical" if "faces" in command else "none")
    rolled, seed_event = _rolled(ledger, command, rng, number, nonce)
    before = [*seed_event, *before]
    if void is not None:
        rolled["void"] = void
    issued = _issued(command, viewer, "system", actor, dice=dice, **rolled)
    after: list[NewEvent] = []
    if do == "end_scene":
        after = [*reveal_at_scene_end(ledger), *rotate_seed(ledger, draw_seed)[0]]
    decided = [NewEvent(e.type, dict(e.data), e.visibility, actor) for e in events]
    return [issued, *before, *decided, *after]
