"""The Inciting Incident balance report: one page a designer hands to playtesters.

Four sections, each computed from the rules data (and any variants) by the lab's own functions:

1. **What a level costs and what it buys** — point cost per Talent level against P(success) at the default
   difficulty, and the odds each extra point buys;
2. **Roll or pass automatically** — per base d6 count, the lowest Talent level whose roll costs less
   expected Crisis than the automatic pass (the crossover), under every variant;
3. **Crisis per scene by difficulty** — a reference scene analysed exactly at every difficulty, under
   always-roll and optimal play;
4. **Where a variant changes a player's best choice** — the cells (level × base d6, no net Advantage)
   where a variant turns "pass" into "roll" or back.

:func:`balance_report` computes; :meth:`BalanceReport.markdown` writes the page, naming the pictures the
caller drew (:mod:`.report_plot`). No I/O here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..systems.inciting_incident.rules import Rules, load_rules
from .ii_table import fast_grid
from .scene import analyse_scene
from .scene_spec import ComplexStep, Scene, parse_scene
from .variants import VariantComparison, compare

__all__ = ["REFERENCE_SCENE", "BalanceReport", "balance_report"]

REFERENCE_SCENE: dict[str, Any] = {
    "triggers": [{"at": 10, "every": 10, "text": "the pressure rises"}, {"at": 15, "text": "a setback"}],
    "characters": [
        {"name": "Ada", "talents": {"Piloting": 5, "Quickdraw": 3}},
        {"name": "Bram", "talents": {"Brawling": 4, "Climbing": 2}},
    ],
    "obstacles": [
        {"kind": "simple", "to": "Ada"},
        {"kind": "simple"},
        {"kind": "complex", "obstruction": 20, "attempts": 2},
    ],
}
"""The scene of section 3 when the designer names none: two Simple Obstacles and a Complex one."""

POLICIES = ("roll", "optimal")


@dataclass(frozen=True)
class BalanceReport:
    """Every figure of the page; ``markdown`` lays them out."""

    levels: tuple[int, ...]
    costs: tuple[int, ...]
    difficulty: int
    p_grid: tuple[tuple[float, ...], ...]
    """P(success) of a Talent roll per level, per base d6 1..9, shipped rules, no net Advantage."""
    crossover: dict[str, tuple[int | None, ...]]
    """Per variant, per base d6 1..9: the lowest level that should roll (None: none should)."""
    scene_crisis: dict[str, tuple[float, ...]]
    """Per policy, E[Crisis] of the reference scene at each difficulty 1..9."""
    scene_triggers: dict[str, tuple[tuple[float, ...], ...]]
    """Per policy, per difficulty, P(each Trigger fires)."""
    scene: Scene
    comparison: VariantComparison

    def changes(self, name: str) -> list[tuple[int, list[int], bool]]:
        """``(level, bases, now_rolls)`` where the variant changes the choice at net Advantage 0."""
        cmp = self.comparison
        zero = cmp.nets.index(0)
        base, other = cmp.rolls[cmp.names[0]][:, :, zero], cmp.rolls[name][:, :, zero]
        out = []
        for i, level in enumerate(cmp.levels):
            for now in (True, False):
                bases = [
                    cmp.bases[j]
                    for j in range(len(cmp.bases))
                    if other[i, j] != base[i, j] and other[i, j] == now
                ]
                if bases:
                    out.append((level, bases, now))
        return out

    def to_json(self) -> dict[str, Any]:
        """The figures, section by section."""
        return {
            "levels": list(self.levels),
            "costs": list(self.costs),
            "difficulty": self.difficulty,
            "p_success": [list(row) for row in self.p_grid],
            "crossover": {k: list(v) for k, v in self.crossover.items()},
            "scene_crisis": {k: list(v) for k, v in self.scene_crisis.items()},
            "scene_triggers": {k: [list(r) for r in v] for k, v in self.scene_triggers.items()},
            "changes": {
                n: [{"level": lv, "bases": b, "now": "roll" if r else "auto"} for lv, b, r in self.changes(n)]
                for n in self.comparison.names[1:]
            },
        }

    def markdown(self, images: Mapping[str, str]) -> str:
        """The page; ``images`` maps ``"cost"``, ``"scene"``, ``"variants"`` to the pictures' file names."""
        out = ["# Inciting Incident: balance report", ""]
        out += [
            "## 1. What a level costs and what it buys",
            "",
            f"A Talent roll at the default difficulty ({self.difficulty}d6) against the standard target.",
            "",
            "| level | point cost | P(success) | + P per extra point |",
            "|---|---|---|---|",
        ]
        p = [row[self.difficulty - 1] for row in self.p_grid]
        for k, level in enumerate(self.levels):
            gain = ""
            if k:
                extra = self.costs[k] - self.costs[k - 1]
                gain = f"{(p[k] - p[k - 1]) / extra:+.3f}" if extra else "—"
            out.append(f"| {level} | {self.costs[k]} | {p[k]:.1%} | {gain} |")
        out += _image(images, "cost", "P(success) against the points a Talent level costs")
        out += ["## 2. Roll or pass automatically", ""]
        out += ["The lowest Talent level whose roll costs less expected Crisis than the automatic pass:", ""]
        bases = range(1, len(next(iter(self.crossover.values()))) + 1)
        out += ["| variant | " + " | ".join(f"{b}d6" for b in bases) + " |", "|---|" + "---|" * len(bases)]
        for name, levels in self.crossover.items():
            out.append(f"| {name} | " + " | ".join("never" if v is None else str(v) for v in levels) + " |")
        out += ["", "## 3. Crisis per scene by difficulty", ""]
        out += [f"The scene: {_describe(self.scene)}. E[Crisis] (capped at the largest Trigger value):", ""]
        out += ["| policy | " + " | ".join(f"{d}d6" for d in bases) + " |", "|---|" + "---|" * len(bases)]
        for policy, row in self.scene_crisis.items():
            out.append(f"| {policy} | " + " | ".join(f"{v:.1f}" for v in row) + " |")
        for t, trigger in enumerate(self.scene.triggers):
            for policy, rows in self.scene_triggers.items():
                cells = " | ".join(f"{r[t]:.0%}" for r in rows)
                out.append(f"| P(Trigger at {trigger.at} fires), {policy} | {cells} |")
        out += _image(images, "scene", "Expected Crisis of the scene by difficulty")
        out += ["## 4. Where a variant changes a player's best choice", ""]
        if len(self.comparison.names) == 1:
            out += ["No variant was given: run `talespin lab report VARIANT.yaml …` to compare.", ""]
        for name in self.comparison.names[1:]:
            changes = self.changes(name)
            out.append(f"**{name}** changes {self.comparison.changed_choices(name)} cells of the full grid.")
            lines = [
                f"- Talent level {lv} at base {_span(b)}d6: now {'rolls' if r else 'passes automatically'}"
                for lv, b, r in changes
            ]
            out += ["", *(lines or ["- no change at net Advantage 0"]), ""]
        out += _image(images, "variants", "E[Crisis] difference and the choice per cell")
        return "\n".join(out).rstrip() + "\n"


