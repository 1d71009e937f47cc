"""The quick match's words: a person's place, the notes he gets, the "Play now" post."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import N_, tr
from bot.queue.service import Status
from bot.queue.store import KEPT, LOST, ExpiredRow
from bot.queue.values import ANY, VARIANTS
from cogs.domino import texts
from cogs.markup import slash_command

__all__ = [
    "counts_text",
    "expired_text",
    "note_text",
    "post_text",
    "seated_note",
    "status_text",
    "thread_note",
    "variant_label",
]

ANY_NAME = N_("any variant")
LEFT = N_("You left the quick-match queue.")
NOT_QUEUED = N_("You are not in the quick-match queue any more.")
NOT_YOURS = N_("This is not your place in the queue: use {command} to queue yourself.")


def variant_label(locale: str | None, variant: str) -> str:
    """A variant's name, or "any variant"."""
    return tr(locale, ANY_NAME) if variant == ANY else texts.variant_name(locale, variant)


def counts_text(locale: str | None, counts: Mapping[str, int]) -> str:
    """Who waits, per variant asked for (the commonest first), or "nobody"."""
    if not sum(counts.values()):
        return tr(locale, "nobody")
    order = [ANY, *VARIANTS]
    shown = sorted(
        ((v, n) for v, n in counts.items() if n),
        key=lambda vn: (-vn[1], order.index(vn[0]) if vn[0] in order else len(order)),
    )
    return " · ".join(f"{variant_label(locale, v)}: {n}" for v, n in shown)


def status_text(
    locale: str | None, status: Status, *, again: bool = False, computers_after: int = 0
) -> str:
    """A person's place: what he waits for, since when, who waits with him, what comes next."""
    entry = status.entry
    head = (
        N_("You are already in the quick-match queue for **{variant}** (since {since}).")
        if again
        else N_("You are in the quick-match queue for **{variant}** (since {since}).")
    )
    lines = [
        tr(locale, head, variant=variant_label(locale, entry.variant),
           since=f"<t:{int(entry.joined_at)}:R>"),
        tr(locale, "Waiting on this server: {count} ({detail}).", count=status.waiting,
           detail=counts_text(locale, status.counts)),
    ]
    if entry.computers:
        lines.append(tr(
            locale,
            "If not enough people come, computers near your rating fill the empty seats {when}.",
            when=f"<t:{int(entry.fill_at)}:R>",
        ))
    else:
        lines.append(tr(locale, "You wait for people only (no computers)."))
    lines.append(tr(
        locale,
        "Your place is kept until {until}; you will be mentioned in your table's thread.",
        until=f"<t:{int(entry.expires_at)}:t>",
    ))
    if again:
        lines.append(tr(locale, "Leave it first to queue for something else."))
    return "\n".join(lines)


def seated_note(locale: str | None, variant: str, thread_id: int | None, table_id: int) -> str:
    """The person's private answer once he is seated."""
    where = f"<#{thread_id}>" if thread_id else tr(locale, "table {id}", id=table_id)
    return tr(
        locale,
        "You are seated: your table of {variant} is in {where}.",
        variant=texts.variant_name(locale, variant),
        where=where,
    )


def thread_note(locale: str | None, people: list[int], computers: int) -> str:
    """The mention in a quick-match table's thread, once."""
    mentions = " ".join(f"<@{p}>" for p in people)
    text = tr(locale, "Quick match: your table is ready. Press **My tiles** to see your tiles.")
    if computers:
        text += " " + tr(
            locale, "Computers near your rating fill {count} seat(s).", count=computers
        )
    return f"{mentions} {text}"


def expired_text(locale: str | None, variant: str) -> str:
    """The quiet note of a place that expired."""
    return tr(
        locale,
        "Your place in the quick-match queue for {variant} expired before a table could be "
        "filled. Queue again with {command}.",
        variant=variant_label(locale, variant),
        command=slash_command(locale, "domino play"),
    )


KEPT_NOTE = N_(
    "Your quick-match table could not open: the bot may not post in its table channel. You "
    "keep your place at the front of the queue."
)
LOST_NOTE = N_(
    "Your quick-match table could not open: the bot may not post in {channel}, where you "
    "queued, so your place was given up. Ask the server's managers to let the bot post there, "
    "or queue again with {command} in another channel."
)


def note_text(locale: str | None, note: ExpiredRow) -> str:
    """A person's private note about his place: it expired, or his table could not open (his
    place kept, or given up when the bot may not post where he queued)."""
    if note.reason == KEPT:
        return tr(locale, KEPT_NOTE)
    if note.reason == LOST:
        return tr(
            locale, LOST_NOTE, channel=f"<#{note.channel_id}>",
            command=slash_command(locale, "domino play"),
        )
    return expired_text(locale, note.variant)


def post_text(locale: str | None, counts: Mapping[str, int], pool: int | None = None) -> str:
    """The "Play now" post: what it does and who waits (on a server in the open pool, also how
    many wait across servers, ``pool``: every server's people in the pool)."""
    lines = [
        tr(locale, "## Play now"),
        tr(
            locale,
            "Press **Play now** to be seated at the next table of any variant, or pick one. "
            "The people waiting longest sit together, closest in rating; computers fill the "
            "empty seats after a short wait.",
        ),
        tr(locale, "Waiting now: {detail}", detail=counts_text(locale, counts)),
    ]
    if pool is not None:
        lines.append(tr(
            locale, "Open pool: {here} waiting here, {count} across servers.",
            here=sum(counts.values()), count=pool,
        ))
    return "\n".join(lines)
