"""The suite's demo, `make demo`: the Lith hand table and a few hands evaluated.

Later issues extend it to train a bot and run a tournament.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np
from rich.console import Console
from rich.table import Table

from lith_env.cards import card_ids, deck
from lith_env.hands import classify, percentile, print_table, strength, tie_order

SAMPLE_HANDS = [
    ("The End", "The Market", "The Origin"),
    ("The Pact", "The Diplomat", "The Mountain"),
    ("The Huntress", "The Bard", "The Merchant"),
    ("The Painter", "The Origin", "Ace of Suns"),
    ("The Diplomat", "The Mill", "The Origin"),
    ("The Consul", "The Painter", "Ace of Wyrms"),
]


def main(argv: Sequence[str] | None = None) -> int:
    """Print the hand table, sample hands, and one seeded deal with its winner."""
    parser = argparse.ArgumentParser(prog="python -m lith_env.demo", description=__doc__)
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample deal")
    parser.add_argument("--players", type=int, default=4, help="hands in the sample deal (2-10)")
    args = parser.parse_args(argv)
    if not 2 <= args.players <= 10:
        parser.error(f"--players must be 2-10, got {args.players}")
    console = Console()

    print_table()

    samples = Table(title="Sample hands (cards in tie order)")
    for column in ("hand", "category", "qualifier", "percentile"):
        samples.add_column(column, justify="right" if column == "percentile" else "left")
    sample_pct = percentile([card_ids(hand) for hand in SAMPLE_HANDS])
    for hand, p in zip(SAMPLE_HANDS, sample_pct, strict=True):
        kind = classify(hand)
        samples.add_row(", ".join(tie_order(hand)), kind.category, kind.qualifier, f"{100 * p:.2f}")
    console.print(samples)

    rng = np.random.default_rng(args.seed)
    dealt = rng.permutation(deck())[: 3 * args.players].reshape(args.players, 3)
    scores = strength(dealt)
    deal = Table(title=f"A deal to {args.players} players (seed {args.seed})")
    for column in ("seat", "hand", "category", "percentile"):
        deal.add_column(column, justify="right" if column == "percentile" else "left")
    for seat, (hand, p) in enumerate(zip(dealt, percentile(dealt), strict=True)):
        names = tie_order(hand.tolist())
        mark = "  <- wins" if scores[seat] == scores.max() else ""
        deal.add_row(str(seat), ", ".join(names), classify(names).category + mark, f"{100 * p:.2f}")
    console.print(deal)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
