"""Inline SVG charts for ``report.html``: every point and bar carries a ``<title>`` (the
browser's hover tooltip) with its count, so no plotting library is shipped in the page."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

__all__ = ["bar_rows", "interval_rows", "line_chart", "palette"]

PALETTE = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)


def palette(i: int) -> str:
    """The colour of series ``i`` (matplotlib's tab10, as the PNG plots)."""
    return PALETTE[i % len(PALETTE)]


def _svg(width: int, height: int, body: list[str], label: str) -> str:
    return (
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        + "".join(body)
        + "</svg>"
    )


def _finite(value: float | None) -> bool:
    """A number to draw: results.json keeps the infinite interval of one block as null."""
    return value is not None and math.isfinite(value)


def interval_rows(
    rows: Sequence[tuple[str, float, float, float, str]], unit: str, centre: float = 0.0
) -> str:
    """One row per (label, mean, low, high, tooltip): a point with its interval on a shared
    axis, and a line at ``centre`` (0 chips, or a fair share of wins)."""
    finite = [v for _, m, lo, hi, _ in rows for v in (m, lo, hi) if _finite(v)]
    lo_all, hi_all = min([*finite, centre]), max([*finite, centre])
    pad = (hi_all - lo_all) * 0.08 or 1.0
    lo_all, hi_all = lo_all - pad, hi_all + pad
    left, width, row_h = 260, 420, 26
    height = 30 + row_h * len(rows)

    def x(v: float) -> float:
        return left + (v - lo_all) / (hi_all - lo_all) * width

    body = [
        f'<line x1="{x(centre):.1f}" y1="10" x2="{x(centre):.1f}" y2="{height - 18}" '
        'stroke="#999" stroke-dasharray="4 3"/>',
        f'<text x="{left}" y="{height - 4}" class="axis">{lo_all:+.3g}</text>',
        f'<text x="{left + width}" y="{height - 4}" class="axis" text-anchor="end">'
        f"{hi_all:+.3g} {escape(unit)}</text>",
    ]
    for i, (label, mean, low, high, tip) in enumerate(rows):
        y = 20 + i * row_h
        colour = palette(i)
        short = label if len(label) <= 38 else "…" + label[-37:]
        body.append(f'<text x="{left - 8}" y="{y + 4}" text-anchor="end">{escape(short)}</text>')
        body.append(f'<g class="point"><title>{escape(tip)}</title>')
        if _finite(low) and _finite(high):
            body.append(
                f'<line x1="{x(low):.1f}" y1="{y}" x2="{x(high):.1f}" y2="{y}" '
                f'stroke="{colour}" stroke-width="3"/>'
            )
        body.append(f'<circle cx="{x(mean):.1f}" cy="{y}" r="5" fill="{colour}"/></g>')
    return _svg(left + width + 30, height, body, f"results in {unit}")


def line_chart(
    series: Sequence[tuple[str, Sequence[tuple[float, float | None, str]]]],
    x_label: str,
    y_label: str,
    colours: Mapping[str, str] | None = None,
) -> str:
    """Lines of (x, y, tooltip) points on [0, 1] x [0, 1], one per (name, points); a point
    with y None (no decisions there) breaks the line. ``colours``: each name's colour
    (default: the palette in series order)."""
    left, top, width, height = 50, 12, 520, 260
    body = [
        f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#ccc"/>'
    ]
    for t in (0, 0.25, 0.5, 0.75, 1):
        y = top + height * (1 - t)
        body.append(
            f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" class="axis">{t}</text>'
        )
        x = left + width * t
        body.append(
            f'<text x="{x:.1f}" y="{top + height + 16}" text-anchor="middle" '
            f'class="axis">{t}</text>'
        )
    body.append(
        f'<text x="{left + width / 2}" y="{top + height + 34}" text-anchor="middle">'
        f"{escape(x_label)}</text>"
    )
    body.append(
        f'<text transform="translate(14 {top + height / 2}) rotate(-90)" text-anchor="middle">'
        f"{escape(y_label)}</text>"
    )
    for i, (name, points) in enumerate(series):
        colour = colours[name] if colours else palette(i)
        path, pen = [], "M"
        for px, py, _ in points:
            if py is None:
                pen = "M"
                continue
            path.append(f"{pen}{left + width * px:.1f},{top + height * (1 - py):.1f}")
            pen = "L"
        body.append(f'<path d="{" ".join(path)}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for px, py, tip in points:
            if py is not None:
                body.append(
                    f'<circle class="point" cx="{left + width * px:.1f}" '
                    f'cy="{top + height * (1 - py):.1f}" r="4" fill="{colour}">'
                    f"<title>{escape(name)}: {escape(tip)}</title></circle>"
                )
        legend_y = top + 14 + 16 * i
        body.append(
            f'<rect x="{left + width + 12}" y="{legend_y - 9}" width="10" height="10" '
            f'fill="{colour}"/><text x="{left + width + 26}" y="{legend_y}">{escape(name)}</text>'
        )
    return _svg(left + width + 280, top + height + 44, body, y_label)


def bar_rows(
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[tuple[float | None, str]]]],
    x_label: str,
    colours: Mapping[str, str] | None = None,
) -> str:
    """Horizontal bars on [0, 1]: per category one bar per (name, values), each value a
    (share or None, tooltip). ``colours``: each name's colour (default: the palette in
    series order)."""

    def colour(i: int) -> str:
        return colours[series[i][0]] if colours else palette(i)

    left, width = 170, 380
    k = max(1, len(series))
    bar_h = 8
    group_h = bar_h * k + 8
    height = 20 + group_h * len(categories) + 30
    body = []
    for g, category in enumerate(categories):
        y0 = 14 + g * group_h
        body.append(
            f'<text x="{left - 8}" y="{y0 + bar_h * k / 2 + 4:.1f}" text-anchor="end">'
            f"{escape(category)}</text>"
        )
        for i, (name, values) in enumerate(series):
            share, tip = values[g]
            if share is None:
                continue
            body.append(
                f'<rect class="point" x="{left}" y="{y0 + i * bar_h}" width="{width * share:.1f}" '
                f'height="{bar_h - 1}" fill="{colour(i)}"><title>{escape(name)} · '
                f"{escape(category)}: {escape(tip)}</title></rect>"
            )
    axis_y = 14 + group_h * len(categories) + 4
    for t in (0, 0.5, 1):
        body.append(
            f'<text x="{left + width * t:.1f}" y="{axis_y + 10}" text-anchor="middle" '
            f'class="axis">{t}</text>'
        )
    body.append(
        f'<text x="{left + width / 2}" y="{axis_y + 26}" text-anchor="middle">'
        f"{escape(x_label)}</text>"
    )
    for i, (name, _) in enumerate(series):
        body.append(
            f'<rect x="{left + width + 16}" y="{14 + 16 * i}" width="10" height="10" '
            f'fill="{colour(i)}"/><text x="{left + width + 30}" y="{23 + 16 * i}">'
            f"{escape(name)}</text>"
        )
    return _svg(left + width + 300, height, body, x_label)
