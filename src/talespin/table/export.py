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
from .pages import page_of
from .recap import recap_markdown
from .views import events_after, head, state_json, version_for

__all__ = ["EXPORT_FORMAT", "export_json", "export_markdown"]

EXPORT_FORMAT: Final = "talespin-export/1"
"""Names the shape of a JSON export, so readers can refuse one they do not know."""


def export_json(
    ledger: Ledger, viewer: Viewer, *, after: int = 0, limit: int | None = None
) -> dict[str, Any]:
    """The record as ``viewer`` may see it: the whole of it, or one page (:mod:`.pages`).

    ``after``, ``limit`` and ``next`` say which page this is; ``next`` is ``null`` on the last page, and the
    version, chain head and state are always the campaign's now.
    """
    if limit is None and after == 0:
        events, following = events_after(ledger, viewer, 0), None
    else:
        events, following = page_of(ledger, viewer, after, limit or ledger.version or 1)
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
        "events": events,
        "state": state_json(ledger, viewer),
        "after": after,
        "limit": limit,
        "next": following,
    }


def export_markdown(ledger: Ledger, viewer: Viewer, *, after: int = 0, limit: int | None = None) -> str:
    """The record as ``viewer`` may see it, as a readable session recap in Markdown (see :mod:`.recap`).

    A page (``after``, ``limit``) recaps its own events and says, under its title, where the next starts.
    """
    record = export_json(ledger, viewer, after=after, limit=limit)
    text = recap_markdown(record)
    if not after and record["next"] is None:
        return text
    following = record["next"]
    where = f"> This page recaps the versions after {after}" + (
        f" up to {following}; the next page is `?after={following}`." if following else " to the end."
    )
    title, _, rest = text.partition("\n")
    return f"{title}\n\n{where}\n{rest}"
