"""The player page's chart of ratings over time, drawn as inline SVG on the server."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

__all__ = ["rating_chart"]

#: A narrow drawing, so that its 14-unit labels stay 11 px or more on a 380 px phone
#: (and the chart no wider than 560 px on a wide screen).
WIDTH, HEIGHT = 400, 250
LEFT, RIGHT, TOP, BOTTOM = 46, 46, 14, 30
FONT = 14
#: Each family's line, points and legend take a class (``s0``..``s3``) whose colours the
#: style sheet sets, with at least 4.5:1 contrast in light and dark mode.
SERIES = 4


def _day(t: float) -> str:
    y, m, d = time.gmtime(t)[:3]
    return f"{y:04d}-{m:02d}-{d:02d}"


def rating_chart(
    series: Mapping[str, Sequence[tuple[float, float]]], names: Mapping[str, str], title: str
) -> Markup:
    """An SVG line per family (its rating after each rated match), each point marked and
    the latest labelled with its value, then a legend; empty without points. A family with
    one rated match is its point, labelled."""
    lines = {k: v for k, v in series.items() if v}
    if not lines:
        return Markup("")
    times = [t for v in lines.values() for t, _ in v]
    values = [r for v in lines.values() for _, r in v]
    t0, t1 = min(times), max(times)
    low, high = min(values), max(values)
    if high - low < 20:
        low, high = low - 10, high + 10
    span_t = t1 - t0

    wide, tall, spread = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM, high - low

    def x(t: float) -> float:
        if not span_t:  # one moment: in the middle
            return (LEFT + WIDTH - RIGHT) / 2
        return LEFT + (t - t0) / span_t * wide

    def y(r: float) -> float:
        return TOP + (high - r) / spread * tall

    base = HEIGHT - BOTTOM
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img"'
        f' aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{base}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}"/>',
    ]
    for value in (low, high):
        parts.append(
            f'<text x="{LEFT - 4}" y="{y(value) + 5:.1f}" text-anchor="end"'
            f' font-size="{FONT}">{round(value)}</text>'
        )
    days = [(t0, "start" if span_t else "middle")] + ([(t1, "end")] if span_t else [])
    for t, anchor in days:
        parts.append(
            f'<text x="{x(t):.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}"'
            f' font-size="{FONT}">{_day(t)}</text>'
        )
    legend = []
    for i, (family, points) in enumerate(sorted(lines.items())):
        kind = f"s{i % SERIES}"
        label = escape(names.get(family, family))
        if len(points) > 1:  # (x and y written out: a curve has up to a few hundred points)
            if span_t:
                coords = " ".join(
                    f"{LEFT + (t - t0) / span_t * wide:.1f},"
                    f"{TOP + (high - r) / spread * tall:.1f}"
                    for t, r in points
                )
            else:
                coords = " ".join(f"{x(t):.1f},{y(r):.1f}" for t, r in points)
            parts.append(
                f'<polyline class="{kind}" stroke-width="2.5" points="{coords}">'
                f"<title>{label}</title></polyline>"
            )
        marks = points if len(points) <= 40 else points[-1:]
        for n, (t, r) in enumerate(marks):
            size = 5 if n == len(marks) - 1 else 3
            parts.append(
                f'<circle class="{kind}" cx="{x(t):.1f}" cy="{y(r):.1f}" r="{size}">'
                f"<title>{label}: {round(r)} ({_day(t)})</title></circle>"
            )
        t, r = points[-1]
        parts.append(
            f'<text x="{x(t) + 8:.1f}" y="{y(r) + 5:.1f}" font-size="{FONT}"'
            f' font-weight="bold">{round(r)}</text>'
        )
        legend.append(f'<li class="{kind}">{label}: {round(r)}</li>')
    parts.append("</svg>")
    parts.append(f'<ul class="legend">{"".join(legend)}</ul>')
    return Markup("".join(parts))
