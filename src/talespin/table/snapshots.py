"""Snapshots: a campaign's folded ledger kept in the store, so a restart replays only the events after it.

A snapshot is the ledger at a version *v* without its log: the game state, the entries, owners, seeds,
notes, nonces, the GM's hash-chain tip, what players were released (:mod:`.release`; each player's numbered
stream is rebuilt from it when first read), and the problems met while folding. Restoring one gives a
ledger whose log starts after *v* (:class:`.log.Log` reads the older events from the store only if they are
asked for); the events after *v* are then folded as usual.

The bytes are the ledger's fields pickled and compressed. They are only as good as the code that made
them: a changed rule, event handler or state class must not meet a snapshot of the old code. So every
snapshot carries the :func:`fingerprint` of the code that folds events (the rule systems and their rules
data, the dice, the table), and the service asks the store only for snapshots of its own fingerprint; any
other is ignored and the log is replayed. Events never change once written, so every process running the
same code folds the same ledger at *v*: several processes sharing one PostgreSQL may each save the
snapshot of the same version, and whichever row is kept is the same snapshot. The store is trusted like
the code itself (it is the one place the table's records live), which is what unpickling needs.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import zlib
from dataclasses import fields
from pathlib import Path
from typing import Any, Final

from .auth import Viewer
from .chain import Heads
from .ledger import Entry, Ledger, Note
from .log import Log, Reader
from .pages import MAX_EVENTS_PAGE
from .salvage import Problem
from .views import chain

__all__ = ["SNAPSHOT_EVERY", "code_fingerprint", "dump", "fingerprint", "restore"]

SNAPSHOT_EVERY: Final = 512
"""How many events apart the service saves a campaign's snapshot to the store."""

_PACKAGE = Path(__file__).resolve().parent.parent
_FOLDING_CODE: Final = ("dice", "systems", "table")
"""The subpackages whose code and data decide what a fold of events gives."""
_LEFT_OUT: Final = frozenset({"log", "chains", "checkpoints", "_system", "streams"})
"""Ledger fields a snapshot does not pickle: rebuilt on restore (or read from the store when needed)."""
_FORMAT: Final = 1


@functools.cache
def fingerprint() -> str:
    """The fingerprint of the installed code that folds events (:func:`code_fingerprint` of this package).

    >>> len(fingerprint()), fingerprint() == fingerprint()
    (64, True)
    """
    return code_fingerprint(_PACKAGE)


def code_fingerprint(package: Path) -> str:
    """SHA-256 over the snapshot format and every source and data file of ``package``'s folding code."""
    digest = hashlib.sha256(f"talespin-snapshot-{_FORMAT}\n".encode())
    for part in _FOLDING_CODE:
        for path in sorted((package / part).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".pyc", ".pyo"}:
                digest.update(path.relative_to(package).as_posix().encode() + b"\0")
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def dump(ledger: Ledger, problems: list[Problem]) -> bytes:
    """The snapshot bytes of ``ledger`` as it stands (and the problems met folding it).

    Both roles' hash chains are linked up to the newest event first, so a restored ledger need not read
    the log to extend them.
    """
    for viewer in (Viewer("gm"), Viewer("player")):
        chain(ledger, viewer)
    kept = {f.name: getattr(ledger, f.name) for f in fields(Ledger) if f.name not in _LEFT_OUT}
    # entries and notes as plain tuples: unpickling tens of thousands of dataclasses is several times slower
    kept["entries"] = [
        (e.version, e.command, e.by, e.handled_by, e.visibility, e.last, e.undone) for e in ledger.entries
    ]
    kept["_notes"] = [(n.entry, n.text, n.visibility, n.by) for n in kept["_notes"]]
    kept["_seatings"] = [f.version if isinstance(f, Entry) else f for f in kept["_seatings"]]
    chains = {role: (heads.seen, heads.tip, _newest_links(heads)) for role, heads in ledger.chains.items()}
    body = {"format": _FORMAT, "ledger": kept, "chains": chains, "problems": list(problems)}
    return zlib.compress(pickle.dumps(body, protocol=pickle.HIGHEST_PROTOCOL), 1)


def _newest_links(heads: Heads) -> tuple[int, dict[int, str], dict[int, str]]:
    """The version above which the snapshot keeps the chain's links, and ``prev``/``head`` of those versions.

    The newest :data:`~.pages.MAX_EVENTS_PAGE` versions: the page a client opens first after a restart is
    then served without linking the whole log again (older pages link it once, when first read).
    """
    after = max(heads.seen - MAX_EVENTS_PAGE, heads.linked_after if heads.known_from else 0)
    prev = {version: link for version, link in heads.prev.items() if version > after}
    head = {version: link for version, link in heads.head.items() if version > after}
    return after, prev, head


def _restored(seen: int, tip: str, links: tuple[int, dict[int, str], dict[int, str]]) -> Heads:
    after, prev, head = links
    return Heads(seen=seen, tip=tip, prev=prev, head=head, known_from=seen, known_tip=tip, linked_after=after)


def restore(data: bytes, reader: Reader) -> tuple[Ledger, list[Problem]]:
    """The ledger and problems of a snapshot; its log reads the events up to it through ``reader``.

    Raises ``ValueError`` for bytes that are not a snapshot of this format (the caller replays instead).
    """
    try:
        body: dict[str, Any] = pickle.loads(zlib.decompress(data))  # the store is trusted
    except Exception as error:
        raise ValueError(f"not a readable snapshot ({type(error).__name__})") from error
    if not isinstance(body, dict) or body.get("format") != _FORMAT:
        raise ValueError("not a snapshot of this format")
    kept = body["ledger"]
    entries = [Entry(*fields_) for fields_ in kept["entries"]]
    by_version = {entry.version: entry for entry in entries}
    kept["entries"] = entries
    kept["_notes"] = [Note(*fields_) for fields_ in kept["_notes"]]
    kept["_seatings"] = [by_version[f] if isinstance(f, int) else f for f in kept["_seatings"]]
    ledger = Ledger(**kept)
    ledger.log = Log(ledger.version, reader)
    ledger.chains = {role: _restored(*kept_chain) for role, kept_chain in body["chains"].items()}
    ledger.checkpoints = [(ledger.version, ledger.state)]
    return ledger, list(body["problems"])
