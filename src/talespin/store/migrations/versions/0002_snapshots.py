"""Snapshots: a campaign's folded ledger at a version, tagged with the fingerprint of the code that folded it.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``snapshots``, keyed by campaign, version and fingerprint."""
    op.create_table(
        "snapshots",
        sa.Column("campaign_id", sa.String(64), sa.ForeignKey("campaigns.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("fingerprint", sa.String(64), primary_key=True),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    """Drop ``snapshots``; the event log alone still rebuilds every campaign."""
    op.drop_table("snapshots")
