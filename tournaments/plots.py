"""PNG plots of tournament results and strategy analytics (matplotlib, no display needed).

Agents are labelled by their spec, as everywhere else (``$`` is escaped so matplotlib does not
read a label as mathematics), and keep one colour per agent across the panels of a figure.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import matplotlib

from games import game_info

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from tournaments.analytics import bets_by_strength
from tournaments.stats import proportion_interval

__all__ = ["colour_limit", "plot_analytics", "plot_tournament"]


def _label(name: str) -> str:
    """An agent's label as matplotlib should draw it: the same text, ``$`` not mathematics."""
    return name.replace("$", r"\$")


def colour_limit(values: np.ndarray, half_widths: np.ndarray) -> float:
    """The colour scale's limit for a heatmap of ``values``: the median absolute value (at least
    the median 95% half-width, so noise does not fill the scale), capped at the largest. One
    agent far from the rest (``random`` loses hundreds of chips/100) then saturates its own
    cells instead of washing out every other one; the cells carry their values as text."""
    values = np.abs(values[np.isfinite(values)])
    if not len(values):
        return 1.0
    halves = half_widths[np.isfinite(half_widths)]
    floor = float(np.median(halves)) if len(halves) else 0.0
    limit = min(float(values.max()), max(float(np.median(values)), floor))
    return limit if limit > 0 else 1.0


def plot_tournament(result: dict[str, Any], out: Path) -> list[Path]:
    """A pairwise heatmap with intervals (heads-up Lith) and the cumulative results of every
    pairing or table."""
    written = []
    if "pairings" in result:
        written.append(_heatmap(result, out))
    written.append(_cumulative(result, out))
    return written


def _heatmap(result: dict[str, Any], out: Path) -> Path:
    names = result["agents"]
    k = len(names)
    grid = np.full((k, k), np.nan)
    half = np.full((k, k), np.nan)
    blocks = set()
    for p in result["pairings"].values():
        a, b = names.index(p["agent"]), names.index(p["opponent"])
        c = p["chips_per_100"]
        grid[a, b], grid[b, a] = c["mean"], 0.0 - c["mean"]  # 0.0 - x: no "-0.0"
        half[a, b] = half[b, a] = (c["high"] - c["low"]) / 2
        blocks.add(c["n"])
    limit = colour_limit(grid, half)
    clipped = bool(np.nanmax(np.abs(grid), initial=0) > limit)
    fig, ax = plt.subplots(figsize=(1.6 * k + 2.5, 1.3 * k + 2))
    image = ax.imshow(np.clip(grid, -limit, limit), cmap="RdBu", vmin=-limit, vmax=limit)
    for i in range(k):
        for j in range(k):
            if np.isfinite(grid[i, j]):
                interval = f"±{half[i, j]:.1f}" if np.isfinite(half[i, j]) else "(1 block)"
                ax.text(
                    j,
                    i,
                    f"{grid[i, j]:+.1f}\n{interval}",
                    ha="center",
                    va="center",
                    fontsize=9,
                    color="white" if abs(grid[i, j]) > 0.6 * limit else "black",
                )
    labels = [_label(n) for n in names]
    ax.set_xticks(range(k), labels, rotation=30, ha="right")
    ax.set_yticks(range(k), labels)
    per_pairing = ", ".join(str(n) for n in sorted(blocks))
    ax.set_title(
        "chips/100 hands of the row agent against the column agent (95% ±)\n"
        f"{per_pairing} blocks a pairing"
        + (f"; colours clipped at ±{limit:.0f}" if clipped else ""),
        fontsize=10,
    )
    fig.colorbar(image, ax=ax, extend="both" if clipped else "neither")
    path = out / "pairwise_heatmap.png"
    fig.savefig(path, dpi=120, bbox_inches="tight")  # long specs (paths) as labels fit too
    plt.close(fig)
    return path


