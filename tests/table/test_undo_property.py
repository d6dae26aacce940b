"""Undo as a property: whatever the sequence, the state is the replay of the entries not undone."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_fakes import MemoryStore
from table_sheets import SUSAN, susan_test

from talespin.systems import IllegalCommand, get_system
from talespin.table import TABLE_EVENTS, Ledger, TableService, Viewer
from talespin.table.ledger import system_event

_TEXT = st.characters(blacklist_categories=("Cc", "Cs")) | st.sampled_from("\n\t")
"""What a note may hold: any character but control characters (newline and tab aside) and surrogates."""
_steps = st.lists(
    st.one_of(
        st.just({"do": "undo"}),
        st.builds(
            lambda text: {"do": "note", "text": text},
            st.text(_TEXT, min_size=1, max_size=5).filter(str.strip),
        ),
        st.builds(lambda faces: susan_test(faces=faces), st.lists(st.integers(0, 9), min_size=3, max_size=3)),
        st.just(susan_test()),
    ),
    max_size=12,
)


def _replay_of_active(ledger: Ledger) -> Any:
    """The state folded from scratch over the system events of the entries not undone."""
    system = get_system("ascend")
    undone = {entry.version for entry in ledger.entries if entry.undone}
    state = system.new_state({"variant": {}})
    for stored in ledger.log:
        if stored.type not in TABLE_EVENTS and ledger.entry_of(stored.version) not in undone:
            state = system.evolve(state, system_event(stored))
    return state


@given(steps=_steps)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_state_is_the_replay_of_what_is_not_undone(steps: list[dict[str, Any]]) -> None:
    """After any mix of rolls, notes and undos, the cached state equals a replay of the active entries."""
    service = TableService(MemoryStore())
    made = service.create_campaign("Property", "ascend")
    gm = Viewer("gm")
    service.command(made.id, gm, {"do": "add_character", "sheet": SUSAN}, service.ledger(made.id).version)
    for step in steps:
        ledger = service.ledger(made.id)
        before = ledger.version
        try:
            service.command(made.id, gm, step, before)
        except IllegalCommand:  # nothing left to undo, or the hero itself was undone
            assert ledger.version == before
        system = ledger.system
        assert system.view(ledger.state, "gm") == system.view(_replay_of_active(ledger), "gm")
        rebuilt = Ledger.replay(made.id, service.store.events(made.id))
        assert system.view(rebuilt.state, "gm") == system.view(ledger.state, "gm")
        assert [n.text for n in rebuilt.notes()] == [n.text for n in ledger.notes()]
