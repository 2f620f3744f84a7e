"""Where the app's files are: the package, the checkout around it, and its data (cards,
templates, static files)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent  # the repository, in a checkout
# cards/, templates/ and static/ sit at the top of a checkout (read there by an editable
# install); a built wheel carries them inside the package, in _data/ (see pyproject.toml).
DATA = HERE / "_data" if (HERE / "_data" / "cards").is_dir() else ROOT
