"""Storage per address and idle games: who made each game, and what that address's games wrote
each day.

``game.created_by`` is a keyed hash of the address that created the game (never the address
itself); ``address_day`` adds up the bytes its games' changes write per day, so one address
cannot fill the disk (``COMPANION_MAX_BYTES_PER_ADDRESS``). ``game.updated_at`` gets an index:
games idle for ``COMPANION_GAME_TTL_DAYS`` are deleted. Existing games have no creator and
count for no address.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("created_by", sa.String(length=64), nullable=True))
        batch.create_index("ix_game_updated_at", ["updated_at"])
    op.create_table(
        "address_day",
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("bytes", sa.BigInteger(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("address", "day"),
    )


def downgrade() -> None:
    op.drop_table("address_day")
    with op.batch_alter_table("game") as batch:
        batch.drop_index("ix_game_updated_at")
        batch.drop_column("created_by")
