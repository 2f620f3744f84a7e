"""Flask's JSON (``jsonify``, every ``/api/`` answer) written by orjson: an action's answer
carries the public state, and writing it was a sixth of the action's time with the standard
library. Requests are still read by Flask's own provider (small bodies; its refusals of bad
JSON stay as the fuzz tests know them)."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider, _default

from companion import jsontext

# Dates and dataclasses go through Flask's own ``_default``, so they read as they always have.
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class OrjsonProvider(DefaultJSONProvider):
    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs:  # indent or sort_keys asked for: the standard library's own
            return super().dumps(obj, **kwargs)
        return jsontext.dumps_bytes(obj, _default, _OPTIONS).decode()

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        if (self.compact is None and self._app.debug) or self.compact is False:
            return super().response(*args, **kwargs)  # indented for a developer's eyes
        return self._app.response_class(jsontext.dumps_bytes(obj, _default, _OPTIONS) + b"\n",
                                        mimetype=self.mimetype)
