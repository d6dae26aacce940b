"""The session record as a viewer may see it: JSON (for ``talespin verify`` and archives) and Markdown.

The JSON export holds the campaign's facts, every event the viewer may see (with versions, the entry each
belongs to and its place in the viewer's hash chain: ``prev`` and ``head``), the state as the viewer sees
it, and the seeds; ``chain`` names the hash and the head of the whole record. The GM's export is the full
record that ``talespin verify`` re-derives every server roll from; a player's export omits what a player
may not see.
"""

from __future__ import annotations

import json
from typing import Any, Final

from .auth import Viewer
from .chain import CHAIN_ALGORITHM
from .ledger import Ledger
from .views import head, state_json, visible_events

__all__ = ["EXPORT_FORMAT", "export_json", "export_markdown"]

EXPORT_FORMAT: Final = "talespin-export/1"
"""Names the shape of a JSON export, so readers can refuse one they do not know."""


def export_json(ledger: Ledger, viewer: Viewer) -> dict[str, Any]:
    """The whole record as ``viewer`` may see it."""
    return {
        "format": EXPORT_FORMAT,
        "campaign": {
            "id": ledger.campaign_id,
            "name": ledger.name,
            "system": ledger.system_name,
            "variant": dict(ledger.variant),
        },
        "viewer": "gm" if viewer.is_gm else "player",
        "version": ledger.version,
        "chain": {"algorithm": CHAIN_ALGORITHM, "head": head(ledger, viewer)},
        "events": visible_events(ledger, viewer, ledger.log),
        "state": state_json(ledger, viewer),
    }


def _describe(event: dict[str, Any]) -> str:
    data = event["data"]
    kind = event["type"]
    if kind == "CommandIssued":
        dice = data.get("dice")
        how = f" ({dice} dice)" if dice in {"server", "physical"} else ""
        return f"**{data.get('by')}**: `{json.dumps(data.get('command'), ensure_ascii=False)}`{how}"
    if kind == "NoteAdded":
        return f"note by {data.get('by')}: {data.get('text')}"
    if kind == "SeedCommitted":
        return f"seed #{data.get('number')} committed: sha256 `{data.get('commitment')}`"
    if kind == "SeedRevealed":
        return f"seed #{data.get('number')} revealed: `{data.get('seed')}`"
    if kind == "EntryUndone":
        return f"undid entry {data.get('entry')} ({data.get('do')})"
    details = ", ".join(f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in data.items())
    return f"{kind}" + (f" — {details}" if details else "")


def export_markdown(ledger: Ledger, viewer: Viewer) -> str:
    """The record as a readable Markdown document: one line per event, undone entries struck through."""
    record = export_json(ledger, viewer)
    undone = {e["data"]["entry"] for e in record["events"] if e["type"] == "EntryUndone"}
    campaign = record["campaign"]
    lines = [
        f"# {campaign['name']}",
        "",
        f"- system: {campaign['system']}",
        f"- campaign id: {campaign['id']}",
        f"- version: {record['version']}",
        f"- record as seen by: {record['viewer']}",
        f"- chain head: `{record['chain']['head']}`",
        "",
        "## Log",
        "",
    ]
    for event in record["events"]:
        text = _describe(event)
        hidden = " *(GM only)*" if event["visibility"] == "gm" else ""
        if event.get("entry") in undone:
            text = f"~~{text}~~ *(undone)*"
        indent = "" if event["type"] in {"CommandIssued", "CampaignCreated", "PlayerJoined"} else "  "
        lines.append(f"{indent}- v{event['version']} {text}{hidden}")
    state = record["state"]
    if state["notes"]:
        lines += ["", "## Notes", ""]
        lines += [
            f"- {n['text']}" + (" *(GM only)*" if n["visibility"] == "gm" else "") for n in state["notes"]
        ]
    lines += [
        "",
        "## State",
        "",
        "```json",
        json.dumps(state["state"], indent=2, ensure_ascii=False),
        "```",
        "",
    ]
    return "\n".join(lines)
