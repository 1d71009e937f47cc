"""The player page's chart of ratings over time, drawn as inline SVG on the server."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from markupsafe import Markup, escape

__all__ = ["rating_chart"]

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 28
#: Line colours with at least 4.5:1 contrast on the page's white.
COLOURS = ("#1f5fa8", "#a8321f", "#2d6e2d", "#6b3fa0")


def _day(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d")


def rating_chart(
    series: Mapping[str, Sequence[tuple[float, float]]], names: Mapping[str, str], title: str
) -> Markup:
    """An SVG line per family (its rating after each rated match); empty without points."""
    lines = {k: v for k, v in series.items() if v}
    if not lines:
        return Markup("")
    times = [t for v in lines.values() for t, _ in v]
    values = [r for v in lines.values() for _, r in v]
    t0, t1 = min(times), max(times)
    low, high = min(values), max(values)
    if high - low < 20:
        low, high = low - 10, high + 10
    span_t = (t1 - t0) or 1.0

    def x(t: float) -> float:
        return LEFT + (t - t0) / span_t * (WIDTH - LEFT - RIGHT)

    def y(r: float) -> float:
        return TOP + (high - r) / (high - low) * (HEIGHT - TOP - BOTTOM)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img"'
        f' aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="#555"/>',
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}"'
        ' stroke="#555"/>',
    ]
    for value in (low, high):
        parts.append(
            f'<text x="{LEFT - 4}" y="{y(value) + 4:.1f}" text-anchor="end" font-size="11"'
            f' fill="#222">{round(value)}</text>'
        )
    for t, anchor in ((t0, "start"), (t1, "end")):
        parts.append(
            f'<text x="{x(t):.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}" font-size="11"'
            f' fill="#222">{_day(t)}</text>'
        )
    for i, (family, points) in enumerate(sorted(lines.items())):
        colour = COLOURS[i % len(COLOURS)]
        coords = " ".join(f"{x(t):.1f},{y(r):.1f}" for t, r in points)
        label = escape(names.get(family, family))
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{coords}">'
            f"<title>{label}</title></polyline>"
        )
        parts.append(
            f'<text x="{WIDTH - RIGHT}" y="{TOP + 12 + 14 * i}" text-anchor="end" font-size="12"'
            f' fill="{colour}">{label}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
