"""The frozen state of an Inciting Incident campaign: characters, the current scene, counters.

Every class here is an immutable value; :mod:`.evolve` builds a new one for each event with
:func:`dataclasses.replace`. Mappings are kept as tuples of pairs so states compare and hash by value, and a
replay of the events gives back an equal state.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Rules
from .sheet import Character

__all__ = [
    "Combatant",
    "Conflict",
    "GameState",
    "Member",
    "Obstacle",
    "Prepared",
    "Scene",
    "Trigger",
]


@dataclass(frozen=True, slots=True)
class Member:
    """A character of the campaign with its wounds (they last across scenes until healed)."""

    sheet: Character
    wounds: int = 0

    @property
    def name(self) -> str:
        """The character's name."""
        return self.sheet.name


@dataclass(frozen=True, slots=True)
class Trigger:
    """II-CRISIS-2: a threshold, an optional repeat interval, a text, a visibility, and the values fired."""

    id: int
    at: int
    every: int | None
    text: str
    visibility: str = "public"
    fired: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Obstacle:
    """The obstacle in play: a Simple one (who must pass) or a Complex one (Obstruction, attempts)."""

    kind: str  # "simple" | "complex"
    obstruction: int = 0
    attempts: int = 0
    attempts_left: int = 0
    beaten: bool = False
    difficulty: int | None = None
    last_actor: str | None = None
    used_talents: tuple[tuple[str, tuple[str, ...]], ...] = ()
    presented_to: str | None = None
    must_pass: tuple[str, ...] = ()
    passed: tuple[str, ...] = ()

    def talents_used_by(self, character: str) -> tuple[str, ...]:
        """The Talents ``character`` has used for Regular Actions on this obstacle."""
        return dict(self.used_talents).get(character, ())


@dataclass(frozen=True, slots=True)
class Combatant:
    """An enemy in a conflict: a sheet like a character's, its wounds and maximum hits."""

    sheet: Character
    max_hits: int
    wounds: int = 0

    @property
    def name(self) -> str:
        """The enemy's name."""
        return self.sheet.name


@dataclass(frozen=True, slots=True)
class Conflict:
    """II-FLOW-*: the Flow of Battle, the enemies, who is out, who acted this round, how it ended."""

    flow: int
    enemies: tuple[Combatant, ...]
    out: tuple[str, ...] = ()
    acted: tuple[str, ...] = ()
    round: int = 1
    ended: bool = False
    winner: str | None = None

    def enemy(self, name: str) -> Combatant | None:
        """The enemy called ``name``."""
        return next((e for e in self.enemies if e.name == name), None)


@dataclass(frozen=True, slots=True)
class Prepared:
    """What a character carries into its next roll: a recreated Skill's effects or follow-up Disadvantage."""

    character: str
    disadvantage: int = 0
    effects: tuple[tuple[str, int], ...] = ()
    sources: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Scene:
    """II-SCENE-1/4: one scene with its Crisis, Triggers, obstacle, conflict and per-character changes."""

    number: int
    kind: str
    difficulty: int
    location: str | None
    present: tuple[str, ...]
    montage: bool = False
    restful: bool = False
    crisis: int = 0
    triggers: tuple[Trigger, ...] = ()
    obstacle: Obstacle | None = None
    conflict: Conflict | None = None
    changed: tuple[str, ...] = ()
    prepared: tuple[Prepared, ...] = ()

    def trigger(self, trigger_id: int) -> Trigger | None:
        """The Trigger with this id."""
        return next((t for t in self.triggers if t.id == trigger_id), None)

    def prepared_for(self, character: str) -> Prepared | None:
        """What ``character`` carries into its next roll, if anything."""
        return next((p for p in self.prepared if p.character == character), None)


@dataclass(frozen=True, slots=True)
class GameState:
    """A whole campaign: the rules in force, the characters, Rising Tension and the current scene."""

    rules: Rules
    members: tuple[Member, ...] = ()
    rising_tension: int = 0
    cooperative_streak: int = 0
    scene: Scene | None = None
    scenes_played: int = 0
    last_rest_scene: int | None = None
    recreated: tuple[tuple[str, str], ...] = ()
    next_trigger_id: int = 1
    """The id of the next public Trigger: 1, 2, 3, … counting public Triggers only."""
    next_hidden_trigger_id: int = -1
    """The id of the next GM-only Trigger: -1, -2, -3, … counted apart, so that a public Trigger's id says
    nothing about whether GM-only ones exist."""
    revealed_triggers: tuple[int, ...] = ()
    """The ids of the GM-only Triggers that have fired, in the order each first fired. Players know the one at
    index ``i`` as Trigger ``-(i + 1)``: a number that counts only GM-only Triggers they have seen fire, so
    that it says nothing about the GM-only Triggers that have not."""

    def shown_trigger_id(self, trigger: Trigger) -> int:
        """The id players know ``trigger`` by: its own if public, else its place among those revealed."""
        if trigger.visibility != "gm" or trigger.id not in self.revealed_triggers:
            return trigger.id
        return -(self.revealed_triggers.index(trigger.id) + 1)

    def member(self, name: str) -> Member | None:
        """The character called ``name``."""
        return next((m for m in self.members if m.name == name), None)
