"""The session record as a viewer may see it: JSON (for ``talespin verify``, archives) and a Markdown recap.

The JSON export holds the campaign's facts, every event the viewer may see (with versions, the entry each
belongs to and its place in the viewer's hash chain: ``prev`` and ``head``), the state as the viewer sees
it, and the seeds; ``chain`` names the hash and the head of the whole record. The GM's export is the full
record that ``talespin verify`` re-derives every server roll from; a player's export omits what a player
may not see.
"""

from __future__ import annotations

from typing import Any, Final

from .auth import Viewer
from .chain import CHAIN_ALGORITHM
from .ledger import Ledger
from .recap import recap_markdown
from .views import events_after, head, state_json, version_for

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
        "version": version_for(ledger, viewer),
        "chain": {"algorithm": CHAIN_ALGORITHM, "head": head(ledger, viewer)},
        "events": events_after(ledger, viewer, 0),
        "state": state_json(ledger, viewer),
    }


def export_markdown(ledger: Ledger, viewer: Viewer) -> str:
    """The record as ``viewer`` may see it, as a readable session recap in Markdown (see :mod:`.recap`)."""
    return recap_markdown(export_json(ledger, viewer))
