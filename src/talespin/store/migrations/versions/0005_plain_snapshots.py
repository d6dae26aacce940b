"""Snapshots are plain data now: every snapshot stored before this revision (a pickled ledger) is deleted.

Until 0005 the table saved a campaign's snapshot as its ledger pickled (format 1). Unpickling runs whatever
code the bytes name, so the table no longer reads that format at all (:mod:`talespin.table.snapshots`
writes and reads zlib-compressed JSON, format 2, checked before use). Every row already in ``snapshots``
is of format 1 — this revision comes before any code that writes format 2 — so all of them are deleted:
none could be used, and none is kept to be unpickled by anything. The table's columns do not change. Each
campaign is replayed from its events once, on first load, and saved again as a format 2 snapshot.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Delete every stored snapshot (all are pickled ledgers of format 1)."""
    op.execute(sa.text("DELETE FROM snapshots"))


def downgrade() -> None:
    """Nothing to bring back: the deleted snapshots only saved time, and the events rebuild every ledger."""
