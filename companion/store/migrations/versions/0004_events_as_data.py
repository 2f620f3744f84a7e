"""Every event row and log line as data, every undo step a patch, and no English in the store.

Older versions wrote three things the store no longer reads:

- an event row with no ``event.data`` (a line of English text only): it becomes the event
  ``{"kind": "note", "text": ...}``, which is said as it was written;
- an event whose ``state_before`` is the whole state before it (before reverse patches): it
  becomes the reverse patch that restores the same state. The walk goes back from the game's
  current state through each event's patch, so the state right after each old event is known;
- a log line in the state with ``text`` and no ``event``: it gets the same note event, and every
  log line loses its ``text``, which the web layer makes in the reader's language.

Then ``event.text`` (the event in English) goes, and ``game.log_bytes`` is counted again
without it. Each game is done once, here; the store has no reader for the old forms.

The rule undo follows is written out here as it stands at this revision, not imported: what
undo never restores (the log, the id counter, the version) and how a patch looks (RFC 6902).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

import json

import jsonpatch
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

EVENT_ROW_BYTES = 48  # store.EVENT_ROW_BYTES at this revision
NOT_UNDONE = ("log", "next_id", "version")  # engine.undo.NOT_UNDONE at this revision
COMPACTED = "null"

game_table = sa.table("game", sa.column("id", sa.Integer()), sa.column("state", sa.String()),
                      sa.column("house_cards", sa.String()))
event_table = sa.table("event", sa.column("id", sa.Integer()), sa.column("game_id", sa.Integer()),
                       sa.column("version", sa.Integer()), sa.column("text", sa.String()),
                       sa.column("data", sa.String()), sa.column("state_before", sa.String()))


def _note(text: str) -> dict:
    return {"kind": "note", "text": text}


def _undoable(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in NOT_UNDONE}


def _pointer(key: str) -> str:
    return "/" + str(key).replace("~", "~0").replace("/", "~1")


def _whole_patch(after: dict, before: dict) -> list:
    """A patch that turns ``after`` into ``before`` part by part: each top-level part that
    differs is written whole (no equality that mistakes ``0`` for ``false``: JSON decides)."""
    ops = [{"op": "remove", "path": _pointer(k)} for k in after if k not in before]
    ops += [{"op": "add", "path": _pointer(k), "value": v} for k, v in before.items()
            if k not in after or json.dumps(after[k], sort_keys=True) != json.dumps(v, sort_keys=True)]
    return ops


def _events_to_patches(connection, game_id: int, state: dict) -> None:
    """Walk back from the game's state through its events; write a patch for each whole state."""
    now = _undoable(state)
    rows = connection.execute(sa.select(event_table.c.id, event_table.c.state_before)
                              .where(event_table.c.game_id == game_id)
                              .order_by(event_table.c.version.desc(), event_table.c.id.desc())).all()
    known = True  # the state right after the next event back is known
    for event_id, stored in rows:
        before = json.loads(stored)
        if isinstance(before, dict):
            before = _undoable(before)
            before.setdefault("house_cards", [])
            patch = COMPACTED if not known else json.dumps(_whole_patch(now, before))
            connection.execute(sa.update(event_table).where(event_table.c.id == event_id)
                               .values(state_before=patch))
            now, known = before, True
        elif isinstance(before, list) and known:
            now = jsonpatch.apply_patch(now, before)
        else:  # compacted: nothing before it can be rebuilt, nor undone
            known = False


def upgrade() -> None:
    connection = op.get_bind()
    for event_id, text in connection.execute(sa.select(event_table.c.id, event_table.c.text)
                                             .where(event_table.c.data.is_(None))).all():
        connection.execute(sa.update(event_table).where(event_table.c.id == event_id)
                           .values(data=json.dumps(_note(text))))

    for game_id, state_json, house_json in connection.execute(
            sa.select(game_table.c.id, game_table.c.state, game_table.c.house_cards)).all():
        state = json.loads(state_json)
        old_events = connection.execute(sa.select(sa.func.count()).select_from(event_table).where(
            event_table.c.game_id == game_id, event_table.c.state_before.like("{%"))).scalar()
        if old_events:
            _events_to_patches(connection, game_id, state | {"house_cards": json.loads(house_json or "[]")})
        log = state.get("log") or []
        if any("text" in line or "event" not in line for line in log):
            state["log"] = [{k: v for k, v in line.items() if k != "text"}
                            | ({} if "event" in line else {"event": _note(line.get("text", ""))})
                            for line in log]
            connection.execute(sa.update(game_table).where(game_table.c.id == game_id)
                               .values(state=json.dumps(state)))

    with op.batch_alter_table("event") as batch:
        batch.alter_column("data", existing_type=sa.String(), nullable=False)
        batch.drop_column("text")
    op.execute(sa.text(
        "UPDATE game SET log_bytes = (SELECT COALESCE(SUM(LENGTH(event.action) + LENGTH(event.data) "
        "+ LENGTH(event.state_before) + :row), 0) FROM event WHERE event.game_id = game.id)")
        .bindparams(row=EVENT_ROW_BYTES))


def downgrade() -> None:
    # The English text is not written again: the app at 0003 reads ``event.data`` first.
    with op.batch_alter_table("event") as batch:
        batch.add_column(sa.Column("text", sa.String(), nullable=False, server_default=""))
        batch.alter_column("data", existing_type=sa.String(), nullable=True)
