"""The JSON API: games, seats, actions, undo, history, the live stream, the schema and what a
seat may do. Its URLs and fields are an interface: added to, never renamed."""

from __future__ import annotations

from flask import Blueprint, jsonify

from companion import engine
from companion.engine import Actor, Forbidden
from companion.engine.action_models import action_json_schema
from companion.engine.words import N_

from .games import normal_code, store
from .invite import join_url
from .json_body import read_json_object
from .live import event_stream
from .security import no_store  # an answer with a token in it is never cached
from .words import with_text

from . import limits, shared, words  # words in the asker's language

bp = Blueprint("api", __name__, url_prefix="/api")


ANSWER_LOG = 20  # log entries in a change's answer (the latest, newest last); /history has all


def public(state: dict) -> dict:
    """The public state as a phone reads it: every word in the asker's language."""
    return words.public_state(state)


# The actions that change the house cards: their answers carry them; other answers do not
# (a table may hold hundreds; GET /api/games/<code> has them always).
HOUSE_CARD_ACTIONS = frozenset(("add_house_card", "import_house_cards", "remove_house_card"))


def answer_state(state: dict, *, house_cards: bool = False) -> dict:
    """The public state in the answer to a change: the log's tail only, and the house cards
    only when ``house_cards`` (the change was to them)."""
    public_state = words.public_state(state)
    answer = {k: v for k, v in public_state.items() if house_cards or k != "house_cards"}
    answer["log"] = public_state["log"][-ANSWER_LOG:]
    return answer


@bp.post("/games")
def create_game():
    data = read_json_object()
    edition = data.get("edition", "classic")
    state, host_token = store().create_game(edition if isinstance(edition, str) else "",
                                            data.get("variants"), winning_level=data.get("winning_level"),
                                            created_by=limits.address_key())
    code = state["code"]
    return no_store(jsonify({"code": code, "join_url": join_url(code), "host_token": host_token,
                             "state": public(state)})), 201


@bp.post("/games/<code>/players")
def join_game(code):
    data = read_json_object()
    code = normal_code(code)
    # The engine's join says who may sit (a locked table, a phoneless player: the host only).
    state, pid, token = store().join(code, data.get("name"), data.get("sex"),
                                     phone=data.get("phone", True) is not False, actor=shared.bearer_actor(code))
    return no_store(jsonify({"player_id": pid, "token": token, "state": answer_state(state),
                             "event": with_text(state["log"][-1].get("event"))})), 201


@bp.get("/games/<code>")
def get_game(code):
    return jsonify(public(store().load(normal_code(code))))


@bp.post("/games/<code>/actions")
def post_action(code):
    code = normal_code(code)
    action = read_json_object()
    actor = shared.bearer_actor(code)
    if not actor.seated:
        raise Forbidden(N_("Send your seat token (Authorization: Bearer ...) to act in this game."))
    # The game as shared.bearer_actor read it is tried first: one read less (the write checks it).
    state, happened = store().apply_event(code, action, actor, read=shared.request_game(code))
    return jsonify({"state": answer_state(state, house_cards=action.get("type") in HOUSE_CARD_ACTIONS),
                    "event": with_text(happened)})


@bp.post("/games/<code>/check")
def check_action(code):
    """The verdict an action would get, without changing anything (the arbiter)."""
    code = normal_code(code)
    action = read_json_object()
    actor = shared.bearer_actor(code)
    state = shared.request_game(code).state
    if not actor.seated:  # asking is free: judge it as the host would, rules only
        actor = Actor(host=True)
    return jsonify(words.verdict(state, action, actor))


@bp.post("/games/<code>/undo")
def undo(code):
    code = normal_code(code)
    actor = shared.bearer_actor(code)
    state, happened = store().undo_event(code, actor)
    return jsonify({"state": answer_state(state), "event": with_text(happened)})


@bp.get("/games/<code>/history")
def history(code):
    events = store().history(normal_code(code))
    for entry in events:
        entry["event"] = with_text(entry["event"])
        entry["text"] = entry["event"]["text"]
    return jsonify({"events": events})


@bp.get("/games/<code>/events")
def events(code):
    code = normal_code(code)
    store().version(code)  # 404 for an unknown game before the stream starts
    return event_stream(code)


@bp.get("/schema")
def action_schema():
    """Every action the engine takes, as a JSON Schema (a ``oneOf`` keyed on ``type``)."""
    return jsonify({"actions": action_json_schema()})


@bp.get("/games/<code>/allowed")
def allowed_actions(code):
    """What the asker's seat may do now (``engine.allowed``); an unseated asker may do nothing.
    Worked out once per version and seat (``shared.options``, the pages' own), and counted in
    the seat's budget of changes (web/limits.py): a seat with hundreds of cards has thousands
    of moves to check."""
    code = normal_code(code)
    actor = shared.bearer_actor(code)
    return jsonify({"allowed": dict(shared.options(shared.request_game(code).state, actor).allowed)})
