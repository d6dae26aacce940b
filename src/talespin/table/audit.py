"""The record's own consistency: its hash chain, its versions and its seed commitments.

These checks need no replay of the rules. :func:`check_chain` recomputes every head (:mod:`.chain`);
:func:`check_versions` finds versions missing from a GM's record (only a seed's own ``SeedDrawn`` or a
blind roll's ``BlindSeedDrawn`` may be absent: it never leaves the server); :func:`check_commitments` finds
a seed committed after a roll it covers, a seed replaced by a new commitment without being revealed (a
deleted reveal), and a reveal or a roll naming a seed never committed. Each returns :class:`Check` rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .chain import GENESIS, link
from .talk import WHISPER

__all__ = ["Check", "check_chain", "check_commitments", "check_versions"]

Raw = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Check:
    """The verdict on one part of a record: a roll, a seed, the chain, a receipt.

    ``verified``; ``mismatch``; ``pending`` (its seed is not revealed yet); ``unverifiable`` (the record
    lacks what the check needs, e.g. a player's export lacks the hidden entries a state depends on).
    """

    version: int
    what: str
    dice: str
    seed_number: int | None
    status: str
    detail: str = ""


def _row(version: int, what: str, status: str, detail: str = "") -> Check:
    return Check(version, what, "-", None, status, detail)


def check_chain(events: Sequence[Raw], chain: Any) -> list[Check]:
    """Every event's ``prev`` is the head before it and its ``head`` the hash of its content."""
    events = [event for event in events if event.get("visibility") != WHISPER]  # whispers are in no chain
    if not events:
        return [_row(0, "hash chain", "unverifiable", "the record holds no events")]
    if any("head" not in event or "prev" not in event for event in events):
        return [_row(0, "hash chain", "unverifiable", "this export carries no hash chain (an older format)")]
    tip = GENESIS
    for event in events:
        version = int(event["version"])
        if event["prev"] != tip:
            return [
                _row(
                    version,
                    "hash chain",
                    "mismatch",
                    "its prev is not the head before it: events were removed, added or moved here",
                )
            ]
        if link(tip, event) != event["head"]:
            return [
                _row(
                    version,
                    "hash chain",
                    "mismatch",
                    "its head is not the hash of its content: the event was changed",
                )
            ]
        tip = str(event["head"])
    named = chain.get("head") if isinstance(chain, Mapping) else None
    if named != tip:
        return [
            _row(
                int(events[-1]["version"]),
                "hash chain",
                "mismatch",
                "the export's chain head is not the head of its last event",
            )
        ]
    return [_row(int(events[-1]["version"]), "hash chain", "verified", f"{len(events)} events linked")]


def check_versions(events: Sequence[Raw], full: bool) -> list[Check]:
    """Versions only grow; in a GM's (``full``) record, only a seed's ``SeedDrawn`` may be missing."""
    seed_drawn = {int(e["version"]) - 1 for e in events if e["type"] == "SeedCommitted"}
    seed_drawn |= {  # a blind roll's seed, kept by the server until the reveal
        int(e["version"]) + 1
        for e in events
        if e["type"] == "CommandIssued" and (e.get("data") or {}).get("blind")
    }
    previous = 0
    for event in events:
        version = int(event["version"])
        if version <= previous:
            return [_row(version, "versions", "mismatch", f"version {version} follows {previous}")]
        missing = [v for v in range(previous + 1, version) if v not in seed_drawn]
        if full and missing:
            return [
                _row(
                    missing[0],
                    "versions",
                    "mismatch",
                    f"version {missing[0]} is missing from the GM's record (a deleted entry?)",
                )
            ]
        previous = version
    return [_row(previous, "versions", "verified", "no entry is missing" if full else "in order")]


def check_commitments(events: Sequence[Raw]) -> list[Check]:
    """Each seed committed once, before every roll it covers, and revealed before the next commitment."""
    committed: set[int] = set()
    revealed: set[int] = set()
    problems: list[Check] = []
    for event in events:
        version, data = int(event["version"]), event.get("data") or {}
        if event["type"] == "SeedCommitted":
            number = int(data["number"])
            hidden = sorted(committed - revealed)
            if number in committed:
                problems.append(_row(version, f"seed #{number}", "mismatch", "committed twice"))
            elif hidden:
                problems.append(
                    _row(
                        version,
                        f"seed #{hidden[0]}",
                        "mismatch",
                        f"seed #{number} was committed "
                        f"before seed #{hidden[0]} was revealed: its reveal is missing",
                    )
                )
            committed.add(number)
        elif event["type"] == "SeedRevealed":
            number = int(data["number"])
            if number not in committed:
                problems.append(_row(version, f"seed #{number}", "mismatch", "revealed but never committed"))
            revealed.add(number)
        elif event["type"] == "CommandIssued" and data.get("seed_number") is not None:
            number = int(data["seed_number"])
            if number not in committed or number in revealed:
                when = "already revealed" if number in revealed else "not committed before it"
                problems.append(_row(version, f"seed #{number}", "mismatch", f"a roll uses a seed {when}"))
    return problems
