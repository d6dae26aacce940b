"""The Markdown page of the Ascend balance report (:mod:`.ascend_report`): its six sections as tables.

Percentages are rounded for reading; the report's ``to_json`` keeps every figure exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .ascend_report import AscendReport

__all__ = ["page"]

_LISTED = 12
"""At most this many even-odds changes are listed one by one per variant; the rest are counted."""


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def _image(images: Mapping[str, str], key: str, alt: str) -> list[str]:
    return ["", f"![{alt}]({images[key]})", ""] if key in images else [""]


def _pct(p: Fraction | float) -> str:
    return f"{float(p):.1%}"


def _dice(n: int | None) -> str:
    return "—" if n is None or n < 0 else f"{n}d10"


def _count(n: int) -> str:
    return "more than the grid's" if n < 0 else str(n)


def _costs(report: AscendReport, images: Mapping[str, str]) -> list[str]:
    targets = report.cost_targets
    out = [
        "## 1. What a rating point buys",
        "",
        "Traits, Backgrounds and Aids have no price but their ratings, and each point of rating is one d10",
        f"in the pool. P(success) ({report.required}+ Successes) by the pool's size at a hard, a middling",
        "and an easy Target, and what the next point adds:",
        "",
    ]
    head = ["pool (rating points)"]
    for t in targets:
        head += [f"Target {t}", "+ next point"]
    rows = []
    for n in report.pools:
        row = [f"{n}d10"]
        for t in targets:
            p = report.p_grid[t][n]
            gain = report.p_grid[t][n + 1] - p if n + 1 < len(report.pools) else None
            row += [_pct(p), "" if gain is None else f"{float(gain):+.1%}"]
        rows.append(row)
    out += _table(head, rows)
    out += _image(images, "cost", "P(success) against the rating points in the pool")
    out += [
        "A point on the Skill raises the Target by one instead of adding a die. From this pool on, a Skill",
        "point buys more P(success) than a point on a Trait, Background or Aid:",
        "",
    ]
    out += _table(
        ["Target", *(str(t) for t in report.targets[:-1])],
        [["Skill point beats a die from", *(_dice(n) for n in report.skill_beats_die)]],
    )
    return [*out, ""]


def _grid(report: AscendReport, images: Mapping[str, str]) -> list[str]:
    cmp = report.comparison
    out = [
        "## 2. P(success) per Target × pool",
        "",
        f"{report.required}+ Successes required, the rules as shipped:",
        "",
    ]
    out += _table(
        ["Target \\ pool", *(f"{n}d10" for n in report.pools[1:])],
        [[str(t), *(_pct(p) for p in row[1:])] for t, row in zip(report.targets, report.p_grid, strict=True)],
    )
    out += _image(images, "grid", "P(success) per Target and pool")
    even = cmp.dice_for_even_odds[cmp.names[0]]
    out += [f"The fewest dice for even odds (— : more than {cmp.pools[-1]}):", ""]
    out += _table(
        ["Target", *(f"{k}+ Successes" for k in cmp.required)],
        [[str(t), *(_dice(int(even[t, k - 1])) for k in cmp.required)] for t in cmp.targets],
    )
    return [*out, ""]


def _narration(report: AscendReport, images: Mapping[str, str]) -> list[str]:
    table = report.narration
    out = [
        "## 3. The value of narration",
        "",
        f"{table.hero} at Difficulty {table.difficulty}, {table.required}+ Successes required: the best pool",
        "for each Test without narration, narrated (one Invoke) and exceptional (two Invokes):",
        "",
    ]
    rows = [
        [
            f"{r.name} ({r.kind})",
            str(r.target),
            *(f"{_pct(p)} ({n}d10)" for p, n in zip(r.best, r.pools, strict=True)),
            *(f"{float(g):+.1%}" for g in r.gains),
        ]
        for r in table.rows
    ]
    out += _table(["Test", "Target", "none", "narrated", "exceptional", "+ narration", "+ exceptional"], rows)
    out += _image(images, "narration", "Best P(success) per Test at each narration level")
    return out


def _extended(report: AscendReport, images: Mapping[str, str]) -> list[str]:
    ext = report.extended
    out = [
        "## 4. Extended Tests",
        "",
        f"Accumulating {ext.goal} Successes at Target {ext.target}: P(the goal is reached within n Tests):",
        "",
    ]
    rows = [[f"{pool}d10", *(_pct(p) for p in row)] for pool, row in zip(ext.pools, ext.within, strict=True)]
    out += _table(["pool", *(f"≤ {n} Tests" for n in range(1, ext.limit + 1))], rows)
    out += _image(images, "extended", "P(reaching the goal within n Tests) per pool")
    return out


def _opposed(report: AscendReport, images: Mapping[str, str]) -> list[str]:
    opp = report.opposed
    out = [
        "## 5. Opposed Tests",
        "",
        f"Target {opp.attacker_target} against Target {opp.defender_target}. P(the attacker wins) with a tie",
        "going to the defender / with a tie rolled again:",
        "",
    ]
    rows = [
        [
            f"{a}d10",
            *(
                f"{_pct(opp.wins['defender'][i][j])} / {_pct(opp.wins['reroll'][i][j])}"
                for j in range(len(opp.defender_pools))
            ),
        ]
        for i, a in enumerate(opp.attacker_pools)
    ]
    out += _table(["attacker \\ defender", *(f"{d}d10" for d in opp.defender_pools)], rows)
    equal = [
        (a, opp.ties[i][opp.defender_pools.index(a)])
        for i, a in enumerate(opp.attacker_pools)
        if a in opp.defender_pools
    ]
    if equal:
        ties = ", ".join(f"{a}d10 {_pct(p)}" for a, p in equal)
        out += ["", f"P(one roll ties) with equal pools: {ties}. The tie rule decides that share."]
    out += _image(images, "opposed", "P(the attacker wins) under both tie rules")
    return out


def _variants(report: AscendReport, images: Mapping[str, str]) -> list[str]:
    cmp = report.comparison
    out = ["## 6. Where a variant changes a Hero's best choice", ""]
    if not report.choices:
        return [*out, "No variant was given: run `talespin lab report --system ascend VARIANT.yaml …`.", ""]
    pairs = len(cmp.targets) * len(cmp.required)
    for name, choices in report.choices.items():
        even = report.even_changes(name)
        out += [f"**{name}** changes the fewest dice for even odds in {len(even)} of {pairs} (Target,"]
        out += ["Successes required) pairs" + (":" if even else "."), ""]
        out += [
            f"- Target {t}, {k}+ Successes: {_count(before)} → {_count(after)} dice"
            for t, k, before, after in even[:_LISTED]
        ]
        if len(even) > _LISTED:
            out.append(f"- … and {len(even) - _LISTED} more")
        shifts = [float(c.after_p - c.before_p) for c in choices]
        changed = [c for c in choices if c.changed]
        hero = report.narration.hero
        out += [
            *([""] if even else []),
            f"{hero}'s best pools pick other items in {len(changed)} of {len(choices)} Tests × narration",
            f"levels; their P(success) moves by {min(shifts):+.1%} to {max(shifts):+.1%}.",
            "",
        ]
        rows = [
            [c.test, c.narration, f"{c.before}: {_pct(c.before_p)}", f"{c.after}: {_pct(c.after_p)}"]
            for c in changed
        ]
        out += [*(_table(["Test", "narration", "shipped", name], rows) if rows else []), ""]
    out += _image(images, "variants", "P(success) difference per Target and pool, fewest dice for even odds")
    return out


def page(report: AscendReport, images: Mapping[str, str]) -> str:
    """The whole page; ``images`` maps a section's picture key to its file name."""
    out = [
        "# Ascend: balance report",
        "",
        "Exact odds of the rules as shipped (d10s read 0–9; a die at or under the Target is a Success),",
        "rounded for reading.",
        "",
    ]
    for section in (_costs, _grid, _narration, _extended, _opposed, _variants):
        out += section(report, images)
    return "\n".join(out).rstrip() + "\n"
