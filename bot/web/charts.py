"""The player page's chart of ratings over time, drawn as inline SVG on the server."""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

__all__ = ["day_text", "rating_chart"]

#: A narrow drawing, so that its 14-unit labels stay 11 px or more on a 380 px phone
#: (and the chart no wider than 560 px on a wide screen).
WIDTH, HEIGHT = 400, 250
LEFT, RIGHT, TOP, BOTTOM = 46, 46, 14, 30
FONT = 14
#: Each family's line, points and legend take a class (``s0``..``s3``) whose colours the
#: style sheet sets, with at least 4.5:1 contrast in light and dark mode.
SERIES = 4


@functools.lru_cache(maxsize=4096)
def day_text(number: int) -> str:
    """The day ``number`` days after 1970-01-01, written YYYY-MM-DD."""
    y, m, d = time.gmtime(number * 86400)[:3]
    return f"{y:04d}-{m:02d}-{d:02d}"


def _day(t: float) -> str:
    """The UTC day of ``t`` (as ``time.gmtime`` says: the second's floor)."""
    return day_text(int(t // 86400))


def rating_chart(
    series: Mapping[str, Sequence[tuple[float, float]]], names: Mapping[str, str], title: str
) -> Markup:
    """An SVG line per family (its rating after each rated match), each point marked and
    the latest labelled with its value, then a legend; empty without points. A family with
    one rated match is its point, labelled."""
    lines = {k: v for k, v in series.items() if v}
    if not lines:
        return Markup("")
    columns = {k: tuple(zip(*v, strict=True)) for k, v in lines.items()}  # times, ratings
    t0 = min(min(ts) for ts, _ in columns.values())
    t1 = max(max(ts) for ts, _ in columns.values())
    low = min(min(rs) for _, rs in columns.values())
    high = max(max(rs) for _, rs in columns.values())
    if high - low < 20:
        low, high = low - 10, high + 10
    span_t = t1 - t0

    wide, tall, spread = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM, high - low
    middle = (LEFT + WIDTH - RIGHT) / 2  # one moment: in the middle

    def x(t: float) -> float:
        return LEFT + (t - t0) / span_t * wide if span_t else middle

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
        marked = len(points) <= 40  # each point marked, else the latest only
        # each point's place written once (a curve has up to a few hundred points), for its
        # line and its mark
        ts, rs = columns[family]
        if span_t:
            xs = [f"{LEFT + (t - t0) / span_t * wide:.1f}" for t in ts]
        else:
            xs = [f"{middle:.1f}"] * len(points)
        ys = [f"{TOP + (high - r) / spread * tall:.1f}" for r in rs]
        if len(points) > 1:
            coords = " ".join([f"{a},{b}" for a, b in zip(xs, ys, strict=True)])
            parts.append(
                f'<polyline class="{kind}" stroke-width="2.5" points="{coords}">'
                f"<title>{label}</title></polyline>"
            )
        last = len(points) - 1
        parts += [
            f'<circle class="{kind}" cx="{xs[n]}" cy="{ys[n]}" r="{5 if n == last else 3}">'
            f"<title>{label}: {round(rs[n])} ({_day(ts[n])})</title></circle>"
            for n in (range(last + 1) if marked else (last,))
        ]
        t, r = points[-1]
        parts.append(
            f'<text x="{x(t) + 8:.1f}" y="{y(r) + 5:.1f}" font-size="{FONT}"'
            f' font-weight="bold">{round(r)}</text>'
        )
        legend.append(f'<li class="{kind}">{label}: {round(r)}</li>')
    parts.append("</svg>")
    parts.append(f'<ul class="legend">{"".join(legend)}</ul>')
    return Markup("".join(parts))
