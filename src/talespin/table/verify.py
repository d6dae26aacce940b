"""Checking an exported record: every seed matches its commitment, every server roll re-derives.

For each command entry the rule system decided, the check rebuilds the state just before it (the system's
``evolve`` over the entries not undone at that point), runs ``decide`` again on the recorded command with the
generator derived from the revealed seed (:class:`~.fairness.HmacRng`), and compares the events with the
recorded ones. A roll recorded as physical dice must not draw server dice; a roll whose seed is not yet
revealed is *pending*. Verification needs the GM's export (the full record); a player's export lacks the
hidden entries the state depends on, so its rolls after the first hidden entry are *unverifiable* (neither
verified nor a mismatch), while its seeds are still checked.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..store.port import StoredEvent
from ..systems import RulesError
from .export import EXPORT_FORMAT
from .fairness import HmacRng, commitment
from .ledger import TABLE_EVENTS, Ledger

__all__ = ["Check", "Verification", "verify_export"]


@dataclass(frozen=True, slots=True)
class Check:
    """The verdict on one command entry or one seed.

    ``verified``; ``mismatch``; ``pending`` (its seed is not revealed yet); ``unverifiable`` (a player's
    export lacks the hidden entries the state before it depends on).
    """

    version: int
    what: str
    dice: str
    seed_number: int | None
    status: str
    detail: str = ""


@dataclass(slots=True)
class Verification:
    """Every check of one export."""

    seeds: list[Check] = field(default_factory=list)
    rolls: list[Check] = field(default_factory=list)

    @property
    def mismatches(self) -> int:
        """How many checks failed."""
        return sum(check.status == "mismatch" for check in [*self.seeds, *self.rolls])

    def to_json(self) -> dict[str, Any]:
        """``{"ok", "mismatches", "verified", "pending", "unverifiable", "seeds": [...], "rolls": [...]}``."""
        rows = [*self.seeds, *self.rolls]
        return {
            "ok": self.mismatches == 0,
            "mismatches": self.mismatches,
            "verified": sum(c.status == "verified" for c in rows),
            "pending": sum(c.status == "pending" for c in rows),
            "unverifiable": sum(c.status == "unverifiable" for c in rows),
            "seeds": [_row(c) for c in self.seeds],
            "rolls": [_row(c) for c in self.rolls],
        }


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


def _canonical(events: list[tuple[str, Any, str]]) -> str:
    return json.dumps(events, sort_keys=True, ensure_ascii=False)


def _stored(campaign_id: str, raw: Mapping[str, Any]) -> StoredEvent:
    return StoredEvent(
        campaign_id,
        int(raw["version"]),
        str(raw["type"]),
        dict(raw.get("data") or {}),
        str(raw.get("visibility", "public")),
        raw.get("actor"),
        str(raw.get("at", "")),
    )


def verify_export(record: Mapping[str, Any]) -> Verification:
    """Check every seed and every command entry of an export (raises ValueError if it is not one)."""
    if record.get("format") != EXPORT_FORMAT:
        raise ValueError(f"not a talespin export (expected format {EXPORT_FORMAT!r})")
    campaign_id = str(record["campaign"]["id"])
    events = [_stored(campaign_id, raw) for raw in record["events"]]
    result = Verification()
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
    members: dict[int, list[StoredEvent]] = defaultdict(list)
    for raw, event in zip(record["events"], events, strict=True):
        if raw.get("entry") is not None and event.type not in TABLE_EVENTS:
            members[int(raw["entry"])].append(event)
    # Versions missing from the record only because they are the server's own seed events.
    unseen = {e.version - 1 for e in events if e.type == "SeedCommitted"}
    ledger = Ledger(campaign_id)
    hidden: str | None = None
    previous = 0
    for event in events:
        if hidden is None and any(v not in unseen for v in range(previous + 1, event.version)):
            hidden = "entries hidden from this viewer come before it; verify the GM's export"
        previous = event.version
        if event.type == "CommandIssued" and event.data.get("handled_by") == "system":
            if hidden is not None:
                result.rolls.append(_unverifiable(event, hidden))
            else:
                result.rolls.append(_check(ledger, event, members[event.version], revealed))
        if hidden is None:
            try:
                ledger.apply(event)
            except (RulesError, LookupError, TypeError, ValueError) as error:
                hidden = f"the state cannot be rebuilt from this record ({error}); verify the GM's export"
    return result


def _unverifiable(head: StoredEvent, reason: str) -> Check:
    command = head.data.get("command") or {}
    what = f"{command.get('do')}" + (f" ({head.actor})" if head.actor else "")
    return Check(
        head.version,
        what,
        str(head.data.get("dice", "none")),
        head.data.get("seed_number"),
        "unverifiable",
        reason,
    )


def _check(ledger: Ledger, head: StoredEvent, rest: list[StoredEvent], revealed: dict[int, bytes]) -> Check:
    command = dict(head.data["command"])
    dice = str(head.data.get("dice", "none"))
    number = head.data.get("seed_number")
    what = f"{command.get('do')}" + (f" ({head.actor})" if head.actor else "")
    row = (head.version, what, dice, number)
    if dice == "server":
        if number is None or int(number) not in revealed:
            return Check(*row, "pending", "its seed is not revealed yet")
        rng: Any = HmacRng(revealed[int(number)], ledger.campaign_id, head.version)
    else:
        rng = _NoServerDice()
    try:
        decided = ledger.system.decide(ledger.state, command, rng)
    except (RulesError, LookupError) as error:
        return Check(*row, "mismatch", f"replaying the command failed: {error}")
    expected = _canonical([(e.type, dict(e.data), e.visibility) for e in decided])
    recorded = _canonical([(e.type, dict(e.data), e.visibility) for e in rest])
    if expected != recorded:
        return Check(*row, "mismatch", "the recorded events differ from the events the dice give")
    return Check(*row, "verified")
