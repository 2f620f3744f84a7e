"""What a game's event log stores, kept on the game row, and how far back its log is compacted.

A game's storage is bounded (``COMPANION_MAX_GAME_BYTES``, see ``companion/store.py``). Summing
the log at every tap would cost what the game's history costs, so ``game.log_bytes`` keeps the
bytes its events store, updated in the same UPDATE as each change (and lowered when old events
are compacted). ``game.compacted_below`` is the event id below which the log holds nothing
undo can still use, so compaction looks only at what came after. Existing games are counted
here, once.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

EVENT_ROW_BYTES = 48  # the fixed columns of an event row (ids, flags, time): store.EVENT_ROW_BYTES


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("log_bytes", sa.BigInteger(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("compacted_below", sa.Integer(), nullable=False, server_default="0"))
    op.execute(sa.text(
        "UPDATE game SET log_bytes = (SELECT COALESCE(SUM(LENGTH(event.action) + LENGTH(event.text) "
        "+ COALESCE(LENGTH(event.data), 0) + LENGTH(event.state_before) + :row), 0) "
        "FROM event WHERE event.game_id = game.id)").bindparams(row=EVENT_ROW_BYTES))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("compacted_below")
        batch.drop_column("log_bytes")
