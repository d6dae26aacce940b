"""Every numbered rule of both games is named by at least one test that exercises it.

The numbered rules live in ``docs/rules/`` (a copy of the project's shared rules documents). A test names
the rules it checks in a comment ``# rule: II-COMPLEX-4`` (several IDs may follow one ``rule:``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES_DIR = ROOT / "docs" / "rules"
SHARED_RULES_DIR = ROOT.parent / "shared" / "rules"
RULE_ID = re.compile(r"\*\*((?:II|AS)-[A-Z]+-\d+)\*\*")
NAMED = re.compile(r"#\s*rule:([^\n]*)")
ID_IN_COMMENT = re.compile(r"\b(?:II|AS)-[A-Z]+-\d+\b")


def _documented_ids() -> set[str]:
    ids: set[str] = set()
    for document in sorted(RULES_DIR.glob("*.md")):
        ids.update(RULE_ID.findall(document.read_text(encoding="utf-8")))
    return ids


def _named_ids() -> set[str]:
    named: set[str] = set()
    for test_file in (ROOT / "tests").rglob("*.py"):
        if test_file.name == Path(__file__).name:
            continue
        for comment in NAMED.findall(test_file.read_text(encoding="utf-8")):
            named.update(ID_IN_COMMENT.findall(comment))
    return named


def test_the_rules_documents_are_found() -> None:
    """Both games' numbered rules are present, so the coverage check below has something to count."""
    ids = _documented_ids()
    assert any(i.startswith("II-") for i in ids)
    assert any(i.startswith("AS-") for i in ids)
    assert len(ids) > 60


def test_every_rule_is_named_by_a_test() -> None:
    """No rule ID of the rules documents goes unnamed by the test suite."""
    missing = sorted(_documented_ids() - _named_ids())
    assert not missing, f"rules that no test names with '# rule: …': {', '.join(missing)}"


def test_tests_name_only_real_rules() -> None:
    """A '# rule:' comment never names an ID the documents do not have (a typo would hide a gap)."""
    unknown = sorted(_named_ids() - _documented_ids())
    assert not unknown, f"tests name rule IDs that do not exist: {', '.join(unknown)}"


@pytest.mark.skipif(not SHARED_RULES_DIR.is_dir(), reason="no shared rules folder beside this checkout")
def test_the_rules_copy_is_current() -> None:
    """docs/rules/ matches the shared rules documents it was copied from."""
    for shared in sorted(SHARED_RULES_DIR.glob("*.md")):
        copy = RULES_DIR / shared.name
        assert copy.is_file(), f"docs/rules/{shared.name} is missing"
        assert copy.read_text(encoding="utf-8") == shared.read_text(encoding="utf-8"), (
            f"docs/rules/{shared.name} differs from the shared rules document"
        )
