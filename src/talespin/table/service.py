"""The table service: campaigns, people and commands over a store, with an in-memory ledger per campaign.

It is the one place that ties the pure table (:mod:`.commands`, :mod:`.ledger`, :mod:`.views`) to a store
port. Each campaign's ledger is rebuilt from the log once (at start-up, or on first use) and then kept up to
date event by event, so a command costs one decision and one append, not a replay. Commands on one campaign
are serialised by a lock; across processes the store's unique ``(campaign, version)`` decides, and a loser
catches up from the store before reporting the conflict.

Several processes may serve one store, so the cached ledger is never trusted to be the newest:
- a read (state, events, export, odds, a WebSocket's backlog) first asks the store for the campaign's head
  version (:meth:`TableService.refresh`, one index lookup) and catches up when the cache is behind;
- a decision (a command's validation, a join's invite, a player's ownership) is made on the cached ledger at
  version *v* and appended as *v + 1*: the store refuses it if anything was committed since, and the service
  then catches up and decides again (a join, an invite) or answers 409 (a command, whose client chose *v*);
- a command that expects a version newer than the cache catches up before it is judged.
Another process's commits arrive through :meth:`TableService.follow` (the store's change feed), which catches
the campaign up at once, so live subscribers hear of them without waiting for a read.

A campaign is loaded from its newest snapshot (:mod:`.snapshots`) and the events after it, and a snapshot
is saved every :data:`~.snapshots.SNAPSHOT_EVERY` events, so a restart replays a short tail, not the log.

Listeners (the WebSocket hub) are told of every event the ledger takes in, its own commits and caught-up ones
alike, in order and each once. The events wait in the campaign's outbox, filled under the campaign's lock in
version order and emptied in that order under a lock of its own; a command empties it just after it lets the
campaign's lock go, so the sockets that render the events at once find the ledger free, not held by the
command that made them (every other change empties it before it lets go).
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..documents import Kind
from ..store.port import (
    CampaignRecord,
    EventStore,
    NewEvent,
    PlayerRecord,
    Snapshot,
    StoredEvent,
    UnknownCampaign,
    VersionConflict,
)
from ..systems import MalformedCommand, get_system, system_names
from .auth import Viewer, hash_token, new_id, new_token, token_matches
from .commands import decide, first_events, server_nonce
from .errors import CampaignNotFound, Forbidden, StaleVersion, Unauthorized
from .fairness import draw_seed
from .ledger import Ledger
from .log import Reader
from .salvage import Problem, fold, repaired
from .shape import check_input
from .sheet_text import read_sheet_text
from .snapshots import SNAPSHOT_EVERY, dump, fingerprint, restore
from .stream import stream
from .talk import chat_event, hand_event, remove_event
from .upcast import upcast_stored, written
from .views import events_after, head, json_text, state_json, version_for, visible_events

__all__ = ["CreatedCampaign", "Joined", "Listener", "Rendered", "TableService", "Watchers"]

Listener = Callable[[str, list[StoredEvent]], None]
"""Called with a campaign id and the events just appended to it."""
Watchers = Callable[[str], Collection[Viewer]]
"""Who is watching a campaign live now (the viewers whose sockets follow it)."""
Rendered = tuple[list[dict[str, Any]], list[str]]
"""Events as one viewer receives them, and each as JSON text (:func:`~.views.json_text`)."""

MAX_NAME = 200
RENDERED_KEPT = 64
"""How many renderings made ahead a campaign keeps (a socket takes its own within moments)."""
ODDS_KEPT = 128
"""How many odds answers a campaign remembers, by (version, role, query): every page asking the same at the
same version costs one computation."""

log = logging.getLogger("talespin.table")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True, slots=True)
class CreatedCampaign:
    """A new campaign and the two secrets handed out once."""

    id: str
    gm_token: str
    invite_token: str
    version: int


@dataclass(frozen=True, slots=True)
class Joined:
    """A player who joined, with its token (handed out once)."""

    player_id: str
    player_token: str
    version: int


@dataclass(slots=True)
class _Campaign:
    record: CampaignRecord
    ledger: Ledger
    players: dict[str, PlayerRecord]
    lock: threading.Lock
    problems: list[Problem]
    odds: OrderedDict[tuple[int, str, str], dict[str, Any]] = field(default_factory=OrderedDict)
    views: dict[tuple[int, str, str | None], dict[str, Any]] = field(default_factory=dict)
    texts: dict[tuple[int, str, str | None], str] = field(default_factory=dict)
    """Each view of :attr:`views` as JSON text, written once for every socket that is sent it."""
    rendered: OrderedDict[tuple[Viewer, int, int], Rendered] = field(default_factory=OrderedDict)
    """What each watching viewer receives of a batch of events (by viewer and the batch's first and last
    versions), rendered under :attr:`lock` as the batch is taken in (:meth:`TableService.render_ahead`)."""
    outbox: deque[list[StoredEvent]] = field(default_factory=deque)
    """Events taken in and not yet handed to the listeners, oldest first (filled under :attr:`lock`)."""
    announcing: threading.Lock = field(default_factory=threading.Lock)
    """Held while the outbox is emptied, so listeners hear every batch in order, even from two threads."""


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise MalformedCommand(
            f"{what} must be a non-empty string of at most {MAX_NAME} characters", path=what
        )
    check_input(value, what=what, path=what)
    return value.strip()


class TableService:
    """Campaigns, joins, commands and per-viewer reads over an :class:`~talespin.store.EventStore`."""

    def __init__(
        self,
        store: EventStore,
        *,
        seeds: Callable[[], bytes] = draw_seed,
        clock: Callable[[], str] = _now,
        ids: Callable[[], str] = new_id,
        tokens: Callable[[], str] = new_token,
        nonces: Callable[[], str] = server_nonce,
    ) -> None:
        """A service over ``store``. ``seeds``, ``clock``, ``ids`` and ``tokens`` are where secrets, times
        ids and the nonces of commands sent without one come from: the operating system and the wall clock,
        unless a test makes them deterministic."""
        self.store = store
        self._seeds = seeds
        self._now = clock
        self._new_id = ids
        self._new_token = tokens
        self._nonces = nonces
        self._campaigns: dict[str, _Campaign] = {}
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []
        self._watchers: Watchers | None = None

    def load_all(self) -> int:
        """Rebuild every campaign's ledger from the store (at start-up); returns how many."""
        ids = self.store.campaign_ids()
        for campaign_id in ids:
            self._campaign(campaign_id)
        return len(ids)

    def listen(self, listener: Listener) -> None:
        """Tell ``listener`` of every event appended from now on."""
        self._listeners.append(listener)

    def render_ahead(self, watchers: Watchers) -> None:
        """Render every batch of events taken in for the viewers ``watchers`` names, while the campaign is
        still held: a live socket then finds its viewer's events ready (:meth:`rendered`) rather than
        waiting for the next command to let go of the campaign."""
        self._watchers = watchers

    def _campaign(self, campaign_id: str) -> _Campaign:
        with self._lock:
            found = self._campaigns.get(campaign_id)
            if found is not None:
                return found
            try:
                record = self.store.campaign(campaign_id)
            except UnknownCampaign:
                raise CampaignNotFound(f"no campaign has id {campaign_id!r}") from None
            ledger, problems, snapshot_version = self._restored(campaign_id)
            fold(ledger, self.store.events(campaign_id, after=ledger.version), problems)
            players = {p.id: p for p in self.store.players(campaign_id)}
            found = _Campaign(record, ledger, players, threading.Lock(), problems)
            stale = snapshot_version is None and ledger.version > 0
            if stale or ledger.version - (snapshot_version or 0) >= SNAPSHOT_EVERY:
                self._save_snapshot(found)  # the next start replays only what follows
            self._campaigns[campaign_id] = found
            return found

    def _reader(self, campaign_id: str) -> Reader:
        """How a restored log reads its older events: from the store, repaired and upcast as the fold does."""
        return lambda after, upto: [
            upcast_stored(repaired(e)) for e in self.store.events(campaign_id, after, upto)
        ]

    def _restored(self, campaign_id: str) -> tuple[Ledger, list[Problem], int | None]:
        """The campaign's newest snapshot of this code as a ledger, and its version.

        An empty ledger and version 0 if there is none; version ``None`` if there is one but it cannot be
        used (:func:`.snapshots.restore` says why, in the log): the replayed ledger's snapshot replaces it.
        """
        snapshot = self.store.latest_snapshot(campaign_id, fingerprint())
        if snapshot is None:
            return Ledger(campaign_id), [], 0
        try:
            ledger, problems = restore(snapshot.data, self._reader(campaign_id))
            if ledger.campaign_id == campaign_id and ledger.version == snapshot.version:
                return ledger, problems, snapshot.version
            log.warning("campaign %s: snapshot at %d is of another log", campaign_id, snapshot.version)
        except ValueError as error:
            log.warning("campaign %s: snapshot at %d ignored: %s", campaign_id, snapshot.version, error)
        return Ledger(campaign_id), [], None

    def _save_snapshot(self, campaign: _Campaign) -> None:
        """Save the campaign's ledger as its newest snapshot (hold ``campaign.lock``); failing only warns."""
        ledger = campaign.ledger
        try:
            data = dump(ledger, campaign.problems)
            snapshot = Snapshot(ledger.campaign_id, ledger.version, fingerprint(), data, self._now())
            self.store.save_snapshot(snapshot)
        except Exception as error:  # a snapshot only saves time: the log stays the record
            log.warning("campaign %s: no snapshot at %d: %s", ledger.campaign_id, ledger.version, error)

    def _catch_up(self, campaign: _Campaign) -> None:
        """Bring the ledger up to the store (hold ``campaign.lock``); the events it takes in are published."""
        missed = self.store.events(campaign.record.id, after=campaign.ledger.version)
        if not missed:
            return
        if any(stored.type == "PlayerJoined" for stored in missed):
            campaign.players = {p.id: p for p in self.store.players(campaign.record.id)}
        self._apply(campaign, missed)

    def refresh(self, campaign_id: str) -> None:
        """Catch the cached campaign up if the store holds a newer version: the cheap check of every read."""
        campaign = self._campaign(campaign_id)
        if self.store.head(campaign_id) > campaign.ledger.version:
            with campaign.lock:
                self._catch_up(campaign)

    def follow(self, campaign_id: str, version: int) -> None:
        """A commit announced by the store's change feed: catch the campaign up if it is cached and behind."""
        with self._lock:
            campaign = self._campaigns.get(campaign_id)
        if campaign is not None and version > campaign.ledger.version:
            with campaign.lock:
                # This process's own commits are announced too, often while the committing thread still
                # holds the lock; once it has taken them in there is nothing to read.
                if version > campaign.ledger.version:
                    self._catch_up(campaign)

    def resync(self) -> int:
        """Catch every cached campaign up from the store (the feed reconnected); how many had moved."""
        with self._lock:
            cached = list(self._campaigns.values())
        moved = 0
        for campaign in cached:
            with campaign.lock:
                before = campaign.ledger.version
                self._catch_up(campaign)
                moved += campaign.ledger.version > before
        return moved

    def _publish(self, campaign_id: str, stored: list[StoredEvent]) -> None:
        for listener in self._listeners:
            listener(campaign_id, stored)

    def create_campaign(self, name: Any, system: Any, variant: Any = None) -> CreatedCampaign:
        """A new campaign of ``system`` (a name or alias); the GM and invite tokens are returned once."""
        name = _name(name, "name")
        if not isinstance(system, str):
            names = ", ".join(system_names())
            raise MalformedCommand(f"system must be a string, one of: {names} (or an alias)", path="system")
        canonical = get_system(system).name
        variant = {} if variant is None else variant
        if not isinstance(variant, Mapping):
            raise MalformedCommand("variant must be an object of rules-data overrides", path="variant")
        check_input(variant, what="variant", path="variant")
        get_system(canonical).new_state({"variant": dict(variant)})  # refuses a bad variant before storing
        gm_token, invite_token, at = self._new_token(), self._new_token(), self._now()
        record = CampaignRecord(
            self._new_id(), name, canonical, dict(variant), hash_token(gm_token), hash_token(invite_token), at
        )
        stored = self.store.create_campaign(
            record, written(first_events(name, canonical, variant, self._seeds())), at
        )
        return CreatedCampaign(record.id, gm_token, invite_token, stored[-1].version)

    @staticmethod
    def _invite_hash(campaign: _Campaign) -> str:
        """The invite token in force: the newest ``InviteRenewed``, else the one made with the campaign."""
        return campaign.ledger.invite_hash or campaign.record.invite_token_hash

    def renew_invite(self, campaign_id: str, viewer: Viewer) -> str:
        """A fresh invite token for the GM (returned once): the old invite stops working, players' do not."""
        if not viewer.is_gm:
            raise Forbidden("only the GM may make a new invite link")
        token = self._new_token()
        self._append(
            campaign_id,
            lambda _ledger: NewEvent("InviteRenewed", {"invite_token_hash": hash_token(token)}, "gm"),
        )
        return token

    def _append(self, campaign_id: str, make: Callable[[Ledger], NewEvent]) -> StoredEvent:
        """Append one table event made from the ledger as it is now (made again if another process wrote)."""
        campaign = self._campaign(campaign_id)
        with campaign.lock:
            for _ in range(5):
                new = make(campaign.ledger)
                try:
                    stored = self.store.append(
                        campaign_id, campaign.ledger.version, written([new]), self._now()
                    )
                    break
                except VersionConflict:
                    self._catch_up(campaign)
            else:
                raise StaleVersion("the campaign kept changing; try again")
            self._apply(campaign, stored)
        return stored[-1]

    def say(self, campaign_id: str, viewer: Viewer, text: Any, to: Any = None) -> dict[str, Any]:
        """Table talk (see :mod:`.talk`): the message as the speaker sees it, with its version."""
        check_input(text, what="message", path="text")
        stored = self._append(campaign_id, lambda ledger: chat_event(ledger, viewer, text, to))
        campaign = self._campaign(campaign_id)
        with campaign.lock:
            shown = visible_events(campaign.ledger, viewer, [stored])
            version = version_for(campaign.ledger, viewer)
        return {"version": version, "event": shown[0] if shown else None}

    def remove_player(self, campaign_id: str, viewer: Viewer, player_id: Any) -> int:
        """The GM removes a player: its token stops working, its characters pass to the GM; new version."""
        return self._append(campaign_id, lambda ledger: remove_event(ledger, viewer, player_id)).version

    def hand_character(self, campaign_id: str, viewer: Viewer, character: Any, to: Any) -> int:
        """The GM hands a character to a player (``to``: its id) or to itself (``None``); the new version."""
        return self._append(campaign_id, lambda ledger: hand_event(ledger, viewer, character, to)).version

    def join(self, campaign_id: str, invite_token: Any, name: Any) -> Joined:
        """A player joins by the campaign's invite token (the newest one the GM made, through any process).

        The invite is checked on the ledger at the version the join is appended after, so a renewal
        committed anywhere in between makes the append fail; the ledger then catches up and the invite is
        checked again, against the renewal.
        """
        campaign = self._campaign(campaign_id)
        with campaign.lock:
            if isinstance(invite_token, str) and not self._invited(campaign, invite_token):
                self._catch_up(campaign)  # the GM may have renewed it through another process
            if not isinstance(invite_token, str) or not self._invited(campaign, invite_token):
                raise Unauthorized("the invite token does not match this campaign")
        name = _name(name, "name")
        token, at = self._new_token(), self._now()
        player = PlayerRecord(self._new_id(), campaign_id, name, hash_token(token), at)
        new = [NewEvent("PlayerJoined", {"player_id": player.id, "name": player.name})]
        with campaign.lock:
            for _ in range(5):
                if not self._invited(campaign, invite_token):
                    raise Unauthorized("the invite token does not match this campaign")
                try:
                    stored = self.store.add_player(player, campaign.ledger.version, written(new), at)
                    break
                except VersionConflict:
                    self._catch_up(campaign)
            else:
                raise StaleVersion("the campaign kept changing; try joining again")
            campaign.players[player.id] = player
            self._apply(campaign, stored)
            version = version_for(campaign.ledger, Viewer("player", player.id, player.name))
        return Joined(player.id, token, version)

    def _invited(self, campaign: _Campaign, invite_token: str) -> bool:
        return token_matches(invite_token, self._invite_hash(campaign))

    def viewer(self, campaign_id: str, token: str | None) -> Viewer:
        """Who holds ``token`` in this campaign: the GM or one of its players."""
        campaign = self._campaign(campaign_id)
        if not token:
            raise Unauthorized("a token is needed: send 'Authorization: Bearer <token>'")
        if token_matches(token, campaign.record.gm_token_hash):
            return Viewer("gm")
        for attempt in range(2):
            for player in list(campaign.players.values()):
                if player.id in campaign.ledger.removed:
                    continue
                if token_matches(token, player.token_hash):
                    return Viewer("player", player.id, player.name)
            if attempt == 0:
                with campaign.lock:
                    self._catch_up(campaign)  # a player may have joined through another process
        raise Unauthorized("this token is not known to the campaign")

    def command(
        self, campaign_id: str, viewer: Viewer, command: Any, expected_version: Any, nonce: Any = None
    ) -> tuple[int, list[dict[str, Any]]]:
        """Apply one command expected to follow ``expected_version``: the new version and the events.

        ``nonce`` is the sender's random contribution to the command's server dice (made here if absent).
        """
        if isinstance(expected_version, bool) or not isinstance(expected_version, int):
            raise MalformedCommand(
                "expected_version must be the whole-number version the command follows",
                path="expected_version",
            )
        campaign = self._campaign(campaign_id)
        try:
            with campaign.lock:
                ledger = campaign.ledger
                if expected_version > version_for(ledger, viewer):
                    self._catch_up(campaign)  # the client has seen a commit made through another process
                current = version_for(ledger, viewer)
                if expected_version != current:
                    raise StaleVersion(
                        f"the campaign is at version {current}, not {expected_version}", version=current
                    )
                check_input(command)
                new = decide(ledger, viewer, command, self._seeds, nonce=nonce, make_nonce=self._nonces)
                try:
                    stored = self.store.append(campaign_id, ledger.version, written(new), self._now())
                except VersionConflict:
                    self._catch_up(campaign)
                    current = version_for(ledger, viewer)
                    raise StaleVersion(
                        f"the campaign is at version {current}, not {expected_version}", version=current
                    ) from None
                self._apply(campaign, stored, announce=False)
                answer = version_for(ledger, viewer), visible_events(ledger, viewer, stored)
        finally:
            self._announce(campaign)  # after the lock: the sockets render the events on a free ledger
        return answer

    def _apply(self, campaign: _Campaign, stored: list[StoredEvent], *, announce: bool = True) -> None:
        """Fold ``stored`` in (hold ``campaign.lock``) and queue them for the listeners; with ``announce``
        the queue is emptied at once, else the caller empties it (:meth:`_announce`) once it lets go."""
        before = campaign.ledger.version
        fold(campaign.ledger, stored, campaign.problems)
        if campaign.ledger.version // SNAPSHOT_EVERY > before // SNAPSHOT_EVERY:
            self._save_snapshot(campaign)
        if self._watchers is not None and stored:
            self._render(campaign, stored, self._watchers(campaign.record.id))
        campaign.outbox.append(stored)
        if announce:
            self._announce(campaign)

    @staticmethod
    def _render(campaign: _Campaign, stored: list[StoredEvent], viewers: Collection[Viewer]) -> None:
        """Render ``stored`` for each of ``viewers``, events and JSON text (hold ``campaign.lock``): once for
        all the players who share a stream (:func:`~.stream.stream`). A failure only leaves the sockets to
        render the events themselves."""
        first, last = stored[0].version, stored[-1].version
        ledger, rendered = campaign.ledger, campaign.rendered
        by_stream: dict[int, Rendered] = {}
        for viewer in viewers:
            try:
                shared = None if viewer.is_gm else id(stream(ledger, viewer))
                done = by_stream.get(shared) if shared is not None else None
                if done is None:
                    events = visible_events(ledger, viewer, stored)
                    done = events, [json_text(event) for event in events]
                    if shared is not None:
                        by_stream[shared] = done
                rendered[(viewer, first, last)] = done
            except Exception:
                log.exception("campaign %s: events %d-%d not rendered ahead", campaign.record.id, first, last)
        while len(rendered) > RENDERED_KEPT:
            rendered.popitem(last=False)

    def _announce(self, campaign: _Campaign) -> None:
        """Hand every queued batch of events to the listeners, oldest first (with or without the campaign's
        lock held: the outbox keeps the order the lock gave them)."""
        with campaign.announcing:
            while campaign.outbox:
                self._publish(campaign.record.id, campaign.outbox.popleft())

    def state(self, campaign_id: str, viewer: Viewer) -> dict[str, Any]:
        """The campaign as ``viewer`` may see it, with its version (the newest committed)."""
        self.refresh(campaign_id)
        return self.live_state(campaign_id, viewer)

    def live_state(self, campaign_id: str, viewer: Viewer) -> dict[str, Any]:
        """The state as ``viewer`` may see it at the version this process holds (no trip to the store).

        For the live feed, which has just been told of the newest events: each viewer's state is built once
        per version (through :func:`.views.state_json`, the one place a view is cut), however many of its
        pages are open. The answer is shared: read it, never change it.
        """
        campaign = self._campaign(campaign_id)
        with campaign.lock:
            return self._live_state(campaign, viewer)

    def _live_state(self, campaign: _Campaign, viewer: Viewer) -> dict[str, Any]:
        """:meth:`live_state` of a campaign whose lock the caller holds."""
        key = (campaign.ledger.version, viewer.role, viewer.player_id)
        shown = campaign.views.get(key)
        if shown is None:
            shown = state_json(campaign.ledger, viewer)
            if viewer.is_gm:
                shown["problems"] = [problem.to_json() for problem in campaign.problems]
            campaign.views = {k: v for k, v in campaign.views.items() if k[0] == key[0]}
            campaign.views[key] = shown
        return shown

    def live_state_text(self, campaign_id: str, viewer: Viewer) -> str:
        """:meth:`live_state` as JSON text, for the live feed's frames.

        Written once per version and viewer, so every socket of that viewer is sent the same text: with five
        pages open after a command, five views are built and five texts written, not one per socket. The
        text is cut from the viewer's own state, so a player's frame depends on nothing the player may not
        see.
        """
        campaign = self._campaign(campaign_id)
        with campaign.lock:
            return self._live_state_text(campaign, viewer)

    def live_state_text_now(self, campaign_id: str, viewer: Viewer) -> str | None:
        """:meth:`live_state_text` without waiting: ``None`` while a command holds the campaign (or it is
        loading).

        The live feed calls it on the event loop after each batch of events, as it calls
        :meth:`visible_now`: the state's dear part, the legal commands, is found once per version and role
        and mostly reused from the version before (:mod:`.legal`), so building the text here costs less
        than handing it to a worker thread and back.
        """
        campaign = self._held_now(campaign_id)
        if campaign is None:
            return None
        try:
            return self._live_state_text(campaign, viewer)
        finally:
            campaign.lock.release()

    def _live_state_text(self, campaign: _Campaign, viewer: Viewer) -> str:
        """:meth:`live_state_text` of a campaign whose lock the caller holds."""
        state = self._live_state(campaign, viewer)
        key = (campaign.ledger.version, viewer.role, viewer.player_id)
        text = campaign.texts.get(key)
        if text is None or campaign.views.get(key) is not state:
            text = json_text(state)
            campaign.texts = {k: v for k, v in campaign.texts.items() if k[0] == key[0]}
            campaign.texts[key] = text
        return text

    def events(self, campaign_id: str, viewer: Viewer, after: int = 0) -> list[dict[str, Any]]:
        """The events after version ``after`` that ``viewer`` may see (up to the newest committed)."""
        self.refresh(campaign_id)
        campaign = self._campaign(campaign_id)
        with campaign.lock:
            return events_after(campaign.ledger, viewer, after)

    def backlog(
        self, campaign_id: str, viewer: Viewer, after: int | None
    ) -> tuple[int, list[dict[str, Any]], str]:
        """The version and events after ``after`` as the viewer counts them (none for ``None``), the head."""
        _, version, missed, tip = self.marked_backlog(campaign_id, viewer, after)
        return version, missed, tip

    def marked_backlog(
        self, campaign_id: str, viewer: Viewer, after: int | None
    ) -> tuple[int, int, list[dict[str, Any]], str]:
        """:meth:`backlog` with, first, the log's own version it reached (where live updates take over).

        A player removed by then is refused (:class:`Unauthorized`), checked under the same lock as the mark
        is taken: its token may have been checked before the removal, whose event is then in no live frame.
        """
        self.refresh(campaign_id)  # another process may have committed what this one has not heard of
        campaign = self._campaign(campaign_id)
        with campaign.lock:
            ledger = campaign.ledger
            if not viewer.is_gm and viewer.player_id in ledger.removed:
                raise Unauthorized("this player was removed from the table")
            missed = events_after(ledger, viewer, after) if after is not None else []
            return ledger.version, version_for(ledger, viewer), missed, head(ledger, viewer)

    def visible(self, campaign_id: str, viewer: Viewer, stored: list[StoredEvent]) -> list[dict[str, Any]]:
        """Freshly appended events as ``viewer`` may see them (for live updates)."""
        campaign = self._campaign(campaign_id)
        with campaign.lock:
            return visible_events(campaign.ledger, viewer, stored)

    def version(self, campaign_id: str, viewer: Viewer) -> int:
        """The version as ``viewer`` counts it (a player numbers only what it received)."""
        campaign = self._campaign(campaign_id)
        with campaign.lock:
            return version_for(campaign.ledger, viewer)

    def visible_now(
        self, campaign_id: str, viewer: Viewer, stored: list[StoredEvent]
    ) -> list[dict[str, Any]] | None:
        """:meth:`visible` without waiting: ``None`` while a command holds the campaign (or it is loading).

        The live feed calls it on the event loop, where waiting would stall every socket, when the events
        were not rendered ahead (:meth:`rendered`); rendering a fresh event is cheap, so most of those
        frames too skip the trip through a worker thread.
        """
        campaign = self._held_now(campaign_id)
        if campaign is None:
            return None
        try:
            return visible_events(campaign.ledger, viewer, stored)
        finally:
            campaign.lock.release()

    def rendered(self, campaign_id: str, viewer: Viewer, stored: list[StoredEvent]) -> Rendered | None:
        """``stored`` as ``viewer`` receives it, events and their JSON texts, if it was rendered as it was
        taken in (:meth:`render_ahead`); else ``None``. Never waits: the live feed asks on the event loop.
        The lists are shared: read them, do not change them."""
        cached = self._campaigns.get(campaign_id)  # one lookup, atomic: no lock to wait for
        if cached is None or not stored:
            return None
        return cached.rendered.get((viewer, stored[0].version, stored[-1].version))

    def _held_now(self, campaign_id: str) -> _Campaign | None:
        """The cached campaign with its lock taken, without waiting; ``None`` if that would mean waiting
        (a command holds it, or the cache is being filled) or it is not cached. The caller releases it."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            campaign = self._campaigns.get(campaign_id)
        finally:
            self._lock.release()
        if campaign is None or not campaign.lock.acquire(blocking=False):
            return None
        return campaign

    def head(self, campaign_id: str, viewer: Viewer) -> str:
        """The head of the viewer's hash chain now (sent with every answer, kept in receipts)."""
        campaign = self._campaign(campaign_id)
        with campaign.lock:
            return head(campaign.ledger, viewer)

    def ledger(self, campaign_id: str) -> Ledger:
        """The campaign's ledger (read it under :meth:`locked`)."""
        return self._campaign(campaign_id).ledger

    def locked(self, campaign_id: str) -> threading.Lock:
        """The lock serialising a campaign's commands."""
        return self._campaign(campaign_id).lock

    def sheet_checker(self, campaign_id: str, token: str | None) -> None:
        """Let ``token`` have sheets checked here: the GM's, a player's, or the invite a joining player holds.

        A player writes its sheet before it joins, so the invite is enough to ask what the campaign's
        rules say of one; anything else is Unauthorized.
        """
        campaign = self._campaign(campaign_id)
        if token:
            with campaign.lock:
                if not self._invited(campaign, token):
                    self._catch_up(campaign)  # the GM may have renewed it through another process
                if self._invited(campaign, token):
                    return
        self.viewer(campaign_id, token)

    def validate_sheet(
        self, campaign_id: str, sheet: Any = None, text: str | None = None, kind: Kind = "yaml"
    ) -> dict[str, Any]:
        """A sheet checked against this campaign's rules, its variant included: what ``add_character``
        would say of it (``{"valid", "cost", "errors"}``).

        Given as ``text`` (YAML or JSON) it is read by the one document reader, as the CLI reads a file, and
        the answer also holds ``"sheet"``, the data read (:func:`.sheet_text.read_sheet_text`).
        """
        if text is None:
            check_input(sheet, what="sheet")
        self.refresh(campaign_id)
        campaign = self._campaign(campaign_id)
        with campaign.lock:
            system, rules = campaign.ledger.system, campaign.ledger.state.rules
        if text is not None:
            return read_sheet_text(system, text, kind, rules=rules)
        return system.validate_sheet(sheet, rules)

    def odds(self, campaign_id: str, viewer: Viewer, query: Any) -> dict[str, Any]:
        """The odds for a query on the state as ``viewer`` knows it (a player's lacks held blind rolls)."""
        if not isinstance(query, Mapping):
            raise MalformedCommand('an odds query is a JSON object, e.g. {"character": "Ada"}')
        check_input(query, what="odds query")
        self.refresh(campaign_id)
        campaign = self._campaign(campaign_id)
        with campaign.lock:
            ledger = campaign.ledger
            system, state = ledger.system, ledger.state if viewer.is_gm else ledger.release.state
            key = (ledger.version, viewer.role, json.dumps(query, sort_keys=True, separators=(",", ":")))
            known = campaign.odds.get(key)
            if known is not None:
                campaign.odds.move_to_end(key)
                return known
        answer = system.odds(state, query)  # the state is frozen: no lock needed while computing
        with campaign.lock:
            campaign.odds[key] = answer
            while len(campaign.odds) > ODDS_KEPT:
                campaign.odds.popitem(last=False)
        return answer
