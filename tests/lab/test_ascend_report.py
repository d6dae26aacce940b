"""The Ascend balance report: its figures against independent binomial arithmetic, and its page on disk."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from typer.testing import CliRunner

from talespin.cli import app
from talespin.lab.ascend_report import REFERENCE_HERO, ascend_report

TENTH = Fraction(1, 10)


def p_die(target: int, size: int = 10) -> Fraction:
    """One die read 0..size−1 is a Success at or under the Target (AS-TEST-3), clamped."""
    return min(max(Fraction(target + 1, size), Fraction(0)), Fraction(1))


def binomial(n: int, p: Fraction) -> list[Fraction]:
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def p_at_least(n: int, target: int, k: int = 1, size: int = 10) -> Fraction:
    return sum(binomial(n, p_die(target, size))[k:], Fraction(0))


@pytest.fixture(scope="module")
def report():
    return ascend_report({"two of a kind": {"pool": {"per_kind": 2}}, "d12": {"die": {"size": 12}}})


def test_grid_is_one_minus_the_chance_that_every_die_misses(report) -> None:
    """P(1+ Successes) of n dice at Target t is 1 − (1 − (t+1)/10)^n, exactly, on the whole grid."""
    # rule: AS-ODDS-1
    # rule: AS-TEST-3
    assert report.required == 1
    for t in report.targets:
        for n in report.pools:
            assert report.p_grid[t][n] == 1 - (1 - p_die(t)) ** n, (t, n)
    assert report.p_grid[3][4] == Fraction(8704, 10000)  # 1 − 0.6⁴
    assert report.p_grid[0][0] == 0 and report.p_grid[9][1] == 1


def test_a_skill_point_beats_a_die_where_the_closed_forms_cross(report) -> None:
    """+1 Skill adds q^n − (q − 1/10)^n; +1 die adds q^n · p: the first pool where the first is larger."""
    # rule: AS-TEST-2
    # rule: AS-POOL-1
    want = []
    for t in range(9):
        p = p_die(t)
        q = 1 - p
        want.append(next((n for n in range(1, 13) if q**n - (q - TENTH) ** n > q**n * p), None))
    assert report.skill_beats_die == tuple(want)
    assert report.skill_beats_die[3] == 3  # 3 dice at Target 3: 0.091 for the Skill, 0.0864 for a die


def test_even_odds_pool_moves_with_a_bigger_die_as_the_binomial_says(report) -> None:
    """With d12s, the fewest dice for P ≥ 1/2 is recomputed from the binomial for every Target × required."""
    changes = {(t, k): (b, a) for t, k, b, a in report.even_changes("d12")}

    def fewest(t: int, k: int, size: int) -> int:
        return next((n for n in range(13) if p_at_least(n, t, k, size) >= Fraction(1, 2)), -1)

    want = {}
    for t in range(12):  # d12 ratings still stop at 9, the grid's Targets too
        if t > 9:
            break
        for k in (1, 2, 3):
            before, after = fewest(t, k, 10), fewest(t, k, 12)
            if before != after:
                want[(t, k)] = (before, after)
    assert changes == want
    assert changes[(4, 1)] == (1, 2)  # one d10 at Target 4 is exactly even; one d12 is 5/12
    assert report.even_changes("two of a kind") == []


def test_extended_odds_match_a_plain_convolution_of_binomials(report) -> None:
    """P(goal within n Tests) by convolving each Test's Successes, capped at the goal, in plain Python."""
    # rule: AS-EXT-1
    # rule: AS-ODDS-2
    ext = report.extended
    assert (ext.target, ext.goal, ext.limit) == (3, 5, 6)
    for pool, row in zip(ext.pools, ext.within, strict=True):
        step = binomial(pool, p_die(ext.target))
        running = {0: Fraction(1)}
        for n in range(ext.limit):
            nxt: dict[int, Fraction] = {}
            for have, p in running.items():
                for got, q in enumerate(step):
                    total = min(have + got, ext.goal)
                    nxt[total] = nxt.get(total, Fraction(0)) + p * q
            running = nxt
            assert row[n] == running.get(ext.goal, 0), (pool, n)
    assert float(ext.within[1][3]) == pytest.approx(0.8334, abs=5e-5)  # 4d10 within 4 Tests


def test_opposed_odds_under_both_tie_rules_match_a_double_sum(report) -> None:
    """Win = Σ P(a) P(d) over a > d; a tie to the defender leaves win, a reroll gives win · Σ tie^k."""
    # rule: AS-OPP-1
    opp = report.opposed
    for i, a in enumerate(opp.attacker_pools):
        for j, d in enumerate(opp.defender_pools):
            pa = binomial(a, p_die(opp.attacker_target))
            pd = binomial(d, p_die(opp.defender_target))
            win = sum(x * y for s, x in enumerate(pa) for f, y in enumerate(pd) if s > f)
            tie = sum(x * y for s, x in enumerate(pa) for f, y in enumerate(pd) if s == f)
            assert opp.wins["defender"][i][j] == win
            assert opp.ties[i][j] == tie
            assert opp.wins["reroll"][i][j] == win * sum(tie**k for k in range(11))  # reroll_limit 10
    equal = opp.wins["reroll"][1][1]  # 4d10 against 4d10: just under a half (a tie can outlast 10 rerolls)
    assert equal < Fraction(1, 2) and float(equal) == pytest.approx(0.5, abs=1e-5)


