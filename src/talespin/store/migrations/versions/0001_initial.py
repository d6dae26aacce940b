"""Campaigns, players and the append-only event log.

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables; ``(campaign_id, version)`` is the events' primary key."""
    op.create_table(
        "campaigns",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("system", sa.String(64), nullable=False),
        sa.Column("variant", sa.JSON, nullable=False),
        sa.Column("gm_token_hash", sa.String(64), nullable=False),
        sa.Column("invite_token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("campaign_id", sa.String(64), sa.ForeignKey("campaigns.id"), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("joined_at", sa.String(40), nullable=False),
    )
    op.create_index("ix_players_campaign_id", "players", ["campaign_id"])
    op.create_table(
        "events",
        sa.Column("campaign_id", sa.String(64), sa.ForeignKey("campaigns.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("visibility", sa.String(16), nullable=False),
        sa.Column("actor", sa.Text, nullable=True),
        sa.Column("at", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    """Drop the tables, newest first."""
    op.drop_table("events")
    op.drop_index("ix_players_campaign_id", "players")
    op.drop_table("players")
    op.drop_table("campaigns")
