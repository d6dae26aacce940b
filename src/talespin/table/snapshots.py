"""Snapshots: a campaign's folded ledger kept in the store, so a restart replays only the events after it.

A snapshot is the ledger at a version *v* without its log: the game state, the entries, owners, seeds,
notes, nonces, the GM's hash-chain tip, what players were released (:mod:`.release`; each player's numbered
stream is rebuilt from it when first read), and the problems met while folding. Restoring one gives a
ledger whose log starts after *v* (:class:`.log.Log` reads the older events from the store only if they are
asked for); the events after *v* are then folded as usual.

The bytes are zlib-compressed JSON of plain data only (:mod:`.snapshot_data`, :mod:`.state_data`): reading
one builds nothing its bytes name, so whoever can write the database cannot make the server run code by
writing a snapshot. The JSON object begins with a header::

    {"format": 2, "campaign": "<id>", "version": v,
     "chain": {"version": a, "prev": "<hex>", "head": "<hex>"}, ...the body...}

``chain`` pins the snapshot to the log it folded: ``a`` is the newest event up to *v* on the GM's hash chain
(:mod:`.chain`; *v* itself unless the newest events are the server's own or whispers), with its ``prev`` and
``head``. A snapshot is used only if all of these hold, else it is ignored (and logged) and the campaign is
replayed from its events, which gives the same ledger, only slower:

* its format is :data:`FORMAT` (a snapshot of an older or newer format, the pickled ones of earlier
  versions included, is not read at all);
* it parses into the shapes :mod:`.snapshot_data` expects, every value checked (it is untrusted input);
* the store holds event ``a``, and that event, as the GM receives it, links ``prev`` to ``head``, which is
  the GM chain's tip the snapshot restores; the events after ``a`` up to *v* are on no chain.

A snapshot is also only as good as the code that made it: a changed rule, event handler or state class must
not meet a snapshot of the old code. So every snapshot is saved under the :func:`fingerprint` of the code
that folds events (the rule systems and their rules data, the dice, the table), and the service asks the
store only for snapshots of its own fingerprint. Events never change once written, so every process running
the same code folds the same ledger at *v* and writes the same bytes: several processes sharing one
PostgreSQL may each save the snapshot of the same version.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import json
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from .auth import Viewer
from .chain import GENESIS, Heads, link
from .ledger import Ledger
from .log import Log, Reader
from .salvage import Problem
from .snapshot_data import SnapshotError, ledger_data, ledger_from_data
from .talk import WHISPER
from .views import chain, event_json, visible_events

__all__ = [
    "FORMAT",
    "MAX_SNAPSHOT_BYTES",
    "SNAPSHOT_EVERY",
    "SnapshotError",
    "code_fingerprint",
    "dump",
    "fingerprint",
    "restore",
]

SNAPSHOT_EVERY: Final = 512
"""How many events apart the service saves a campaign's snapshot to the store."""
FORMAT: Final = 2
"""The snapshot format this code writes and reads (1 was the ledger pickled: never read)."""
MAX_SNAPSHOT_BYTES: Final = 1 << 30
"""The most JSON a snapshot may unpack to; a larger one is ignored rather than filling the memory."""

_PACKAGE = Path(__file__).resolve().parent.parent
_FOLDING_CODE: Final = ("dice", "systems", "table")
"""The subpackages whose code and data decide what a fold of events gives."""
_GM: Final = Viewer("gm")


@functools.cache
def fingerprint() -> str:
    """The fingerprint of the installed code that folds events (:func:`code_fingerprint` of this package).

    >>> len(fingerprint()), fingerprint() == fingerprint()
    (64, True)
    """
    return code_fingerprint(_PACKAGE)


def code_fingerprint(package: Path) -> str:
    """SHA-256 over the snapshot format and every source and data file of ``package``'s folding code."""
    digest = hashlib.sha256(f"talespin-snapshot-{FORMAT}\n".encode())
    for part in _FOLDING_CODE:
        for path in sorted((package / part).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".pyc", ".pyo"}:
                digest.update(path.relative_to(package).as_posix().encode() + b"\0")
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def dump(ledger: Ledger, problems: list[Problem]) -> bytes:
    """The snapshot bytes of ``ledger`` as it stands (and the problems met folding it).

    The GM's hash chain is linked up to the newest event first, so a restored ledger need not read the log
    to extend it. Raises ``ValueError`` for a ledger holding a value plain data cannot (nothing is saved).
    """
    heads = chain(ledger, _GM)
    header = {
        "format": FORMAT,
        "campaign": ledger.campaign_id,
        "version": ledger.version,
        "chain": _anchor(ledger, heads),
    }
    text = json.dumps({**header, **ledger_data(ledger, problems)}, separators=(",", ":"), allow_nan=False)
    return zlib.compress(text.encode("ascii"), 1)


