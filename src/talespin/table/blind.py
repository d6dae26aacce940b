"""Blind rolls: the GM rolls behind the screen, with a seed of its own, and reveals the roll when it chooses.

A command the rule system decides with dice and that carries ``"visibility": "gm"`` is a *blind roll*. The
table draws a fresh secret seed for it (never the scene's: revealing a scene's seed at its end reveals no
blind roll of it) and derives its server dice from that seed and the command's nonce with
:class:`~.fairness.HmacRng`. The entry records ``"blind": {"number", "commitment"}`` in its
``CommandIssued`` and the seed in a ``BlindSeedDrawn`` the server keeps to itself; players receive only a
``BlindRollMade`` with the same commitment (:mod:`.release`).

``{"do": "reveal", "entry": n}`` (GM only; ``n`` is the blind roll's entry) records ``BlindRollRevealed``
with the seed: from then on every player receives the roll and what it caused, and anyone holding the
record can check that the seed matches the commitment made with the roll and re-derive its dice. A blind
roll the GM undid before revealing it can no longer be revealed (``blind_undone``): what it caused never
happened, and its dice stay secret. The
command is recorded as ``{"do": "reveal", "blind": k}``, naming the roll by its number, which players know.
With ``{"do": "set_blind_reveal", "at": "scene_end"}`` (GM only; ``"gm"`` again to stop) every
``end_scene`` also reveals the blind rolls still held.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..store.port import NewEvent
from ..systems import IllegalCommand, MalformedCommand
from .fairness import HmacRng, commitment
from .ledger import BlindSeed, Ledger
from .placeholders import BLIND_REVEALED, BLIND_SEED

__all__ = ["BlindRng", "blind_facts", "reveal_at_scene_end", "reveal_events"]


class BlindRng:
    """The dice of a command sent with ``"visibility": "gm"``: a fresh seed, drawn only if dice are rolled.

    A GM-only command that rolls nothing (a hidden Trigger, a GM-only note) draws no seed, so whether one
    was sent changes nothing that follows it.
    """

    def __init__(self, draw_seed: Callable[[], bytes], campaign_id: str, version: int, nonce: str) -> None:
        self._draw, self._args = draw_seed, (campaign_id, version, nonce)
        self._seed: bytes | None = None
        self._rng: HmacRng | None = None

    @property
    def used(self) -> bool:
        """True once any number has been drawn."""
        return self._rng is not None and self._rng.used

    def randrange(self, stop: int, /) -> int:
        """A uniformly random integer in ``0 .. stop-1`` from the blind roll's own seed."""
        if self._rng is None:
            self._seed = self._draw()
            self._rng = HmacRng(self._seed, *self._args)
        return self._rng.randrange(stop)

    def seed(self, physical: bool) -> bytes | None:
        """The blind roll's seed: the one its dice came from, a fresh one for physical dice, else ``None``."""
        if self._seed is None and physical:
            self._seed = self._draw()
        return self._seed


def blind_facts(ledger: Ledger, seed: bytes) -> tuple[dict[str, Any], NewEvent]:
    """The ``blind`` of a new blind roll's ``CommandIssued`` and the server's record of its seed."""
    number = max(ledger.blind, default=0) + 1
    facts = {"number": number, "commitment": commitment(seed)}
    return facts, NewEvent(BLIND_SEED, {"blind": number, "seed": seed.hex()}, "server")


def reveal_events(
    ledger: Ledger, command: Mapping[str, Any], issued: Callable[[Mapping[str, Any]], NewEvent]
) -> list[NewEvent]:
    """The events of ``{"do": "reveal", "entry": n}``: the command (naming the roll's number) and its seed."""
    entry = command.get("entry")
    if set(command) - {"do", "entry"} or isinstance(entry, bool) or not isinstance(entry, int):
        raise MalformedCommand(
            'reveal takes entry: the version of a blind roll\'s entry, e.g. {"do": "reveal", "entry": 12}',
            path="entry",
        )
    found = ledger.blind_of(entry)
    if found is None:
        raise IllegalCommand(f"entry {entry} is not a blind roll", code="not_blind")
    if found.revealed:
        raise IllegalCommand(f"the blind roll of entry {entry} is revealed already", code="revealed")
    undone = ledger.entry(entry)
    if undone is not None and undone.undone:
        raise IllegalCommand(
            f"the blind roll of entry {entry} was undone before its reveal: its dice stay secret",
            code="blind_undone",
        )
    if found.seed is None:
        raise IllegalCommand(f"the seed of the blind roll of entry {entry} is not known here", code="no_seed")
    return [issued({"do": "reveal", "blind": found.number}), _revealed(found, entry)]


def _revealed(found: BlindSeed, entry: int) -> NewEvent:
    assert found.seed is not None
    data = {"blind": found.number, "entry": entry, "seed": found.seed.hex(), "commitment": found.sha256}
    return NewEvent(BLIND_REVEALED, data)


def reveal_at_scene_end(ledger: Ledger) -> list[NewEvent]:
    """The reveals an ending scene brings when the campaign reveals blind rolls at scene end (else none)."""
    if ledger.blind_reveal != "scene_end":
        return []
    held = (ledger.blind_of(entry) for entry in ledger.release.held_blind)
    return [_revealed(found, found.entry) for found in held if found is not None and found.seed is not None]
