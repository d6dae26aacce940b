"""A long Ascend campaign written straight into a SQLite file: thousands of entries in a second or two.

One note is played through the table service; its stored events (the command line and the note) are the
pattern every further note copies, appended a thousand events per transaction through the store itself,
so the log holds exactly what the service writes without thousands of commands. The newest entries are
played through the service again: two Tests of the hero, then a last note. Used by the browser test of
the paged log and by the page-ready benchmark.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from talespin.store import NewEvent, open_store
from talespin.table import TableService, Viewer

__all__ = ["HERO", "LAST_NOTE", "LongCampaign", "build", "note_text"]

GM = Viewer("gm")
HERO = {
    "name": "Susan",
    "skills": {"Athletics": 3},
    "convictions": {"Protect the weak": 4},
    "traits": {"Agility": 3, "Strength": 2},
    "backgrounds": {"Sailor": 2},
    "aids": {"Rope": 1},
}
LAST_NOTE = "The last word of a long campaign"
BATCH = 1000


def note_text(number: int) -> str:
    """The text of the campaign's note ``number`` (1, 2, …): each says where it stands."""
    return f"Note {number} of the long campaign"


def _renamed(value: Any, old: str, new: str) -> Any:
    """``value`` with every string equal to ``old`` replaced by ``new`` (in nested mappings and lists)."""
    if value == old:
        return new
    if isinstance(value, dict):
        return {key: _renamed(item, old, new) for key, item in value.items()}
    if isinstance(value, list):
        return [_renamed(item, old, new) for item in value]
    return value


@dataclass(frozen=True)
class LongCampaign:
    """What a page needs to open the campaign, and what its log ends with."""

    id: str
    gm_token: str
    version: int
    notes: int
    first_note_version: int
    """The version of the first note's command line (each note is two events from there on)."""

    @property
    def gm_link(self) -> str:
        return f"/table.html#campaign={self.id}&token={self.gm_token}"


def build(db: Path, events: int = 10_000) -> LongCampaign:
    """A campaign of about ``events`` events in the SQLite file ``db``."""
    store = open_store(f"sqlite:///{db}")
    try:
        service = TableService(store)
        made = service.create_campaign("A long campaign", "ascend")
        service.command(made.id, GM, {"do": "add_character", "sheet": HERO}, service.ledger(made.id).version)
        start = service.ledger(made.id).version
        service.command(made.id, GM, {"do": "note", "text": note_text(1)}, start)
        pattern = store.events(made.id, after=start)
        version, notes = service.ledger(made.id).version, 1
        while version < events - 2 * len(pattern):
            batch: list[NewEvent] = []
            while len(batch) < BATCH and version + len(batch) < events - 2 * len(pattern):
                notes += 1
                batch += [
                    NewEvent(e.type, _renamed(e.data, note_text(1), note_text(notes)), e.visibility, e.actor)
                    for e in pattern
                ]
            version = store.append(made.id, version, batch, pattern[0].at)[-1].version
        service.refresh(made.id)
        for _ in range(2):
            test = {"do": "test", "hero": "Susan", "skill": "Athletics", "trait": "Agility"}
            service.command(made.id, GM, test, service.ledger(made.id).version)
        service.command(made.id, GM, {"do": "note", "text": LAST_NOTE}, service.ledger(made.id).version)
        return LongCampaign(made.id, made.gm_token, service.ledger(made.id).version, notes, start + 1)
    finally:
        store.close()