def _anchor(ledger: Ledger, heads: Heads) -> dict[str, Any]:
    """The newest event on the GM's chain, with its ``prev`` and ``head`` (version 0: none yet)."""
    if not heads.head and heads.known_from:
        visible_events(ledger, _GM, ledger.log[:1])  # a restored chain with no newest link: link it all
    if not heads.head:
        return {"version": 0, "prev": GENESIS, "head": GENESIS}
    version = max(heads.head)
    return {"version": version, "prev": heads.prev[version], "head": heads.head[version]}


def _parsed(data: bytes) -> dict[str, Any]:
    """The JSON object of snapshot bytes (never anything but plain data)."""
    try:
        unpacker = zlib.decompressobj()
        text = unpacker.decompress(data, MAX_SNAPSHOT_BYTES)
        if unpacker.unconsumed_tail:
            raise SnapshotError(f"the snapshot unpacks to more than {MAX_SNAPSHOT_BYTES} bytes")
        if not unpacker.eof:
            raise SnapshotError("the snapshot's compressed bytes are cut short")
        body = json.loads(text)
    except SnapshotError:
        raise
    except (zlib.error, ValueError, RecursionError) as error:
        raise SnapshotError(f"not a snapshot: not zlib-compressed JSON ({type(error).__name__})") from None
    if type(body) is not dict:
        raise SnapshotError("not a snapshot: its JSON is not an object")
    return body


@contextmanager
def _no_collection() -> Iterator[None]:
    """Hold the cyclic garbage collector while a snapshot's objects are built.

    A long campaign's snapshot makes hundreds of thousands of lists, objects and events, none in a cycle;
    with the collector on, each few hundred of them sets off a pass over everything already made, which
    more than doubles the time a restart takes.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def restore(data: bytes, reader: Reader) -> tuple[Ledger, list[Problem]]:
    """The ledger and problems of a snapshot; its log reads the events up to it through ``reader``.

    Raises :class:`SnapshotError` (a ``ValueError``) for bytes that are not a usable snapshot of this format:
    unreadable, of another format, of the wrong shapes, or of another log than the store's (its hash chain);
    the caller replays instead.
    """
    with _no_collection():
        return _restore(data, reader)


def _restore(data: bytes, reader: Reader) -> tuple[Ledger, list[Problem]]:
    body = _parsed(data)
    if body.get("format") != FORMAT:
        found = str(body.get("format"))[:20]
        raise SnapshotError(f"format {found!r} is not the one this code reads ({FORMAT})")
    try:
        campaign_id, version = body.get("campaign"), body.get("version")
        if type(campaign_id) is not str or type(version) is not int or version < 1:
            raise SnapshotError("campaign must be a text and version a whole number from 1")
        ledger, problems = ledger_from_data(body, campaign_id, version)
        ledger.log = Log(version, reader)
        ledger.checkpoints = [(version, ledger.state)]
        _check_chain(ledger, body.get("chain"), reader)
    except SnapshotError:
        raise
    except Exception as error:  # well-shaped data that still does not make a ledger
        raise SnapshotError(f"not a usable snapshot ({type(error).__name__})") from None
    return ledger, problems


def _check_chain(ledger: Ledger, anchor: Any, reader: Reader) -> None:
    """Check the store holds the log the snapshot folded: its GM chain's newest event links as recorded."""
    if type(anchor) is not dict:
        raise SnapshotError("chain must be an object")
    version, prev, head = anchor.get("version"), anchor.get("prev"), anchor.get("head")
    if type(version) is not int or not 0 <= version <= ledger.version:
        raise SnapshotError("chain.version must be a version of the snapshot's log")
    if type(prev) is not str or type(head) is not str:
        raise SnapshotError("chain.prev and chain.head must be texts")
    heads = ledger.chains.get("gm")
    if heads is None or heads.seen != ledger.version or heads.tip != head:
        raise SnapshotError("chain.head must be the tip of the GM's chain the snapshot restores")
    if version in heads.head and (heads.prev[version], heads.head[version]) != (prev, head):
        raise SnapshotError("chain must agree with the GM chain's links the snapshot restores")
    first = max(version, 1)
    stored = reader(first - 1, ledger.version)
    if [event.version for event in stored] != list(range(first, ledger.version + 1)):
        raise SnapshotError(f"the store does not hold events {first}..{ledger.version} of the snapshot")
    for event in stored:
        shown = event_json(ledger, _GM, event)
        chained = shown is not None and shown["visibility"] != WHISPER
        linked = chained and shown is not None and link(prev, shown) == head
        if (event.version == version and not linked) or (event.version != version and chained):
            raise SnapshotError(
                f"the stored event {event.version} is not the one the snapshot folded (another hash chain)"
            )
