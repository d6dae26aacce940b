"""The names of the events that keep a blind roll's secret: its stand-ins, its seed and its reveal.

* ``BlindSeedDrawn`` ``{"blind", "seed"}`` (server only): the blind roll's own secret seed, drawn fresh for
  it, so revealing a scene's seed reveals nothing of its blind rolls.
* ``BlindRollMade`` ``{"blind", "by", "actor", "commitment"}``: what players receive for a blind roll until
  it is revealed — who rolled, for which character, and the SHA-256 of its seed.
* ``EntryWithheld`` ``{"by", "do", "actor"}``: what players receive for a later command while a blind roll
  is still held (its outcome might depend on the blind roll's).
* ``BlindRollRevealed`` ``{"blind", "entry", "seed", "commitment"}``: the GM's ``reveal``; players then
  receive the roll's own events and every entry held after it. For players ``entry`` is dropped (it is the
  GM's numbering).
"""

from __future__ import annotations

from typing import Final

__all__ = ["BLIND_EVENTS", "BLIND_MADE", "BLIND_REVEALED", "BLIND_SEED", "STAND_INS", "WITHHELD"]

BLIND_SEED: Final = "BlindSeedDrawn"
BLIND_MADE: Final = "BlindRollMade"
WITHHELD: Final = "EntryWithheld"
BLIND_REVEALED: Final = "BlindRollRevealed"
STAND_INS: Final = frozenset({BLIND_MADE, WITHHELD})
"""Events only players receive, standing in for a held entry; they belong to no entry."""
BLIND_EVENTS: Final = frozenset({BLIND_SEED, BLIND_REVEALED, *STAND_INS})
"""Every table event of blind rolls."""
