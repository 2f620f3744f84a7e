"""The reducers, one module per domain; importing this package registers them all."""

from . import fight, choices, help, house, powers, sheet, table  # noqa: F401

__all__ = ["fight", "choices", "help", "house", "powers", "sheet", "table"]
