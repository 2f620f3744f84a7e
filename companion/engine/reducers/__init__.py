"""The reducers, one module per domain; importing this package registers them all."""

from . import fight, help, house, powers, sheet, table  # noqa: F401

__all__ = ["fight", "help", "house", "powers", "sheet", "table"]
