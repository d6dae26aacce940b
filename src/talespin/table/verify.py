"""Checking an exported record: its chain, its commitments, its authors and every server roll.

:func:`verify_export` runs, in order:

* the record's own consistency (:mod:`.audit`): the hash chain, no missing version in a GM's record, each
  seed committed before the first roll it covers and revealed before the next commitment;
* every command entry, replayed on a ledger rebuilt from the record: its author is the GM or a player who
  joined, a player acts only for its own characters and sends nothing GM-only, the events name the
  command's own actor, an undo undoes exactly the entry undo would undo then, a note says what was sent;
* every roll: for an entry the rule system decided, ``decide`` runs again on the state just before it with
  the generator derived from the revealed seed and the recorded nonce (:class:`~.fairness.HmacRng`), and
  the events must equal the recorded ones. A roll recorded as physical dice must not draw server dice; a
  roll whose seed is not revealed yet is *pending*;
* each receipt (:mod:`.receipts`): every head a client was shown lies on the export's chain.

An export that is one page of a longer record (:mod:`.pages`) is *unverifiable* as a whole: its pages are
joined first (:func:`~.pages.join_pages`), as ``talespin verify PAGE…`` does.

A player's export lacks the hidden entries later states may depend on, so its rolls after an entry hidden
from players are *unverifiable*, while its chain, seeds and commitments are still checked.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..store.port import StoredEvent
from ..systems import Event, RulesError
from .audit import Check, check_chain, check_commitments, check_versions
from .export import EXPORT_FORMAT
from .fairness import HmacRng, commitment
from .ledger import TABLE_EVENTS, Ledger, is_secret
from .placeholders import BLIND_MADE, BLIND_REVEALED, STAND_INS, WITHHELD
from .receipts import check_receipt, stored_event
from .upcast import upcast_all

__all__ = ["Check", "Verification", "verify_export"]

EXIT_VERIFIED, EXIT_MISMATCH, EXIT_INCOMPLETE = 0, 1, 3


@dataclass(slots=True)
class Verification:
    """Every check of one export."""

    record: list[Check] = field(default_factory=list)
    seeds: list[Check] = field(default_factory=list)
    rolls: list[Check] = field(default_factory=list)
    receipts: list[Check] = field(default_factory=list)

    @property
    def rows(self) -> list[Check]:
        """Every check, the record's first."""
        return [*self.record, *self.seeds, *self.rolls, *self.receipts]

    @property
    def mismatches(self) -> int:
        """How many checks failed."""
        return sum(check.status == "mismatch" for check in self.rows)

    @property
    def exit_code(self) -> int:
        """0: all verified; 1: a mismatch; 3: nothing wrong, but something could not be checked."""
        if self.mismatches:
            return EXIT_MISMATCH
        return EXIT_INCOMPLETE if any(c.status != "verified" for c in self.rows) else EXIT_VERIFIED

    def to_json(self) -> dict[str, Any]:
        """``{"ok", "complete", "exit_code", "mismatches", "verified", "pending", "unverifiable", rows…}``."""
        rows = self.rows
        return {
            "ok": self.mismatches == 0,
            "complete": self.exit_code == EXIT_VERIFIED,
            "exit_code": self.exit_code,
            "mismatches": self.mismatches,
            "verified": sum(c.status == "verified" for c in rows),
            "pending": sum(c.status == "pending" for c in rows),
            "unverifiable": sum(c.status == "unverifiable" for c in rows),
            "record": [_row(c) for c in self.record],
            "seeds": [_row(c) for c in self.seeds],
            "rolls": [_row(c) for c in self.rolls],
            "receipts": [_row(c) for c in self.receipts],
        }


_NOT_REVEALED = "its seed is not revealed yet"


def _row(check: Check) -> dict[str, Any]:
    return {
        "version": check.version,
        "what": check.what,
        "dice": check.dice,
        "seed_number": check.seed_number,
        "status": check.status,
        "detail": check.detail,
    }


class _NoServerDice:
    """The generator for a command recorded without server dice: drawing from it is a mismatch."""

    def randrange(self, stop: int, /) -> int:
        raise LookupError("the command drew server dice but the record says it did not")


def _canonical(events: Sequence[StoredEvent | Event], revealed: bool = False) -> str:
    """Events as recorded; a revealed blind roll's (shown to players as public) without visibility."""
    return json.dumps(
        [(e.type, dict(e.data), None if revealed else e.visibility) for e in events],
        sort_keys=True,
        ensure_ascii=False,
    )


