"""Strength and showdown equity of a Lith hand as its holder sees it, and the per-agent betting,
bluffing and exchange statistics built from tournament decisions.

Equity against one opponent is exact: the share of all hands an opponent could hold (every
3-card hand of the deck in play without my cards) that my hand beats, ties counting half.
Against k live opponents it is estimated as that share to the power k, as if their hands were
independent draws (they are not quite: they cannot share cards).
"""

from __future__ import annotations

import functools
import itertools
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lith_env.game import LithConfig
from lith_env.hands import CATEGORIES, classify, strength

__all__ = [
    "BLUFF_EQUITY",
    "RATES",
    "agent_report",
    "bets_by_strength",
    "equity",
    "format_rate",
    "hand_percentile",
    "read_jsonl",
]

BLUFF_EQUITY = 0.3  # a bet or raise with less showdown equity than this counts as a bluff
RATES = (
    "voluntary play",
    "aggression",
    "bluff rate",
    "bluff success",
    "fold to a bet",
    "showdown",
    "won at showdown",
    "exchange rate",
)


def read_jsonl(
    path: str | Path, check: Callable[[dict[str, Any]], None] | None = None
) -> list[dict[str, Any]]:
    """The JSON objects of a ``.jsonl`` file (a tournament's decisions or hand records);
    ``ValueError`` names the file and line of one that is not a JSON object or that
    ``check(found)`` rejects with a ``ValueError``."""
    out = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                found = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}:{number}: not JSON ({error})") from None
            if not isinstance(found, dict):
                raise ValueError(f"{path}:{number}: a JSON object expected, got {line.strip()!r}")
            if check is not None:
                try:
                    check(found)
                except ValueError as error:
                    raise ValueError(f"{path}:{number}: {error}") from None
            out.append(found)
    return out


def format_rate(row: dict[str, Any] | None) -> str:
    """``0.54 (178/330)``, or ``-`` when the rate has no denominator."""
    if not row or row["rate"] is None:
        return "-"
    return f"{row['rate']:.2f} ({row['count']}/{row['of']})"


def _roles(excuse: str | None) -> tuple[str | None, ...]:
    return ("imposter", "beggar") if excuse == "demon" else (excuse,)


@functools.cache
def _all_hands(pawns_and_courts: bool, excuse: str | None) -> tuple[np.ndarray, dict]:
    deck = LithConfig(pawns_and_courts=pawns_and_courts, excuse=excuse).deck
    hands = np.array(list(itertools.combinations(deck, 3)))
    keys = {
        role: strength(hands, pawns_and_courts=pawns_and_courts, excuse=role)
        for role in _roles(excuse)
    }
    return hands, keys


@functools.cache
def _equity_heads_up(cards: tuple[int, ...], pawns_and_courts: bool, excuse: str | None) -> float:
    hands, keys = _all_hands(pawns_and_courts, excuse)
    possible = ~np.isin(hands, cards).any(axis=1)
    total = 0.0
    for role, role_keys in keys.items():
        mine = strength([cards], pawns_and_courts=pawns_and_courts, excuse=role)[0]
        theirs = role_keys[possible]
        total += (np.count_nonzero(theirs < mine) + 0.5 * np.count_nonzero(theirs == mine)) / len(
            theirs
        )
    return total / len(keys)


def equity(cards: Sequence[int], live_opponents: int, config: LithConfig) -> float:
    """Showdown equity of ``cards`` against ``live_opponents`` unknown hands (see module docs)."""
    heads_up = _equity_heads_up(tuple(sorted(cards)), config.pawns_and_courts, config.excuse)
    return heads_up ** max(1, live_opponents)


@functools.cache
def _percentile(cards: tuple[int, ...], pawns_and_courts: bool, excuse: str | None) -> float:
    from lith_env.hands import percentile

    roles = _roles(excuse)
    return float(
        np.mean(
            [percentile([cards], pawns_and_courts=pawns_and_courts, excuse=r)[0] for r in roles]
        )
    )


def hand_percentile(cards: Sequence[int], config: LithConfig) -> float:
    """Strength percentile of a hand among all hands of the deck in play."""
    return _percentile(tuple(sorted(cards)), config.pawns_and_courts, config.excuse)


