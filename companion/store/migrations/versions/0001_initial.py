"""The schema as it was when migrations began: game, seat, event (with event.data).

Written out by hand, not taken from the models, so it stays what it was whatever the models
become. It is what ``SQLModel.metadata.create_all`` made before, on SQLite and PostgreSQL
alike (a database made that way is stamped with this revision, see ``__init__.py``).

Revision ID: 0001
Revises:
Create Date: 2025-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=12), nullable=False),
        sa.Column("edition", sa.String(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(), nullable=False),
        sa.Column("host_token_hash", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_game_code", "game", ["code"], unique=True)
    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_seat_game_id", "seat", ["game_id"], unique=False)
    op.create_index("ix_seat_token_hash", "seat", ["token_hash"], unique=True)
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("actor_player", sa.Integer(), nullable=True),
        sa.Column("actor_host", sa.Boolean(), nullable=False),
        sa.Column("action", sa.String(), nullable=False),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("data", sa.String(), nullable=True),
        sa.Column("state_before", sa.String(), nullable=False),
        sa.Column("undone", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_event_game_id", "event", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_event_game_id", table_name="event")
    op.drop_table("event")
    op.drop_index("ix_seat_token_hash", table_name="seat")
    op.drop_index("ix_seat_game_id", table_name="seat")
    op.drop_table("seat")
    op.drop_index("ix_game_code", table_name="game")
    op.drop_table("game")
