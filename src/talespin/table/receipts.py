"""Receipts: the chain heads a client was shown, checked against an export.

A receipt is ``{"format": "talespin-receipt/1", "campaign": id, "role": "gm" | "player", "heads":
[{"version": n, "head": "…"}, …]}``: the browser keeps every head it receives for a campaign and offers the
file for download. Because each head pins the whole record before it (:mod:`.chain`), a head that is not on
an export's chain proves the export is not the record the client was shown: a re-forged scene, a roll
rewritten, an entry deleted or an author changed, however consistent the forger made the rest.

A players' receipt is checked against a player's export directly, or against the GM's export by computing
what each player was shown from it (the same :func:`~.views.visible_events` the server uses).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..store.port import StoredEvent
from .audit import Check
from .auth import Viewer
from .chain import GENESIS
from .ledger import Ledger
from .upcast import SCHEMA_KEY, upcast
from .views import visible_events

__all__ = ["RECEIPT_FORMAT", "check_receipt", "stored_event"]

RECEIPT_FORMAT: Final = "talespin-receipt/1"
"""Names the shape of a receipt file."""


def stored_event(campaign_id: str, raw: Mapping[str, Any]) -> StoredEvent:
    """An exported event as the store held it, read at today's event schema (:mod:`.upcast`)."""
    raw = upcast(raw)
    return StoredEvent(
        campaign_id,
        int(raw["version"]),
        str(raw["type"]),
        dict(raw.get("data") or {}),
        str(raw.get("visibility", "public")),
        raw.get("actor"),
        str(raw.get("at", "")),
        int(raw[SCHEMA_KEY]),
    )


def _players_heads(record: Mapping[str, Any]) -> dict[str, int]:
    campaign_id = str(record["campaign"]["id"])
    ledger = Ledger.replay(campaign_id, (stored_event(campaign_id, raw) for raw in record["events"]))
    joined = [str(e.data["player_id"]) for e in ledger.log if e.type == "PlayerJoined"]
    heads: dict[str, int] = {}
    for player_id in [None, *joined]:  # each player numbers its own events (its whispers count for it)
        shown = visible_events(ledger, Viewer("player", player_id), ledger.log)
        heads.update({str(event["head"]): int(event["version"]) for event in shown if "head" in event})
    return heads


def _heads(record: Mapping[str, Any], role: str) -> dict[str, int] | str:
    viewer = record.get("viewer")
    if viewer == role:
        return {str(e.get("head")): int(e["version"]) for e in record["events"]}
    if viewer == "gm" and role == "player":
        try:
            return _players_heads(record)
        except (LookupError, TypeError, ValueError) as error:
            return f"what players were shown cannot be rebuilt from this export ({error})"
    return "a GM's receipt can be checked only against the GM's export"


def check_receipt(record: Mapping[str, Any], receipt: Any, name: str) -> Check:
    """Whether every head ``receipt`` holds lies on the export's chain (ValueError if it is no receipt)."""
    if not isinstance(receipt, Mapping) or receipt.get("format") != RECEIPT_FORMAT:
        raise ValueError(f"{name} is not a receipt (expected format {RECEIPT_FORMAT!r})")
    role, kept = receipt.get("role"), receipt.get("heads")
    if role not in {"gm", "player"} or not isinstance(kept, list):
        raise ValueError(f"{name} is not a receipt: it needs a role (gm or player) and a list of heads")
    what = f"receipt {name} ({role})"
    last = max((int(e["version"]) for e in record["events"]), default=0)
    if receipt.get("campaign") != record["campaign"]["id"]:
        return Check(0, what, "-", None, "mismatch", "the receipt is of another campaign")
    heads = _heads(record, str(role))
    if isinstance(heads, str):
        return Check(0, what, "-", None, "unverifiable", heads)
    later = 0
    for item in kept:
        head = item.get("head") if isinstance(item, Mapping) else item
        version = item.get("version") if isinstance(item, Mapping) else None
        if head == GENESIS or head in heads:
            continue
        if isinstance(version, int) and version > last:
            later += 1
            continue
        return Check(
            version if isinstance(version, int) else 0,
            what,
            "-",
            None,
            "mismatch",
            f"the client was shown head {str(head)[:16]}… which is not on this export's chain: the record "
            "was changed after the client saw it",
        )
    if later:
        return Check(
            last, what, "-", None, "unverifiable", f"{later} head(s) come after the end of this export"
        )
    return Check(last, what, "-", None, "verified", f"{len(kept)} head(s) on the chain")