def _seeds(events: list[StoredEvent], result: Verification) -> dict[int, bytes]:
    committed = {
        int(e.data["number"]): str(e.data["commitment"]) for e in events if e.type == "SeedCommitted"
    }
    revealed: dict[int, bytes] = {}
    for event in (e for e in events if e.type == "SeedRevealed"):
        number, seed = int(event.data["number"]), bytes.fromhex(str(event.data["seed"]))
        ok = committed.get(number) == commitment(seed)
        if ok:
            revealed[number] = seed
        detail = "" if ok else "SHA-256 of the revealed seed differs from the commitment"
        result.seeds.append(
            Check(event.version, f"seed #{number}", "-", number, "verified" if ok else "mismatch", detail)
        )
    return revealed


def _blind_seeds(events: list[StoredEvent], result: Verification) -> dict[int, bytes]:
    """Each revealed blind roll's seed, checked against the commitment made with the roll."""
    made: dict[int, str] = {}
    for event in events:
        blind = event.data.get("blind") if event.type == "CommandIssued" else None
        if isinstance(blind, Mapping):
            made.setdefault(int(blind["number"]), str(blind["commitment"]))
        elif event.type == BLIND_MADE:
            made.setdefault(int(event.data["blind"]), str(event.data["commitment"]))
    revealed: dict[int, bytes] = {}
    for event in (e for e in events if e.type == BLIND_REVEALED):
        number, seed = int(event.data["blind"]), bytes.fromhex(str(event.data["seed"]))
        ok = made.get(number) == commitment(seed) == event.data.get("commitment")
        if ok:
            revealed[number] = seed
        detail = "" if ok else "SHA-256 of the revealed seed differs from the commitment made with the roll"
        what = f"blind roll #{number}"
        result.seeds.append(Check(event.version, what, "-", None, "verified" if ok else "mismatch", detail))
    return revealed


def _held(events: list[StoredEvent], result: Verification, full: bool) -> None:
    """A stand-in for an entry still held from this viewer: pending until the GM reveals the blind roll."""
    if full:
        return
    released = {int(e.data["blind"]) for e in events if e.type == BLIND_REVEALED}
    undone = {int(e.data["entry"]) for e in events if e.type == "EntryUndone" and e.data.get("entry")}
    made: set[int] = set()
    for event in events:
        if event.type == BLIND_MADE:
            made.add(int(event.data["blind"]))
            if event.version in undone:
                released.add(int(event.data["blind"]))  # nothing more of it will come
        what = f"blind roll #{event.data.get('blind')}"
        if event.type == BLIND_MADE and event.version in undone and int(event.data["blind"]) in made:
            detail = "undone before its reveal: it changed nothing, and its dice stay with the GM"
            result.rolls.append(Check(event.version, what, "-", None, "unverifiable", detail))
        elif event.type == BLIND_MADE and int(event.data["blind"]) not in released:
            result.rolls.append(Check(event.version, what, "-", None, "pending", "not revealed yet"))
        elif event.type == WITHHELD and event.version in undone:
            what = f"{event.data.get('do')} (held)"
            detail = "undone while held behind a blind roll: its record stays with the GM"
            result.rolls.append(Check(event.version, what, "-", None, "unverifiable", detail))
        elif event.type == WITHHELD and not made <= released:
            what = f"{event.data.get('do')} (held)"
            detail = "held behind a blind roll: its record comes with the reveal"
            result.rolls.append(Check(event.version, what, "-", None, "pending", detail))


def verify_export(record: Mapping[str, Any], receipts: Sequence[tuple[str, Any]] = ()) -> Verification:
    """Check an export and each ``(name, receipt)`` (ValueError if the record or a receipt is not one)."""
    if not isinstance(record, Mapping) or record.get("format") != EXPORT_FORMAT:
        raise ValueError(f"not a talespin export (expected format {EXPORT_FORMAT!r})")
    if record.get("after") or record.get("next") is not None:
        return _one_page(record)
    return _verify_whole(record, receipts)


