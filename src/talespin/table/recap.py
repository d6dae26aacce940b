"""The session recap: an export read aloud as Markdown, scene by scene, in the game's words.

:func:`recap_markdown` takes a JSON export (:func:`~.export.export_json`, or a file someone downloaded) and
writes what happened: who sat at the table and what they played, each scene with its kind, its Triggers and
the Crisis and Rising Tension it ended on, every command as a line naming who sent it, and under it what the
rules made of it — rolls with their dice, obstacles, Triggers firing, Rising Tension gained and spent. Undone
entries stay, struck through. Names, never player ids; the export's own verifiable facts (seeds, the chain
head) close the document.

It writes only what the export holds, so a player's recap has no GM secret in it; table talk is not part of
the record's story and is left out. Every piece of text a person typed (names, Triggers, notes, narration)
is escaped with :func:`escape`, so it reads as typed and never becomes Markdown or HTML.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from string import Formatter
from typing import Any, Final

from ..systems.registry import entries

__all__ = ["dice_words", "escape", "recap_markdown", "sentence"]

_MARKUP: Final = re.compile(r"([\\`*_{}\[\]#|~!])")
_ENTITY: Final = re.compile(r"&(?=#?\w+;)")
_SPACE: Final = re.compile(r"\s+")
_LABELS: Final = {entry.name: entry.label for entry in entries()}
_TABLE_ONLY: Final = frozenset(
    {"CommandIssued", "SeedCommitted", "SeedRevealed", "ChatSaid", "InviteRenewed", "SceneStarted"}
)
"""Events the recap does not tell as a line of their entry (the command's own line, the fair-dice section)."""


def _map(value: Any) -> Mapping[str, Any]:
    """``value`` when it is a mapping, else an empty one (an export may be hand-edited or damaged)."""
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def escape(value: Any) -> str:
    """Text a person typed, as Markdown that shows exactly that text: markup characters escaped, and line
    breaks folded into spaces (so no line of it can start a heading, a list or a quote). ``<`` becomes
    ``&lt;`` rather than ``\\<``, so no renderer, strict CommonMark or not, lets a tag through."""
    text = _SPACE.sub(" ", str(value)).strip()
    text = _ENTITY.sub("&amp;", text).replace("<", "&lt;")
    return _MARKUP.sub(r"\\\1", text)


def _words(value: Any) -> str:
    """A value as escaped words: a list joined by commas, a mapping by its name, nothing for None."""
    if value is None or isinstance(value, bool):
        return "" if value is None else ("yes" if value else "no")
    if isinstance(value, Mapping):
        return escape(value.get("name", "")) if "name" in value else ""
    if isinstance(value, list | tuple):
        return ", ".join(w for w in (_words(v) for v in value) if w)
    return escape(value)


def _code(value: Any) -> str:
    """A value for a code span (a hash, a seed): as written, without the backticks that would end the span."""
    return _SPACE.sub(" ", str(value)).replace("`", "'").strip()


def _count(n: Any, one: str, many: str) -> str:
    return f"{_words(n)} {one if n == 1 else many}"


def dice_words(data: Mapping[str, Any]) -> str:
    """The dice of a roll: each die's faces (an exploding die's in a row, ``6+6+2``), grouped by size."""
    chains = data.get("chains")
    if isinstance(chains, list) and chains:
        groups: list[tuple[Any, list[str]]] = []
        for chain in chains:
            if not isinstance(chain, Mapping):
                continue
            faces = _list(chain.get("faces"))
            shown = "+".join(_words(f) for f in faces) or "?"
            if groups and groups[-1][0] == chain.get("size"):
                groups[-1][1].append(shown)
            else:
                groups.append((chain.get("size"), [shown]))
        return "; ".join(f"d{_words(size)}: {' '.join(shown)}" for size, shown in groups)
    return " ".join(_words(f) for f in _list(data.get("faces")))


def _outcome(data: Mapping[str, Any]) -> str:
    success = data.get("success")
    return "" if success is None else " — success" if success else " — failure"


def _talent_roll(d: Mapping[str, Any]) -> str:
    what = _words(d.get("talent") or d.get("ability")) or "the dice"
    against = f" against {_words(d.get('against'))}" if d.get("against") is not None else ""
    return f"{_words(d.get('character'))} rolled {what}: **{_words(d.get('total'))}**{against}{_outcome(d)}"


def _test(d: Mapping[str, Any]) -> str:
    item = _words(d.get("skill") or d.get("conviction")) or "a Test"
    with_trait = f" with {_words(d.get('trait'))}" if d.get("trait") else ""
    successes = _count(d.get("successes", 0), "success", "successes")
    pool = _words(d.get("pool")) or str(len(d.get("faces") or []))
    margin = f" (margin {_words(d.get('margin'))})" if d.get("margin") is not None else ""
    return (
        f"{_words(d.get('hero'))} tested {item}{with_trait}: **{successes}** on {pool}d10, "
        f"target {_words(d.get('target'))}{_outcome(d)}{margin}"
    )


def _spent(d: Mapping[str, Any]) -> str:
    on = {"disadvantage": "Disadvantage", "trigger": "a new Trigger", "obstacle": "an obstacle"}
    bought = on.get(str(d.get("on")), "enemies" if d.get("on") == "enemy" else _words(d.get("on")))
    target = f" on {_words(d.get('character'))}" if d.get("character") else ""
    return f"The GM spent {_words(d.get('amount'))} Rising Tension on {bought}{target}"


def _cause(d: Mapping[str, Any]) -> str:
    why = d.get("cause") or d.get("reason")
    return f" ({_words(why)})" if why else ""


def _say(template: str) -> Callable[[Mapping[str, Any]], str]:
    """The sentence of an event that only names its fields: each ``{field}`` of ``template`` in words.

    >>> _say("{character} took a wound ({wounds})")({"character": "Ada*", "wounds": 2})
    'Ada\\\\* took a wound (2)'
    """
    fields = [name for _, name, _, _ in Formatter().parse(template) if name]
    return lambda d: template.format_map({name: _words(d.get(name)) for name in fields})


_SENTENCES: Final[dict[str, Callable[[Mapping[str, Any]], str]]] = {
    "CharacterAdded": lambda d: f"{_words(_map(d.get('sheet')).get('name'))} joined the story",
    "HeroAdded": _say("{hero} joined the story"),
    "CharacterChanged": _say("{character} changed their sheet"),
    "TriggerAdded": lambda d: (
        f"Trigger at {_words(d.get('at'))}"
        + (f" (every {_words(d.get('every'))})" if d.get("every") else "")
        + f": “{_words(d.get('text'))}”"
    ),
    "TriggerFired": lambda d: (
        f"Trigger fired at {_words(d.get('value'))}: “{_words(d.get('text'))}”"
        + (f", it falls on {_words(d.get('affects') or d.get('character'))}" if d.get("affects") else "")
    ),
    "TriggerRearmed": _say("Trigger {trigger} re-armed"),
    "CrisisRaised": lambda d: (
        f"Crisis rose by {_words(d.get('amount'))} to **{_words(d.get('crisis'))}**{_cause(d)}"
    ),
    "CrisisLowered": lambda d: f"Crisis fell to **{_words(d.get('crisis'))}**{_cause(d)}",
    "RisingTensionGained": lambda d: (
        f"Rising Tension rose to **{_words(d.get('rising_tension'))}**{_cause(d)}"
    ),
    "RisingTensionLowered": lambda d: (
        f"Rising Tension fell to **{_words(d.get('rising_tension'))}**{_cause(d)}"
    ),
    "RisingTensionSpent": lambda d: f"{_spent(d)}: {_words(d.get('rising_tension'))} left",
    "SimpleObstaclePresented": lambda d: f"A Simple Obstacle faces {_words(d.get('to')) or 'the group'}",
    "SimpleObstacleFaced": lambda d: (
        f"{_words(d.get('character'))} faced the Simple Obstacle"
        + (" and passed without rolling" if d.get("choice") == "auto" else "")
    ),
    "ObstaclePassed": _say("The obstacle was passed"),
    "SceneEnded": _say("The scene ended"),
    "ComplexObstacleSet": lambda d: (
        f"A Complex Obstacle: Obstruction {_words(d.get('obstruction'))}, "
        f"{_count(d.get('attempts'), 'Decisive attempt', 'Decisive attempts')}"
    ),
    "RegularActionTaken": lambda d: (
        f"{_words(d.get('character'))} took a Regular Action"
        + (f" with {_words(d.get('talent'))}" if d.get("talent") else " (automatic)")
    ),
    "ObstructionReduced": _say("Obstruction fell to **{obstruction}**"),
    "DecisiveActionTaken": lambda d: (
        f"{_words(d.get('character'))} took a Decisive Action{_outcome(d)}, "
        f"{_count(d.get('attempts_left'), 'attempt', 'attempts')} left"
    ),
    "ObstacleBeaten": _say("The obstacle was beaten"),
    "TalentRolled": _talent_roll,
    "AbilityRolled": _talent_roll,
    "BlindRollMade": lambda d: (
        f"{_words(d.get('character') or d.get('hero') or d.get('actor')) or 'Someone'} made a blind roll"
        " (only the GM sees it until it is revealed)"
    ),
    "EntryWithheld": lambda d: (
        f"{_words(d.get('do'))}"
        + (f" for {_words(d.get('actor'))}" if d.get("actor") else "")
        + ": its outcome comes with the reveal of the blind roll before it"
    ),
    "BlindRollRevealed": _say("Blind roll #{blind} revealed"),
    "TestRolled": _test,
    "SkillUsed": _say("{character} used {skill}"),
    "SkillPrepared": _say("{character} readied {skill}"),
    "SkillRecreated": lambda d: (
        f"{_words(d.get('character'))} {'recreated' if d.get('success') else 'failed to recreate'} "
        f"{_words(d.get('skill'))}"
    ),
    "ConflictStarted": _say("A conflict began against {enemies}"),
    "RoundStarted": _say("Round {round} began"),
    "AttackMade": lambda d: (
        f"{_words(d.get('attacker'))} attacked {_words(d.get('target'))}"
        + (" (Decisive)" if d.get("decisive") else "")
    ),
    "FlowShifted": _say("The Flow of Battle moved to {flow}"),
    "WoundTaken": _say("{character} took a wound ({wounds})"),
    "TakenOut": _say("{character} was taken out"),
    "SideYielded": _say("The {side} yielded"),
    "ConflictEnded": lambda d: (
        "The conflict ended" + (f": the {_words(d.get('winner'))} won" if d.get("winner") else "")
    ),
    "OutcomeNarrated": lambda d: (
        f"{_words(d.get('hero')) or 'The GM'} — “{_words(d.get('text'))}”, told without dice{_outcome(d)}"
    ),
    "OpposedTestDecided": lambda d: (
        f"Opposed Test, {_words(d.get('attacker'))} against {_words(d.get('defender'))}: "
        f"**{_words(d.get('winning_hero') or d.get('winner'))}** won, "
        f"{_words(d.get('attacker_successes'))} to {_words(d.get('defender_successes'))}"
    ),
    "ExtendedTestStarted": _say("An extended Test began: goal {goal} successes"),
    "ExtendedTestEnded": lambda d: (
        f"The extended Test ended: {_words(d.get('successes'))}/{_words(d.get('goal'))} successes"
        + (", goal reached" if d.get("reached") else ", goal not reached")
    ),
    "NarrationAwarded": _say("{hero} was awarded exceptional narration"),
    "NarrationRequested": _say("{hero} asked for exceptional narration"),
    "NoteAdded": _say("Note: {text}"),
    "SettingChanged": lambda d: (
        "From now on only the GM enters physical dice"
        if d.get("physical_dice") == "gm"
        else "Players may enter physical dice for their own characters"
    ),
}


def _fallback(kind: str, data: Mapping[str, Any]) -> str:
    """An event without its own sentence: its type in words and its plain fields."""
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", kind).lower().capitalize()
    fields = [f"{escape(key)}: {_words(value)}" for key, value in data.items() if _words(value)]
    return escape(words) + (f" — {'; '.join(fields)}" if fields else "")


def sentence(kind: str, data: Mapping[str, Any]) -> str:
    """One event in the game's words (user text escaped); dice follow a roll."""
    told = _SENTENCES.get(kind)
    text = told(data) if told else _fallback(kind, data)
    dice = dice_words(data) if kind in {"TalentRolled", "AbilityRolled", "TestRolled"} else ""
    return f"{text}." + (f" Dice: {dice}." if dice else "")


def _command_words(command: Mapping[str, Any]) -> str:
    what = escape(str(command.get("do", "command")).replace("_", " "))
    sheet = _map(command.get("sheet"))
    actor = _words(command.get("character") or command.get("hero") or sheet.get("name"))
    item = _words(command.get("talent") or command.get("skill") or command.get("ability"))
    bits = [b for b in (actor, item) if b]
    return what + (f" ({', '.join(bits)})" if bits else "")


@dataclass
class _Section:
    """A part of the recap: a scene, or the time between scenes."""

    title: str
    intro: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    crisis: Any = None
    tension: Any = None


@dataclass
class _Reader:
    """Walks the export's events once, keeping names and the sections they fall into."""

    players: dict[str, str] = field(default_factory=dict)
    plays: dict[str, str] = field(default_factory=dict)
    sections: list[_Section] = field(default_factory=list)
    seeds: dict[Any, dict[str, Any]] = field(default_factory=dict)
    undone: set[Any] = field(default_factory=set)
    scene: _Section | None = None

    def who(self, by: Any) -> str:
        if by == "gm":
            return "GM"
        return escape(self.players.get(str(by), "a player who left"))

    def current(self) -> _Section:
        if self.scene is not None:
            return self.scene
        if not self.sections or self.sections[-1].title.startswith("Scene"):
            self.sections.append(_Section("Between scenes" if self.sections else "Before the first scene"))
        return self.sections[-1]

    def table_fact(self, kind: str, data: Mapping[str, Any]) -> None:
        if kind == "PlayerJoined":
            self.players[str(data.get("player_id"))] = str(data.get("name", "a player"))
        elif kind in {"SeedCommitted", "SeedRevealed"}:
            seed = self.seeds.setdefault(data.get("number"), {})
            seed["commitment"] = data.get("commitment", seed.get("commitment"))
            if kind == "SeedRevealed":
                seed["seed"] = data.get("seed")

    def entry(self, number: Any, events: list[Mapping[str, Any]]) -> None:
        """One command's entry: a line naming who sent what, then a line for each thing it caused."""
        issued = next((e for e in events if e.get("type") == "CommandIssued"), None)
        data = _map(issued.get("data")) if issued else {}
        command = _map(data.get("command"))
        by = data.get("by")
        for event in events:
            if event.get("type") == "SceneStarted":
                self.start_scene(_map(event.get("data")))
        section = self.current()
        said = [
            sentence(str(e.get("type")), _map(e.get("data"))) + (" *(GM only)*" if _secret(e) else "")
            for e in events
            if _told(e)
        ]
        if issued is None:
            head = "**GM** — a command only the GM sees"
        elif command.get("do") == "undo":
            target = next((_map(e.get("data")) for e in events if e.get("type") == "EntryUndone"), {})
            head = f"**{self.who(by)}** undid #{_words(target.get('entry'))}"
            said = []
        else:
            head = f"**{self.who(by)}** — {_command_words(command)}" + (
                " *(GM only)*" if _secret(issued) else ""
            )
        if number in self.undone:
            head, said = f"~~{head}~~ *(undone)*", [f"~~{line}~~" for line in said]
        section.lines.append(f"- #{_words(number)} {head}")
        section.lines += [f"  - {line}" for line in said]
        for event in events:
            self.follow(event, by)

    def start_scene(self, data: Mapping[str, Any]) -> None:
        kind = _words(data.get("kind")) or "new"
        number = _words(data.get("number")) or len(self.sections) + 1
        title = f"Scene {number}: {'an' if kind[0] in 'aeiou' else 'a'} {kind} scene"
        if data.get("difficulty") is not None:
            title += f", difficulty {_words(data.get('difficulty'))}"
        if data.get("location"):
            title += f", {_words(data.get('location'))}"
        self.scene = _Section(title)
        if data.get("present"):
            self.scene.intro.append(f"Present: {_words(data.get('present'))}.")
        self.sections.append(self.scene)

    def follow(self, event: Mapping[str, Any], by: Any) -> None:
        """Keep what later lines need: who plays whom, the scene's Crisis and Rising Tension, its end."""
        kind, data = event.get("type"), _map(event.get("data"))
        if kind in {"CharacterAdded", "HeroAdded"}:
            name = data.get("hero") or _map(data.get("sheet")).get("name")
            if name:
                self.plays[str(name)] = str(by)
        elif kind == "CharacterHanded":
            self.plays[str(data.get("character"))] = str(data.get("to") or "gm")
        section = self.current()
        if "crisis" in data and kind in {"CrisisRaised", "CrisisLowered", "TriggerFired"}:
            section.crisis = data.get("crisis")
        if "rising_tension" in data:
            section.tension = data.get("rising_tension")
        if kind == "SceneEnded" and self.scene is not None:
            self.scene = None


def _secret(event: Mapping[str, Any]) -> bool:
    return event.get("visibility") == "gm"


def _told(event: Mapping[str, Any]) -> bool:
    return event.get("type") not in _TABLE_ONLY


def _entries(events: Iterable[Mapping[str, Any]]) -> Iterable[tuple[Any, list[Mapping[str, Any]]]]:
    """The export's events as (entry number, its events), or (None, [one table fact outside any entry])."""
    group: list[Mapping[str, Any]] = []
    for event in events:
        entry = event.get("entry")
        if group and (entry is None or entry != group[0].get("entry")):
            yield group[0].get("entry"), group
            group = []
        if entry is None:
            yield None, [event]
        else:
            group.append(event)
    if group:
        yield group[0].get("entry"), group


def _part(record: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    return _map(record.get(key))


def _cast(reader: _Reader) -> list[str]:
    lines = ["## At the table", ""]
    for player_id, name in reader.players.items():
        characters = sorted(escape(c) for c, owner in reader.plays.items() if owner == player_id)
        lines.append(f"- {escape(name)}" + (f", playing {', '.join(characters)}" if characters else ""))
    gm_cast = sorted(escape(c) for c, owner in reader.plays.items() if owner == "gm")
    lines.append("- the GM" + (f", playing {', '.join(gm_cast)}" if gm_cast else ""))
    return lines


def _section(section: _Section, title: str) -> list[str]:
    lines = ["", f"## {title}", ""]
    if section.intro:
        lines += [*section.intro, ""]
    lines += section.lines
    closing = []
    if section.crisis is not None:
        closing.append(f"Crisis {_words(section.crisis)}")
    if section.tension is not None:
        closing.append(f"Rising Tension {_words(section.tension)}")
    if closing:
        lines += ["", f"It ended on {' and '.join(closing)}."]
    return lines


def _facts(record: Mapping[str, Any], reader: _Reader) -> list[str]:
    """The notes in force, then what ``talespin verify`` checks: the seeds and the chain head."""
    notes = [n for n in _part(record, "state").get("notes") or [] if isinstance(n, Mapping)]
    lines = ["", "## Notes", ""] if notes else []
    for note in notes:
        lines.append(f"- {_words(note.get('text'))}" + (" *(GM only)*" if _secret(note) else ""))
    lines += ["", "## Fair dice", ""]
    for number, seed in sorted(reader.seeds.items(), key=lambda item: str(item[0]).zfill(9)):
        told = f"revealed `{_code(seed['seed'])}`" if seed.get("seed") else "not revealed yet"
        lines.append(f"- seed {_words(number)}: SHA-256 `{_code(seed.get('commitment'))}`, {told}")
    head = _part(record, "chain").get("head")
    if head:
        lines += ["", f"Chain head: `{_code(head)}` (`talespin verify` checks it)."]
    return lines


def recap_markdown(record: Mapping[str, Any]) -> str:
    """A JSON export (``talespin-export/1``) as a readable session record in Markdown."""
    events = [e for e in record.get("events") or [] if isinstance(e, Mapping)]
    campaign = _part(record, "campaign")
    undone = {_map(e.get("data")).get("entry") for e in events if e.get("type") == "EntryUndone"}
    reader = _Reader(undone=undone)
    for number, grouped in _entries(events):
        for event in grouped:
            reader.table_fact(str(event.get("type")), _map(event.get("data")))
        if number is not None:
            reader.entry(number, grouped)
    system = _LABELS.get(str(campaign.get("system")), _words(campaign.get("system")))
    viewer = "the GM" if record.get("viewer") == "gm" else "a player"
    version = _words(record.get("version"))
    lines = [f"# {escape(campaign.get('name', 'A campaign'))}", ""]
    lines += [f"A session record of {escape(system)}, as {viewer} sees it, up to version {version}.", ""]
    lines += _cast(reader)
    scenes = any(section.title.startswith("Scene") for section in reader.sections)
    for section in reader.sections:
        if section.lines:
            lines += _section(section, section.title if scenes else "The session")
    lines += [*_facts(record, reader), ""]
    return "\n".join(lines)
