"""Rate buckets: the limits that several server processes on one PostgreSQL share (campaigns made, joins).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``rate_buckets``: each bucket's level and when it was last taken from (seconds since 1970)."""
    op.create_table(
        "rate_buckets",
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("level", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop ``rate_buckets``: the limits start full again."""
    op.drop_table("rate_buckets")
