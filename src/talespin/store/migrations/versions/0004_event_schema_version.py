"""Events record the event schema version they were written in (``events.schema_version``).

Every existing row gets 0. The ``"schema"`` key (and ``EVENT_SCHEMA = 1``) came in on 2026-12-03, after the
``events`` table (2026-12-02), and the store never recorded it: a row may have been written before versions
were recorded or after, and 0 is the one version true of both. It reads right either way, because version 0
had the shapes of version 1 (the upcaster from 0 only adds the key, :mod:`talespin.table.upcast`). New rows
carry the version their writer wrote them in; the column keeps 0 as its default.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``events.schema_version`` (whole number, not null), 0 on every row already there."""
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("schema_version", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop ``events.schema_version``: events read back as version 0 again."""
    with op.batch_alter_table("events") as batch:
        batch.drop_column("schema_version")
