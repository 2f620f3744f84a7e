"""The doorbell: rings every live stream of a game when its version changes (in-process)."""

from __future__ import annotations

import threading
import time


class Doorbell:
    """Rings every live stream of a game when its version changes (in-process)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._versions: dict[str, int] = {}

    def ring(self, code: str, version: int) -> None:
        with self._cond:
            if version > self._versions.get(code, -1):
                self._versions[code] = version
            self._cond.notify_all()

    def wait(self, code: str, seen: int, timeout: float) -> int | None:
        """Block until the game's version passes ``seen`` or ``timeout``; the version or None."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._versions.get(code, -1) <= seen:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            return self._versions[code]