def test_narration_value_is_the_best_items_added_in_order(report) -> None:
    """The best pool takes each kind's highest rating, narration the highest left, exceptional two."""
    # rule: AS-POOL-2
    # rule: AS-POOL-3
    items = {k: sorted(REFERENCE_HERO[k].values(), reverse=True) for k in ("traits", "backgrounds", "aids")}
    base = sum(v[0] for v in items.values())
    rest = sorted((r for v in items.values() for r in v[1:]), reverse=True)
    pools = (base, base + rest[0], base + rest[0] + rest[1])
    assert pools == (7, 9, 10)
    ratings = {**REFERENCE_HERO["skills"], **REFERENCE_HERO["convictions"]}
    for row in report.narration.rows:
        assert row.pools == pools
        assert row.best == tuple(1 - (1 - p_die(ratings[row.name])) ** n for n in pools)
    persuasion = next(r for r in report.narration.rows if r.name == "Persuasion")
    assert float(persuasion.gains[0]) == pytest.approx(0.8658 - 0.7903, abs=1e-4)


def test_a_variant_changes_the_best_choice_only_where_it_picks_other_items(report) -> None:
    """Two items a kind: every best pool grows to both of each kind; a d12 keeps every choice, lowers P."""
    doubled = report.choices["two of a kind"]
    assert all(c.changed for c in doubled)
    none = [c for c in doubled if c.narration == "none"]
    all_items = sum(sum(REFERENCE_HERO[k].values()) for k in ("traits", "backgrounds", "aids"))
    assert all(c.after.endswith("(11 dice)") for c in none)  # 3+2 traits, 2+1 backgrounds, 2+1 aids
    assert all(c.after.endswith(f"({all_items} dice)") for c in doubled if c.narration != "none")
    bigger = report.choices["d12"]
    assert not any(c.changed for c in bigger)
    athletics = next(c for c in bigger if c.test == "Athletics (skill)" and c.narration == "none")
    assert athletics.after_p == 1 - (1 - Fraction(4, 12)) ** 7
    assert athletics.before_p == 1 - (1 - Fraction(4, 10)) ** 7


def test_page_states_the_figures(report) -> None:
    """The page's tables carry the exact figures rounded; no variant gives the hint to compare."""
    page = report.markdown({"cost": "c.png"})
    for heading in ("## 1.", "## 2.", "## 3.", "## 4.", "## 5.", "## 6."):
        assert heading in page
    assert "![P(success) against the rating points in the pool](c.png)" in page
    assert "| 4d10 | 59.0% | +8.2% | 87.0% | +5.2% | 97.4% | +1.5% |" in page
    assert "| 4d10 | 59.4% / 81.1% | 36.0% / 50.0% |" in page
    assert "in 0 of 12 Tests × narration" in page  # d12: no other items picked
    bare = ascend_report().markdown({})
    assert "No variant was given" in bare and "![" not in bare


def test_report_command_writes_the_ascend_page_and_keeps_the_other_system_apart(tmp_path: Path) -> None:
    """``--system ascend`` writes the page and its six pictures; --scene with it is refused with exit 2."""
    variant = tmp_path / "d12.yaml"
    variant.write_text("die: {size: 12}\n")
    hero = tmp_path / "hero.yaml"
    hero.write_text("name: Mira\nskills: {Lore: 5}\ntraits: {Wits: 3}\naids: {Tome: 2}\n")
    out = tmp_path / "report"
    args = ["lab", "report", "--system", "ascend", str(variant), "--hero", str(hero), "--out", str(out)]
    done = CliRunner().invoke(app, [*args, "--json"])
    assert done.exit_code == 0, done.output
    body = json.loads(done.stdout)
    assert body["system"] == "ascend" and Path(body["report"]).name == "ascend-report.md"
    page = Path(body["report"]).read_text(encoding="utf-8")
    assert "Mira at Difficulty 0" in page and "**d12**" in page
    assert len(body["images"]) == 6
    for image in body["images"]:
        assert Path(image).read_bytes().startswith(b"\x89PNG")
        assert f"]({Path(image).name})" in page
    lore = body["narration"]["rows"][0]
    assert lore["none"]["pool"] == 5 and lore["none"]["p_success_exact"] == str(1 - Fraction(4, 10) ** 5)
    refused = CliRunner().invoke(app, [*args, "--scene", str(hero), "--json"])
    assert refused.exit_code == 2 and "--hero" in json.loads(refused.stdout)["error"]["message"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: X\nskills: {Lore: 12}\n")
    refused = CliRunner().invoke(app, ["lab", "report", "--system", "ascend", "--hero", str(bad), "--json"])
    assert refused.exit_code == 2 and json.loads(refused.stdout)["error"]["rule"] == "AS-HERO-2"