def _image(images: Mapping[str, str], key: str, alt: str) -> list[str]:
    return ["", f"![{alt}]({images[key]})", ""] if key in images else [""]


def _span(bases: list[int]) -> str:
    """``5``, ``3–6`` for a run, else ``2, 4, 7``."""
    if len(bases) == 1:
        return str(bases[0])
    if bases == list(range(bases[0], bases[-1] + 1)):
        return f"{bases[0]}–{bases[-1]}"
    return ", ".join(map(str, bases))


def _describe(scene: Scene) -> str:
    names = ", ".join(f"{m.name} ({', '.join(f'{t} {lv}' for t, lv in m.talents)})" for m in scene.party)
    kinds = [
        f"a Complex Obstacle (Obstruction {s.obstruction}, {s.attempts} attempts)"
        if isinstance(s, ComplexStep)
        else "a Simple Obstacle"
        for s in scene.steps
    ]
    return f"{names}; {', '.join(kinds)}"


def _crossover(expected: np.ndarray, auto: int, levels: tuple[int, ...]) -> tuple[int | None, ...]:
    """Per base d6 (axis 1), the first level whose roll's E[Crisis] is below the automatic pass's."""
    out: list[int | None] = []
    for b in range(expected.shape[1]):
        rolls = [levels[i] for i in range(expected.shape[0]) if expected[i, b] < auto]
        out.append(rolls[0] if rolls else None)
    return tuple(out)


def balance_report(
    variants: Mapping[str, Any] | None = None, scene: Mapping[str, Any] | None = None
) -> BalanceReport:
    """Compute the report for the shipped rules and each named variant (rules overrides)."""
    named: dict[str, Any] = {"shipped": {}, **(variants or {})}
    rules: Rules = load_rules()
    levels = tuple(range(rules.levels.min, rules.levels.max + 1))
    top = rules.roll.difficulty.max
    p, _ = fast_grid(max_base=top, max_net=0, rules=rules)
    difficulty = rules.roll.difficulty.default
    crossover = {}
    for name, overrides in named.items():
        variant = load_rules(overrides or None)
        _, expected = fast_grid(max_base=top, max_net=0, rules=variant)
        crossover[name] = _crossover(expected[:, :, 0], variant.crisis.auto, levels)
    reference = parse_scene(scene or REFERENCE_SCENE, rules)
    crisis: dict[str, tuple[float, ...]] = {}
    triggers: dict[str, tuple[tuple[float, ...], ...]] = {}
    for policy in POLICIES:
        runs = [
            analyse_scene(_at(reference, d), rules, policy=policy)
            for d in range(rules.roll.difficulty.min, top + 1)
        ]
        crisis[policy] = tuple(a.expected_crisis for a in runs)
        triggers[policy] = tuple(tuple(t.p_fires for t in a.triggers) for a in runs)
    return BalanceReport(
        levels,
        tuple(rules.levels.cost[lv] for lv in levels),
        difficulty,
        tuple(tuple(float(x) for x in row) for row in p[:, :, 0]),
        crossover,
        crisis,
        triggers,
        reference,
        compare(named, max_base=top, max_net=rules.ladder[-1].at_least),
    )


def _at(scene: Scene, difficulty: int) -> Scene:
    """The scene with every obstacle at ``difficulty``."""
    return replace(
        scene, difficulty=difficulty, steps=tuple(replace(s, difficulty=difficulty) for s in scene.steps)
    )
