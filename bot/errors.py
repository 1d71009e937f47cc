"""Errors the table service reports to the people who caused them.

Every error has a stable ``code`` (for tests and logic), a readable English ``message``, and
the gettext-style ``template`` with its ``params`` it was made from (data: numbers, names, lists,
:class:`~bot.i18n.Ref` channels and roles), so the Discord layer can say it in the user's
language with its own markup (``cogs.markup.error_text``).
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """Base of every error a user can cause at a table; safe to show to that user."""

    code = "error"

    def __init__(self, template: str, /, **params: Any) -> None:
        plain = {
            key: ", ".join(map(str, value)) if isinstance(value, list | tuple) else value
            for key, value in params.items()
        }
        try:
            message = template.format(**plain)
        except (KeyError, IndexError, ValueError):
            message = template
        super().__init__(message)
        self.template = template
        self.message = message
        self.params = params

    @classmethod
    def verbatim(cls, text: str, /, **params: Any) -> ServiceError:
        """An error whose text comes from elsewhere (the engine): braces are kept as they are."""
        return cls(text.replace("{", "{{").replace("}", "}}"), **params)

    def __str__(self) -> str:
        return self.message


class TableNotFound(ServiceError):
    """No such table."""

    code = "table_not_found"


class TableFinished(ServiceError):
    """The table's match is over or was cancelled."""

    code = "table_finished"


class WrongStatus(ServiceError):
    """The table is not in the status the request needs (e.g. joining a running table)."""

    code = "wrong_status"


class NotSeated(ServiceError):
    """The user has no seat at this table."""

    code = "not_seated"


class SeatTakenOver(ServiceError):
    """A computer plays the user's seat since he timed out too often."""

    code = "seat_taken_over"


class NotYourTurn(ServiceError):
    """The user is seated but none of his seats is to move."""

    code = "not_your_turn"


class StaleAction(ServiceError):
    """The action was meant for a state that has changed (double click, old message, a race)."""

    code = "stale"


class IllegalMove(ServiceError):
    """The rules do not allow this action now; ``engine_code``/``params`` come from the engine."""

    code = "illegal"

    def __init__(self, template: str, /, engine_code: str = "illegal", **params: Any) -> None:
        super().__init__(template, **params)
        self.engine_code = engine_code


class InvalidOptions(ServiceError):
    """Unknown variant, option or value (the message lists what is allowed)."""

    code = "invalid_options"


class NotHost(ServiceError):
    """Only the host (or a server manager) may do this."""

    code = "not_host"


class AlreadySeated(ServiceError):
    """The user already has a seat at this table."""

    code = "already_seated"


class TableFull(ServiceError):
    """Every seat is taken."""

    code = "table_full"


class SeatsEmpty(ServiceError):
    """The table cannot start with empty seats unless they are filled with computers."""

    code = "seats_empty"


class PlaceBusy(ServiceError):
    """Another match is already running in this channel or thread."""

    code = "place_busy"


class NotInvited(ServiceError):
    """The table is a challenge and the user is not one of the people it invites."""

    code = "not_invited"


class LimitReached(ServiceError):
    """A person or a server has as much open as the limits allow (or opened a table just now)."""

    code = "limit_reached"


class TablesElsewhere(ServiceError):
    """This process does not run the server's tables now (they are moving between processes)."""

    code = "tables_elsewhere"
