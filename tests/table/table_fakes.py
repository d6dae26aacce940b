"""A store kept in memory: a fake of the store port (not a mock), for the table's own tests."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from talespin.store import (
    CampaignRecord,
    NewEvent,
    PlayerRecord,
    Snapshot,
    StoredEvent,
    UnknownCampaign,
    VersionConflict,
)


class MemoryStore:
    """Campaigns, players and logs in dictionaries, with the same version rule as the database."""

    def __init__(self) -> None:
        self._campaigns: dict[str, CampaignRecord] = {}
        self._players: dict[str, list[PlayerRecord]] = {}
        self._events: dict[str, list[StoredEvent]] = {}
        self._snapshots: dict[str, list[Snapshot]] = {}
        self._lock = threading.Lock()

    def _append(self, campaign_id: str, expected: int, new: Sequence[NewEvent], at: str) -> list[StoredEvent]:
        log = self._events[campaign_id]
        if len(log) != expected:
            raise VersionConflict(campaign_id, expected)
        stored = [
            StoredEvent(campaign_id, expected + i, e.type, dict(e.data), e.visibility, e.actor, at, e.schema)
            for i, e in enumerate(new, start=1)
        ]
        log.extend(stored)
        return stored

    def create_campaign(
        self, campaign: CampaignRecord, events: Sequence[NewEvent], at: str
    ) -> list[StoredEvent]:
        with self._lock:
            self._campaigns[campaign.id] = campaign
            self._players[campaign.id] = []
            self._events[campaign.id] = []
            return self._append(campaign.id, 0, events, at)

    def add_player(
        self, player: PlayerRecord, expected_version: int, events: Sequence[NewEvent], at: str
    ) -> list[StoredEvent]:
        with self._lock:
            self.campaign(player.campaign_id)
            stored = self._append(player.campaign_id, expected_version, events, at)
            self._players[player.campaign_id].append(player)
            return stored

    def append(
        self, campaign_id: str, expected_version: int, events: Sequence[NewEvent], at: str
    ) -> list[StoredEvent]:
        with self._lock:
            self.campaign(campaign_id)
            return self._append(campaign_id, expected_version, events, at)

    def campaign(self, campaign_id: str) -> CampaignRecord:
        if campaign_id not in self._campaigns:
            raise UnknownCampaign(campaign_id)
        return self._campaigns[campaign_id]

    def campaign_ids(self) -> list[str]:
        return list(self._campaigns)

    def players(self, campaign_id: str) -> list[PlayerRecord]:
        return list(self._players.get(campaign_id, []))

    def events(self, campaign_id: str, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        return [
            e
            for e in self._events.get(campaign_id, [])
            if e.version > after and (upto is None or e.version <= upto)
        ]

    def save_snapshot(self, snapshot: Snapshot) -> None:
        with self._lock:
            self.campaign(snapshot.campaign_id)
            kept = [s for s in self._snapshots.get(snapshot.campaign_id, []) if s.version >= snapshot.version]
            key = (snapshot.version, snapshot.fingerprint)
            kept = [s for s in kept if (s.version, s.fingerprint) != key]  # one of the same key is replaced
            self._snapshots[snapshot.campaign_id] = [*kept, snapshot]

    def latest_snapshot(self, campaign_id: str, fingerprint: str) -> Snapshot | None:
        mine = [s for s in self._snapshots.get(campaign_id, []) if s.fingerprint == fingerprint]
        return max(mine, key=lambda s: s.version) if mine else None

    def head(self, campaign_id: str) -> int:
        return len(self._events.get(campaign_id, []))

    @property
    def kind(self) -> str:
        return "memory"

    def changes(self) -> None:
        return None

    def close(self) -> None:
        pass
