"""Live updates as a doorbell: a Server-Sent Events stream per phone.

The stream carries no game data, only "changed" events with the new version; each page then
GETs what it shows. A missed event is harmless: the next one, a reconnect (which sends the
current version at once) or the page becoming visible again catches up.
"""

from __future__ import annotations

import json
import time

from flask import Response, current_app, request, stream_with_context

from .common import store

MAX_BACKLOG = 50  # after a long sleep, one event for the latest version is enough


def _event(code: str, version: int) -> str:
    return f"id: {version}\nevent: changed\ndata: {json.dumps({'code': code, 'version': version})}\n\n"


def event_stream(code: str) -> Response:
    the_store = store()
    seconds = current_app.config["LIVE_STREAM_SECONDS"]
    heartbeat = current_app.config["LIVE_HEARTBEAT_SECONDS"]
    since = request.args.get("since", type=int)
    if since is None:
        since = request.headers.get("Last-Event-ID", type=int)

    def generate():
        seen = the_store.version(code)
        # Retry quickly after a drop; the browser reconnects by itself.
        yield "retry: 1500\n\n"
        if since is None or since != seen:
            yield _event(code, seen)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            version = the_store.doorbell.wait(code, seen, heartbeat)
            if version is None:
                # Quiet for a while: a heartbeat keeps proxies from closing the stream, and a
                # look at the database catches a change made by another server process.
                version = the_store.version(code)
                if version <= seen:
                    yield ": heartbeat\n\n"
                    continue
            if version - seen > MAX_BACKLOG:
                seen = version - 1
            for v in range(seen + 1, version + 1):
                yield _event(code, v)
            seen = version

    response = Response(stream_with_context(generate()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
