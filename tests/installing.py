"""The wheel built from this checkout and installed with its dependencies into a fresh venv, for
tests/test_install_wheel.py. That takes ~20 s, most of it pip's own work, so a test run that
will need it starts it in the background as soon as it knows (tests/conftest.py, once the tests
are collected) while other tests run; ``installed`` waits for it (a bounded wait on its result
file). Under xdist one worker builds it, in the run's shared temporary folder, for both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
TEST_MODULE = "test_install_wheel.py"
STEP_TIMEOUT = 300  # seconds one pip or venv step may take
WAIT = 3 * STEP_TIMEOUT + 60  # the three steps, whoever runs them


def run(command: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, timeout=STEP_TIMEOUT, **kwargs)
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def clean_env(**extra: str) -> dict:
    """The environment of someone who never saw the checkout: no venv, no PYTHONPATH, none of
    the tests' COMPANION_* settings."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("COMPANION_", "PYTHON", "VIRTUAL_ENV", "XDG_"))}
    env.update(extra)
    return env


def build(work: Path) -> dict:
    """The wheel in ``work``/dist, installed with its redis extra into the venv ``work``/venv."""
    dist = work / "dist"
    run([*PIP, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dist), str(ROOT)], env=clean_env())
    [wheel] = dist.glob("*.whl")
    venv = work / "venv"
    # No pip of its own in the new venv (ensurepip takes seconds): this pip installs into it.
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    # With the redis extra, as a set-up of several processes installs it.
    run([*PIP, "--python", str(python), "install", "--quiet", "--no-compile", f"{wheel}[redis]"],
        env=clean_env())
    return {"wheel": str(wheel), "venv": str(venv), "python": str(python)}


def _folder(shared: Path) -> Path:
    return shared / "installed-wheel"


def start(shared: Path) -> bool:
    """Start building in a background thread of this process, unless a process of this run
    already has (the folder is made by exactly one). Whether this process builds it."""
    folder = _folder(shared)
    try:
        folder.mkdir(parents=True)
    except FileExistsError:
        return False
    builder = threading.Thread(target=_build_into, args=(folder,), name="install-wheel", daemon=True)
    builder.start()
    _building.append(builder)
    return True


_building: list[threading.Thread] = []


def finish() -> None:
    """Keep this process until what it builds is there: another worker may be waiting for it."""
    for builder in _building:
        builder.join(WAIT)


def _build_into(folder: Path) -> None:
    try:
        result = {"ok": True, **build(folder)}
    except BaseException:  # noqa: BLE001 - whatever it was, the waiting test reports it
        result = {"ok": False, "error": traceback.format_exc()}
    written = folder / "result.json.part"
    written.write_text(json.dumps(result))
    written.rename(folder / "result.json")  # whole or absent for a reader


def installed(shared: Path) -> dict:
    """What ``build`` made for this run: started here and now if nobody started it, then waited
    for (bounded)."""
    start(shared)
    result_file = _folder(shared) / "result.json"
    deadline = time.monotonic() + WAIT
    while not result_file.exists():
        assert time.monotonic() < deadline, f"the wheel was not built and installed within {WAIT} s"
        time.sleep(0.2)
    result = json.loads(result_file.read_text())
    assert result["ok"], result["error"]
    return {"wheel": Path(result["wheel"]), "venv": Path(result["venv"]), "python": Path(result["python"])}


def shared_folder(config) -> Path:
    """This run's temporary folder, the same for every xdist worker of the run."""
    base = config._tmp_path_factory.getbasetemp()
    return base.parent if hasattr(config, "workerinput") else base


def wanted(items) -> bool:
    return any(Path(str(item.path)).name == TEST_MODULE for item in items)
