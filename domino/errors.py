"""Errors raised by the rules engine."""

from __future__ import annotations

from typing import Any


class DominoError(ValueError):
    """Base class of every error the engine raises on bad input."""


class IllegalAction(DominoError):
    """An action the rules do not allow now.

    ``str(error)`` is a sentence a player can read; ``code`` and ``params`` let a
    translation layer say the same thing in another language.
    """

    def __init__(self, message: str, code: str = "illegal", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