def _verify_whole(record: Mapping[str, Any], receipts: Sequence[tuple[str, Any]]) -> Verification:
    campaign_id = str(record["campaign"]["id"])
    raws = upcast_all(record["events"])  # SchemaError (a ValueError) for a schema this code cannot read
    events = [stored_event(campaign_id, raw) for raw in raws]
    full = record.get("viewer") == "gm"
    result = Verification()
    result.record += check_chain(raws, record.get("chain"))
    result.record += check_versions(raws, full)
    result.record += check_commitments(raws)
    revealed, blind = _seeds(events, result), _blind_seeds(events, result)
    _held(events, result, full)
    members: dict[int, list[StoredEvent]] = defaultdict(list)
    for raw, event in zip(raws, events, strict=True):
        if raw.get("entry") is not None and event.type != "CommandIssued":
            members[int(raw["entry"])].append(event)
    unseen = {e.version - 1 for e in events if e.type == "SeedCommitted"}
    unseen |= {e.version + 1 for e in events if e.type == "CommandIssued" and e.data.get("blind")}
    stand_ins = {e.version: e for e in events if e.type in STAND_INS}
    ledger = Ledger(campaign_id)
    hidden: str | None = None
    previous = 0
    for raw, event in zip(raws, events, strict=True):
        if hidden is None and any(v not in unseen for v in range(previous + 1, event.version)):
            hidden = "entries hidden from this viewer come before it; verify the GM's export"
        previous = event.version
        if event.type == "CommandIssued":
            entry = members[event.version]
            if hidden is None:
                result.record += _authorship(ledger, event, entry, stand_ins)
            if event.data.get("handled_by") == "system":
                check = (
                    _unverifiable(event, hidden) if hidden else _check(ledger, event, entry, revealed, blind)
                )
                result.rolls.append(check if full or check.status != "mismatch" else _partial(check))
        elif event.type == "EntryUndone" and hidden is None and _entry_command(ledger, raw) != "undo":
            result.record.append(
                Check(event.version, "undo", "-", None, "mismatch", "an undo that no undo command sent")
            )
        if hidden is None:
            try:
                ledger.apply(event)
            except (RulesError, LookupError, TypeError, ValueError) as error:
                hidden = f"the state cannot be rebuilt from this record ({error}); verify the GM's export"
    undone = {int(e.data["entry"]) for e in events if e.type == "EntryUndone" and e.data.get("entry")}
    result.rolls = [
        _undone_before_reveal(check) if check.version in undone else check for check in result.rolls
    ]
    for name, receipt in receipts:
        result.receipts.append(check_receipt(record, receipt, name))
    return result


def _undone_before_reveal(check: Check) -> Check:
    """A roll still pending whose entry was undone: its seed will never be revealed (a blind roll undone)."""
    if check.status != "pending" or check.detail != _NOT_REVEALED:
        return check
    detail = "undone before its seed was revealed: it changed nothing, and its dice stay secret"
    return Check(check.version, check.what, check.dice, check.seed_number, "unverifiable", detail)


def _one_page(record: Mapping[str, Any]) -> Verification:
    """An export that is not the whole record: nothing wrong with it can be known, nothing is verified."""
    missing = []
    if record.get("after"):
        missing.append(f"versions up to {record.get('after')}")
    if record.get("next") is not None:
        missing.append(f"versions after {record.get('next')}")
    detail = (
        f"this export is one page of a longer record ({' and '.join(missing)} are on other pages): "
        "download every page (?after=next until next is null) and verify them together"
    )
    return Verification(record=[Check(0, "pages", "-", None, "unverifiable", detail)])


_UNDO_ORDER = "it does not undo the entry undo would undo at that point"


def _undoes_an_earlier_entry(ledger: Ledger, entry: list[StoredEvent]) -> bool:
    """Whether the undo's one ``EntryUndone`` names an entry of the record that undo could still undo."""
    undone = [e for e in entry if e.type == "EntryUndone"]
    if len(undone) != 1 or not isinstance(undone[0].data.get("entry"), int):
        return False
    target = ledger.entry(int(undone[0].data["entry"]))
    return target is not None and not target.undone and target.command.get("do") not in {"undo", "reveal"}


def _entry_command(ledger: Ledger, raw: Mapping[str, Any]) -> Any:
    entry = ledger.entry(int(raw["entry"])) if raw.get("entry") is not None else None
    return None if entry is None else entry.command.get("do")


def _authorship(
    ledger: Ledger, head: StoredEvent, entry: list[StoredEvent], stand_ins: Mapping[int, StoredEvent]
) -> list[Check]:
    """Who sent the command may send it, and a table command's events are the ones it causes."""
    command, by = dict(head.data.get("command") or {}), str(head.data.get("by"))
    if head.data.get("handled_by") == "system":
        wrong = _author(ledger, command, by) or _actor(ledger, command, by, [head, *entry])
    else:
        wrong = _author(ledger, command, by) or _table_events(ledger, command, by, entry, stand_ins)
    what = f"{command.get('do')} by {by}"
    if wrong == _UNDO_ORDER and stand_ins and _undoes_an_earlier_entry(ledger, entry):
        detail = (
            "it undoes an entry shown before entries held behind a blind roll, which this record lists in "
            "the order they were released, not recorded: verify the GM's export"
        )
        return [Check(head.version, what, "-", None, "unverifiable", detail)]
    return [] if wrong is None else [Check(head.version, what, "-", None, "mismatch", wrong)]


def _author(ledger: Ledger, command: Mapping[str, Any], by: str) -> str | None:
    if by != "gm" and by not in ledger.players:
        return "its author is neither the GM nor a player who joined"
    gm_only = {"undo", "reveal_seed", "start_scene", "end_scene", "reveal", "set_blind_reveal"}
    if by != "gm" and (is_secret(command) or command.get("do") in gm_only):
        return "a player cannot send this command"
    return None