def _cumulative(result: dict[str, Any], out: Path) -> Path:
    """One line per pairing (heads-up Lith: the first agent's chips, the other's are their
    negative), else one panel per table with a line per agent seated there."""
    tables: dict[str, dict[str, list[float]]] = result["cumulative"]
    info = game_info(result["game"])
    unit = "chips" if info.pays_chips else "wins"
    block = f"block ({result['players']} {info.units})"
    colours = {
        name: plt.get_cmap("tab10" if len(result["agents"]) <= 10 else "tab20")(i % 20)
        for i, name in enumerate(result["agents"])
    }
    title = f"{result['game']}: cumulative results by block ({result['dealing']} dealing)"
    zero_sum = info.pays_chips and result["players"] == 2
    if zero_sum and all(len(seated) == 2 for seated in tables.values()):
        fig, ax = plt.subplots(figsize=(9, 5))
        for table, seated in tables.items():
            first = next(iter(seated))
            ax.plot(np.arange(1, len(seated[first]) + 1), seated[first], label=_label(table))
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xlabel(f"{block} of the pairing")
        ax.set_ylabel(f"{unit} won by the first-named agent")
        ax.set_title(title)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    else:
        count = len(tables)
        cols = min(3, count)
        rows = math.ceil(count / cols)
        fig, axes = plt.subplots(
            rows, cols, figsize=(max(4.6 * cols, 8), 3.2 * rows + 0.8), squeeze=False
        )
        for ax, (table, seated) in zip(axes.flat, tables.items(), strict=False):
            for name, values in seated.items():
                ax.plot(
                    np.arange(1, len(values) + 1),
                    values,
                    label=_label(name),
                    color=colours[name],
                )
            # A long table label breaks onto lines between its agents (never inside a label).
            ax.set_title(
                _label(table.replace(" vs ", "\nvs ")) if len(table) > 40 else _label(table),
                fontsize=9,
            )
            ax.set_xlabel(f"{block} of this table", fontsize=8)
            ax.set_ylabel(f"cumulative {unit}", fontsize=8)
            ax.tick_params(labelsize=7)
            ax.legend(fontsize=7)
        for ax in axes.flat[count:]:
            ax.set_visible(False)
        fig.suptitle(title)
    fig.tight_layout()
    path = out / "cumulative.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_analytics(
    decisions: list[dict[str, Any]],
    report: dict[str, Any],
    out: Path,
    equilibrium: tuple[str, np.ndarray] | None = None,
) -> list[Path]:
    """Bet/raise frequency against strength percentile per agent; exchange rate by category.
    Every point and bar has its Wilson 95% interval and its number of decisions.
    ``equilibrium``: (label, share per tenth of the percentile) drawn as a dashed line."""
    written = []
    bins = np.linspace(0, 1, 11)
    centres = (bins[:-1] + bins[1:]) / 2
    fig, ax = plt.subplots(figsize=(9, 5))
    agents = sorted(report)
    for i, agent in enumerate(agents):
        counts = bets_by_strength(decisions, agent, len(bins) - 1)
        total = sum(n for _, n in counts)
        if not total:
            continue
        shares = [proportion_interval(k, n) for k, n in counts]
        mean = np.array([s.mean for s in shares])
        low = np.array([s.low for s in shares])
        high = np.array([s.high for s in shares])
        offset = (i - (len(agents) - 1) / 2) * 0.006  # keep the error bars apart
        ax.errorbar(
            centres + offset,
            mean,
            yerr=[np.maximum(mean - low, 0), np.maximum(high - mean, 0)],  # rounding
            marker="o",
            capsize=2,
            label=f"{_label(agent)} (n={total:,})",
        )
    if equilibrium is not None:
        label, shares = equilibrium
        ax.plot(centres, shares, "k--", linewidth=1.5, label=_label(label))
    ax.set_xlabel("hand strength percentile (bins of 0.1)")
    ax.set_ylabel("share of betting decisions that bet or raise")
    ax.set_title(
        "How often each agent bets or raises, by hand strength\n"
        "(95% Wilson intervals; n: betting decisions)",
        fontsize=10,
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out / "bet_frequency.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    written.append(path)

    categories = sorted({c for r in report.values() for c in r["exchange by category"]})
    if categories:
        written.append(_exchange_bars(report, agents, categories, out))
    return written


def _exchange_bars(
    report: dict[str, Any], agents: list[str], categories: list[str], out: Path
) -> Path:
    """One panel per agent: a horizontal bar per hand category, the share of its exchanges that
    discard, with its Wilson interval and its count (``discards/exchanges``)."""
    from lith_env.hands import CATEGORIES

    categories = sorted(categories, key=CATEGORIES.index)
    cols = min(4, len(agents))
    rows = math.ceil(len(agents) / cols)
    fig, axes = plt.subplots(
        rows,
        cols,
        sharey=True,
        squeeze=False,
        figsize=(2.2 + 3.3 * cols, (0.28 * len(categories) + 1.2) * rows + 0.6),
    )
    y = np.arange(len(categories))
    for i, (ax, agent) in enumerate(zip(axes.flat, agents, strict=False)):
        counts = report[agent]["exchange by category"]
        shares = [
            proportion_interval(counts[c]["count"], counts[c]["of"])
            if c in counts
            else proportion_interval(0, 0)
            for c in categories
        ]
        mean = np.array([s.mean for s in shares])
        spread = [
            np.maximum(np.nan_to_num(mean - [s.low for s in shares]), 0),
            np.maximum(np.nan_to_num([s.high for s in shares] - mean), 0),
        ]
        ax.barh(y, np.nan_to_num(mean), xerr=spread, capsize=2, color=f"C{i % 10}")
        for row, (category, share) in enumerate(zip(categories, shares, strict=True)):
            text = f"{counts[category]['count']}/{share.n}" if share.n else "none"
            ax.text(1.04, row, text, va="center", ha="left", fontsize=7)
        ax.set_xlim(0, 1.35)
        ax.set_xticks([0, 0.5, 1])
        ax.set_title(_label(agent), fontsize=9)
        ax.set_xlabel("share that discard", fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0, 0].set_yticks(y, categories)
    axes[0, 0].invert_yaxis()  # the strongest category at the top
    for ax in axes.flat[len(agents) :]:
        ax.set_visible(False)
    fig.suptitle(
        "Exchange choices by hand category (95% Wilson intervals; discards/exchange decisions)",
        fontsize=10,
    )
    fig.tight_layout()
    path = out / "exchange_by_category.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
