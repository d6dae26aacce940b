"""The pages' own modules, run in the browser: SHA-256 and seed checks, the sheet reader, faces, charts."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from talespin.documents import parse_document

pytestmark = pytest.mark.browser

SHEETS = [
    # The contract's Inciting Incident example, with a comment and a flow mapping inside a block list.
    """\
name: Ada  # the pilot
abilities: {fortitude: 3, perseverance: 4, nimbleness: 5}
talents:
  - name: Piloting
    ability: nimbleness
    level: 5
    description: Flies anything with wings or thrusters.
    limitations: [only vehicles she has studied]
    skills:
      - {name: Barrel Roll, cost: 4, kind: modifier, text: "…", effects: {advantage: 2}}
""",
    # The contract's Ascend example, all in flow style.
    "{name: Susan, skills: {Athletics: 3}, convictions: {Protect the weak: 4}, traits: {Agility: 3, "
    "Strength: 2}, backgrounds: {Avanus: 1}, aids: {}}",
    # Quoted keys and values, a list at the key's own indentation, a literal block, booleans and nulls.
    """\
name: "Bram: the elder"
traits:
  'Iron Will': 2
notes: |
  First line.
  Second line.
items:
- one
- 2
- true
- ~
""",
    # What a home-made reader gets wrong: `yes` is text, `010` is YAML 1.1's 8, the last repeated key wins.
    "answer: yes\nlevel: 010\nname: Ann\nname: Bo\n",
]


@pytest.fixture
def page(new_page: Any) -> Any:
    """A page of the app, so its modules can be imported from their real URLs."""
    page = new_page()
    page.goto("/")
    return page


@pytest.mark.parametrize("size", [0, 3, 55, 56, 63, 64, 65, 1000])
def test_the_sha256_fallback_agrees_with_hashlib(page: Any, size: int) -> None:
    """The plain-JavaScript SHA-256 (for pages without crypto.subtle) gives the standard digest."""
    data = bytes((i * 7 + 3) % 256 for i in range(size))
    digest = page.evaluate(
        "async (bytes) => (await import('/js/fairness.js'))._sha256Fallback(new Uint8Array(bytes))",
        list(data),
    )
    assert digest == hashlib.sha256(data).hexdigest()


def test_a_seed_matches_its_commitment_and_a_changed_seed_does_not(page: Any) -> None:
    """verifySeed hashes the bytes a hex seed spells and compares with the commitment."""
    seed = bytes(range(32))
    commitment = hashlib.sha256(seed).hexdigest()
    check = "async ([s, c]) => (await import('/js/fairness.js')).verifySeed(s, c)"
    assert page.evaluate(check, [seed.hex(), commitment])["ok"] is True
    tampered = "ff" + seed.hex()[2:]
    result = page.evaluate(check, [tampered, commitment])
    assert result["ok"] is False
    assert result["computed"] == hashlib.sha256(bytes.fromhex(tampered)).hexdigest()


@pytest.mark.parametrize("text", SHEETS)
def test_the_sheet_reader_reads_yaml_as_the_cli_does(page: Any, text: str) -> None:
    """A pasted sheet reads in the browser exactly as the CLI's document reader reads the file."""
    parsed = page.evaluate("async (t) => (await import('/js/sheetio.js')).readData(t)", text)
    assert parsed == parse_document(text, "yaml")


def test_the_sheet_reader_reads_json(page: Any) -> None:
    """A JSON sheet reads as JSON."""
    sheet = {"name": "Ada", "abilities": {"fortitude": 3}, "talents": [{"name": "X", "limitations": []}]}
    read = "async (t) => (await import('/js/sheetio.js')).readData(t, 'json')"
    assert page.evaluate(read, json.dumps(sheet)) == sheet


def test_the_sheet_reader_passes_on_the_servers_refusal(page: Any) -> None:
    """Text the server cannot read is refused with its message and code, not read some other way."""
    refused = page.evaluate(
        """async (t) => {
            try { await (await import('/js/sheetio.js')).readData(t); return null; }
            catch (err) { return { code: err.code, message: err.message }; }
        }""",
        "name: Eve\n  skills: [unclosed",
    )
    assert refused["code"] == "unparsable_file"
    assert refused["message"].startswith("cannot parse the text: is not valid YAML")


def test_physical_faces_are_read_as_chains_or_a_flat_pool(page: Any) -> None:
    """Faces typed as "6,2; 3" become chains for Inciting Incident and a flat list for Ascend."""
    read = "async ([t, chained]) => (await import('/js/ui.js')).parseFaces(t, chained)"
    assert page.evaluate(read, ["6,2; 3;4", True]) == [[6, 2], [3], [4]]
    assert page.evaluate(read, ["0 3 9, 4", False]) == [0, 3, 9, 4]
    assert page.evaluate(read, ["", True]) is None


def test_the_chart_shades_the_outcomes_that_succeed(page: Any) -> None:
    """Bars at or above the threshold are drawn as successes; the last capped bar is labelled "≥"."""
    result = page.evaluate(
        """async () => {
            const { distributionChart } = await import('/js/chart.js');
            const svg = distributionChart([[18, 0.2], [19, 0.3], [20, 0.5]], { threshold: 19, capped: true });
            return { wins: svg.querySelectorAll('rect.win').length, bars: svg.querySelectorAll('rect').length,
                     text: svg.textContent };
        }"""
    )
    assert (result["wins"], result["bars"]) == (2, 3)
    assert "≥20" in result["text"]


def test_an_exploded_chain_marks_every_die_that_exploded(page: Any) -> None:
    """A chain 6, 6, 2 on a d6 shows three dice, the first two marked as exploded."""
    marked = page.evaluate(
        """async () => {
            const { chainEl } = await import('/js/dice.js');
            const el = chainEl({ size: 6, faces: [6, 6, 2] });
            return [...el.querySelectorAll('.die')].map((d) => d.classList.contains('max'));
        }"""
    )
    assert marked == [True, True, False]


def test_the_log_keeps_entries_newest_first_and_strikes_undone_ones(page: Any) -> None:
    """Events arriving out of order still list newest first; an EntryUndone strikes its entry, once."""
    result = page.evaluate(
        """async () => {
            const { EntryLog } = await import('/js/log.js');
            const list = document.createElement('ol');
            const log = new EntryLog(list);
            const issued = (v, cmd) => ({ version: v, entry: v, type: 'CommandIssued',
                                          data: { command: cmd, by: 'gm' } });
            log.add(issued(5, { do: 'note', text: 'b' }));
            log.add(issued(3, { do: 'note', text: 'a' }));
            log.add({ version: 4, entry: 3, type: 'NoteAdded', data: { text: 'a' } });
            log.add(issued(7, { do: 'undo' }));
            const undo = { version: 8, entry: 7, type: 'EntryUndone', data: { entry: 5, do: 'note' } };
            log.add(undo);
            const again = log.add(undo);
            return { order: [...list.children].map((li) => li.dataset.entry),
                     undone: [...list.querySelectorAll('li.undone')].map((li) => li.dataset.entry), again };
        }"""
    )
    assert result == {"order": ["7", "5", "3"], "undone": ["5"], "again": False}