def _category(cards: Sequence[int], config: LithConfig) -> str:
    role = "imposter" if config.excuse == "demon" else config.excuse
    return classify(cards, pawns_and_courts=config.pawns_and_courts, excuse=role).category


def agent_report(
    decisions: Iterable[dict[str, Any]],
    config: LithConfig | None = None,
    bluff_equity: float = BLUFF_EQUITY,
) -> dict[str, dict[str, Any]]:
    """Per-agent statistics from tournament decisions, each as (count, denominator, rate):
    voluntary play (calls, bets, raises per betting decision), aggression (bets and raises per
    bet, raise or call), bluffs (bets and raises with equity below ``bluff_equity``), bluff
    success (bluffs that won with every opponent folding), fold to a bet, showdown and
    won-at-showdown (per hand), exchange rate by hand category, and the mean percentile gained
    by exchanging."""
    config = config or LithConfig()
    counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    by_category: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    gains: dict[str, list[float]] = defaultdict(list)
    hands_seen: dict[str, set] = defaultdict(set)  # (hand id, showdown, won) per agent
    for d in decisions:
        agent = d["agent"]
        c = counts[agent]
        if d["phase"] == "bet":
            aggressive = d["kind"] in ("bet", "raise")
            c["voluntary play"][0] += d["kind"] in ("call", "bet", "raise")
            c["voluntary play"][1] += 1
            if d["kind"] in ("call", "bet", "raise"):
                c["aggression"][0] += aggressive
                c["aggression"][1] += 1
            if aggressive:
                bluff = d["equity"] < bluff_equity
                c["bluff rate"][0] += bluff
                c["bluff rate"][1] += 1
                if bluff:
                    c["bluff success"][0] += d["others_folded"]
                    c["bluff success"][1] += 1
            if d["facing_bet"]:
                c["fold to a bet"][0] += d["kind"] == "fold"
                c["fold to a bet"][1] += 1
        else:
            category = _category(d["cards"], config)
            discarded = d["kind"] == "discard"
            by_category[agent][category][0] += discarded
            by_category[agent][category][1] += 1
            c["exchange rate"][0] += discarded
            c["exchange rate"][1] += 1
            if discarded:
                from lith_env.exchange import discard_values, unseen_cards

                unseen = unseen_cards(
                    d["cards"],
                    pawns_and_courts=config.pawns_and_courts,
                    excuse=config.excuse is not None,
                    in_play=config.deck,
                )
                values = discard_values(
                    d["cards"],
                    unseen,
                    pawns_and_courts=config.pawns_and_courts,
                    excuse=config.excuse,
                )
                gains[agent].append(float(values[d["cards"].index(d["card"])] - values[3]))
        hands_seen[agent].add((d["hand"], d["showdown"], d["won"]))
    report: dict[str, dict[str, Any]] = {}
    for agent, c in counts.items():
        hands = hands_seen[agent]
        shown = [won for _, showdown, won in hands if showdown]
        c["showdown"] = [len(shown), len(hands)]
        c["won at showdown"] = [sum(shown), len(shown)]
        rows = {
            name: {"count": k, "of": n, "rate": (k / n if n else None)}
            for name, (k, n) in c.items()
        }
        report[agent] = {
            "rates": rows,
            "exchange by category": {
                cat: {"count": k, "of": n, "rate": k / n}
                for cat, (k, n) in sorted(
                    by_category[agent].items(), key=lambda kv: CATEGORIES.index(kv[0])
                )
            },
            "mean exchange gain": float(np.mean(gains[agent])) if gains[agent] else None,
        }
    return report


def bets_by_strength(
    decisions: Iterable[dict[str, Any]], agent: str, bins: int = 10
) -> list[tuple[int, int]]:
    """Per tenth (``bins`` equal slices) of hand-strength percentile: how many of ``agent``'s
    betting decisions bet or raised, and how many there were."""
    bets = [d for d in decisions if d["agent"] == agent and d["phase"] == "bet"]
    strength = np.array([d["percentile"] for d in bets], dtype=float)
    aggressive = np.array([d["kind"] in ("bet", "raise") for d in bets], dtype=bool)
    which = np.clip(np.digitize(strength, np.linspace(0, 1, bins + 1)) - 1, 0, bins - 1)
    return [(int(aggressive[which == b].sum()), int((which == b).sum())) for b in range(bins)]
