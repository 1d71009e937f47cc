"""The bot's budget of requests to Discord, shared by every process (table ``discord_budget``).

A budget is a rate (one slot every ``interval`` seconds) kept as the time its next slot is free
(``tat``, the database's clock). :meth:`BudgetRepo.reserve` takes up to ``count`` consecutive
slots in one statement, which the row's lock makes atomic across processes: the slots it
grants are nobody else's, and their spacing keeps every process together at the rate. A
reservation reaches at most ``horizon`` seconds ahead: a request that may not wait long (a low
priority) is refused while the budget is booked further ahead than that.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.connection import POSTGRES, SQLITE, Driver

__all__ = ["BudgetRepo", "Grant"]

_NOW = {
    POSTGRES: "extract(epoch FROM clock_timestamp())::double precision",
    SQLITE: "((julianday('now') - 2440587.5) * 86400.0)",
}


@dataclass(frozen=True, slots=True)
class Grant:
    """``slots`` slots, the first ``wait`` seconds from now (at ``at`` on the budget's clock)
    and one ``interval`` apart; with no slot, ``wait`` is how long until the budget is booked
    less than the horizon ahead."""

    slots: int
    wait: float
    at: float = 0.0


class BudgetRepo:
    """Reserve slots of a shared budget (each call is one statement)."""

    def __init__(self, driver: Driver) -> None:
        self._driver = driver
        self._now = _NOW[driver.dialect]
        self._made: set[str] = set()  # budgets whose row exists

    async def reserve(self, name: str, count: int, interval: float, horizon: float) -> Grant:
        """Up to ``count`` slots of budget ``name`` whose last starts at most ``horizon``
        seconds from now (the database's clock)."""
        db = self._driver.db
        base = "max(tat, c.now)" if self._driver.dialect == SQLITE else "greatest(tat, c.now)"
        room = f"floor((c.now + ? - {base}) / ?) + 1"
        granted = f"(CASE WHEN {room} < 1 THEN 0 WHEN {room} > ? THEN ? ELSE {room} END)"
        params = (horizon, interval, horizon, interval, count, count, horizon, interval)
        if name not in self._made:
            await db.execute(
                "INSERT INTO discord_budget (name, tat, granted) VALUES (?, 0, 0)"
                " ON CONFLICT (name) DO NOTHING",
                (name,),
            )
            self._made.add(name)
        # (SQLite's RETURNING cannot name the FROM clause's tables: it reads the clock again)
        now = "c.now" if self._driver.dialect == POSTGRES else self._now
        sql = (
            f"UPDATE discord_budget SET granted = {granted}, tat = {base} + ? * {granted}"
            f" FROM (SELECT {self._now} AS now) AS c WHERE name = ?"
            f" RETURNING tat, granted, {now} AS now"
        )
        row = await db.fetchone(sql, (*params, interval, *params, name))
        assert row is not None
        tat, slots, now = float(row["tat"]), int(row["granted"]), float(row["now"])
        if slots:
            first = tat - slots * interval
            return Grant(slots, max(0.0, first - now), first)
        return Grant(0, max(0.0, tat - horizon - now), tat - horizon)
