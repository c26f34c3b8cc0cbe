"""PNG plots of tournament results and strategy analytics (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

__all__ = ["plot_analytics", "plot_tournament"]


def plot_tournament(result: dict[str, Any], out: Path) -> list[Path]:
    """A pairwise heatmap with intervals (heads-up Lith) and cumulative results per agent."""
    written = []
    names = result["agents"]
    if "pairings" in result:
        k = len(names)
        grid = np.full((k, k), np.nan)
        half = np.full((k, k), np.nan)
        for p in result["pairings"].values():
            a, b = names.index(p["agent"]), names.index(p["opponent"])
            c = p["chips_per_100"]
            grid[a, b], grid[b, a] = c["mean"], -c["mean"]
            half[a, b] = half[b, a] = (c["high"] - c["low"]) / 2
        fig, ax = plt.subplots(figsize=(1.6 * k + 2, 1.3 * k + 1.5))
        limit = np.nanmax(np.abs(grid)) if np.isfinite(grid).any() else 1.0
        image = ax.imshow(grid, cmap="RdBu", vmin=-limit, vmax=limit)
        for i in range(k):
            for j in range(k):
                if np.isfinite(grid[i, j]):
                    ax.text(
                        j,
                        i,
                        f"{grid[i, j]:+.1f}\n±{half[i, j]:.1f}",
                        ha="center",
                        va="center",
                        fontsize=9,
                    )
        ax.set_xticks(range(k), names, rotation=30, ha="right")
        ax.set_yticks(range(k), names)
        ax.set_title("chips/100 hands of the row agent against the column agent (95% ±)")
        fig.colorbar(image, ax=ax)
        fig.tight_layout()
        path = out / "pairwise_heatmap.png"
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(path)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for name, values in result["cumulative"].items():
        ax.plot(values, label=name)
    ax.set_xlabel("block")
    ax.set_ylabel("cumulative chips" if result["game"] == "lith" else "cumulative wins")
    ax.set_title(f"{result['game']}: cumulative results by block ({result['dealing']} dealing)")
    ax.legend()
    fig.tight_layout()
    path = out / "cumulative.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    written.append(path)
    return written


def plot_analytics(
    decisions: list[dict[str, Any]], report: dict[str, Any], out: Path
) -> list[Path]:
    """Bet/raise frequency against strength percentile per agent; exchange rate by category."""
    written = []
    bins = np.linspace(0, 1, 11)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for agent in sorted(report):
        bets = [d for d in decisions if d["agent"] == agent and d["phase"] == "bet"]
        if not bets:
            continue
        strength = np.array([d["percentile"] for d in bets])
        aggressive = np.array([d["kind"] in ("bet", "raise") for d in bets])
        which = np.clip(np.digitize(strength, bins) - 1, 0, len(bins) - 2)
        freq = [
            aggressive[which == b].mean() if (which == b).any() else np.nan
            for b in range(len(bins) - 1)
        ]
        ax.plot((bins[:-1] + bins[1:]) / 2, freq, marker="o", label=agent)
    ax.set_xlabel("hand strength percentile")
    ax.set_ylabel("share of betting decisions that bet or raise")
    ax.set_title("How often each agent bets or raises, by hand strength")
    ax.legend()
    fig.tight_layout()
    path = out / "bet_frequency.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    written.append(path)

    agents = sorted(report)
    categories = sorted({c for r in report.values() for c in r["exchange by category"]})
    if categories:
        from lith_env.hands import CATEGORIES

        categories.sort(key=CATEGORIES.index)
        fig, ax = plt.subplots(figsize=(10, 4.5))
        width = 0.8 / max(1, len(agents))
        for i, agent in enumerate(agents):
            rates = [
                report[agent]["exchange by category"].get(c, {}).get("rate", np.nan)
                for c in categories
            ]
            ax.bar(np.arange(len(categories)) + i * width, rates, width, label=agent)
        ax.set_xticks(
            np.arange(len(categories)) + 0.4 - width / 2, categories, rotation=45, ha="right"
        )
        ax.set_ylabel("share of exchanges that discard")
        ax.set_title("Exchange choices by hand category")
        ax.legend()
        fig.tight_layout()
        path = out / "exchange_by_category.png"
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(path)
    return written
