"""A game's house cards in a column of their own beside its state.

A table may hold hundreds of house cards (a few hundred KB); inside the state JSON they were
written again with every tap. Now ``game.house_cards`` holds them (a JSON list, written only
when they change) and ``game.state`` the rest. Existing games are moved over here, once.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("house_cards", sa.String(), nullable=False, server_default="[]"))
    connection = op.get_bind()
    game = sa.table("game", sa.column("id", sa.Integer()), sa.column("state", sa.String()),
                    sa.column("house_cards", sa.String()))
    for game_id, text in connection.execute(sa.select(game.c.id, game.c.state)).all():
        state = json.loads(text)
        if "house_cards" not in state:
            continue
        cards = state.pop("house_cards")
        connection.execute(sa.update(game).where(game.c.id == game_id)
                           .values(state=json.dumps(state), house_cards=json.dumps(cards or [])))


def downgrade() -> None:
    connection = op.get_bind()
    game = sa.table("game", sa.column("id", sa.Integer()), sa.column("state", sa.String()),
                    sa.column("house_cards", sa.String()))
    for game_id, text, cards in connection.execute(
            sa.select(game.c.id, game.c.state, game.c.house_cards)).all():
        state = json.loads(text)
        state["house_cards"] = json.loads(cards or "[]")
        connection.execute(sa.update(game).where(game.c.id == game_id).values(state=json.dumps(state)))
    with op.batch_alter_table("game") as batch:
        batch.drop_column("house_cards")