def _actor(ledger: Ledger, command: Mapping[str, Any], by: str, entry: list[StoredEvent]) -> str | None:
    acting = ledger.system.actors(ledger.state, command)
    named = {e.actor for e in entry if e.type not in TABLE_EVENTS or e.type == "CommandIssued"}
    if any(name is not None and name not in acting for name in named):
        return f"its events name a character the command does not act for ({sorted(acting)})"
    adds = command.get("do") in ledger.system.joins
    if by != "gm" and not adds and any(ledger.owner_of(name) != by for name in acting):
        return f"{sorted(acting)} are not all characters of its author"
    return None


def _table_events(
    ledger: Ledger,
    command: Mapping[str, Any],
    by: str,
    entry: list[StoredEvent],
    stand_ins: Mapping[int, StoredEvent],
) -> str | None:
    if command.get("do") == "undo":
        target = ledger.latest_undoable()
        undone = [dict(e.data) for e in entry if e.type == "EntryUndone"]
        held = stand_ins.get(int(undone[0].get("entry") or 0)) if len(undone) == 1 else None
        if held is not None:  # a player's record: the undo of an entry it got a stand-in for
            done = None if held.type == BLIND_MADE else held.data.get("do")
            if undone != [{"entry": held.version, "undone": held.version, "do": done}]:
                return "it does not undo the held entry it names as that entry was"
            return None
        expected = (
            None
            if target is None
            else {"entry": target.version, "undone": target.version, "do": target.command.get("do")}
        )
        if undone != [expected]:
            return _UNDO_ORDER
    elif command.get("do") == "note":
        notes = [(e.data.get("text"), e.data.get("by"), e.visibility) for e in entry if e.type == "NoteAdded"]
        if notes != [(command.get("text"), by, command.get("visibility", "public"))]:
            return "the note recorded is not the note sent"
    return None


def _unverifiable(head: StoredEvent, reason: str) -> Check:
    command = head.data.get("command") or {}
    what = f"{command.get('do')}" + (f" ({head.actor})" if head.actor else "")
    dice, number = str(head.data.get("dice", "none")), head.data.get("seed_number")
    return Check(head.version, what, dice, number, "unverifiable", reason)


def _partial(check: Check) -> Check:
    """A replay mismatch in a player's record: it may lack GM-only entries the state depends on."""
    detail = f"{check.detail}; a player's record lacks GM-only entries: verify the GM's export"
    return Check(check.version, check.what, check.dice, check.seed_number, "unverifiable", detail)


def _generator(ledger: Ledger, head: StoredEvent, revealed: dict[int, bytes], blind: dict[int, bytes]) -> Any:
    """The dice a command's record says it used: a seed's generator, none, or ``None`` (not revealed)."""
    if head.data.get("dice") != "server":
        return _NoServerDice()
    facts, number = head.data.get("blind"), head.data.get("seed_number")
    if isinstance(facts, Mapping):
        seed = blind.get(int(facts["number"]))
    else:
        seed = None if number is None else revealed.get(int(number))
    return None if seed is None else HmacRng(seed, ledger.campaign_id, head.version, head.data.get("nonce"))


def _check(
    ledger: Ledger,
    head: StoredEvent,
    entry: list[StoredEvent],
    revealed: dict[int, bytes],
    blind: dict[int, bytes],
) -> Check:
    command = dict(head.data["command"])
    dice = str(head.data.get("dice", "none"))
    number = head.data.get("seed_number")
    what = f"{command.get('do')}" + (f" ({head.actor})" if head.actor else "")
    row = (head.version, what, dice, number)
    rng = _generator(ledger, head, revealed, blind)
    if rng is None:
        return Check(*row, "pending", _NOT_REVEALED)
    try:
        decided = ledger.system.decide(ledger.state, command, rng)
    except (RulesError, LookupError) as error:
        if head.data.get("void") is not None and not [e for e in entry if e.type not in TABLE_EVENTS]:
            return Check(*row, "verified", f"void: {error}")
        return Check(*row, "mismatch", f"replaying the command failed: {error}")
    if head.data.get("void") is not None:
        return Check(*row, "mismatch", "recorded as void, but the rules allow it here")
    rest = [e for e in entry if e.type not in TABLE_EVENTS]
    revealed_to_players = head.data.get("blind") is not None and head.visibility == "public"
    if _canonical(decided, revealed_to_players) != _canonical(rest, revealed_to_players):
        return Check(*row, "mismatch", "the recorded events differ from the events the dice give")
    return Check(*row, "verified")
