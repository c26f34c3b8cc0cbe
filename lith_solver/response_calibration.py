"""The sampled best response (``decktet best-response``) against the exact one, on games the
exact solver holds.

    python -m lith_solver.response_calibration [--iterations N] [--game NAME] [--out FILE]

For each small game (``rounds=2`` on 14 cards, ``rounds=3`` on 9) an abstract bot is solved
(MCCFR on 10 equity buckets), its exact best response computed (``lith_solver.exchanges``), and
the responder solved against it with recall "swap" (what the full game uses) and, with two
rounds, "perfect". Each response is then evaluated exactly in the exact game: its share of the exact
best response's value, in each position, is the table ``docs/best_response.md`` shows.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lith_env.game import LithConfig
from lith_solver import abstract_exchanges as ax
from lith_solver.exchanges import (
    ExchangeGame,
    best_response_value,
    profile_value,
)
from lith_solver.recall_layout import RecallLayout, layout_strategy
from lith_solver.responder import POLICIES, BotTable, ResponderSolver

__all__ = ["GAMES", "exact_response_value", "main"]

GAMES = {
    "rounds=2, 14 cards": LithConfig(rounds=2, cards=tuple(range(14))),
    "rounds=3, 9 cards": LithConfig(rounds=3, cards=tuple(range(9))),
}


def exact_response_value(
    game: ExchangeGame, layout: RecallLayout, table: BotTable, strategy: np.ndarray, p: int
) -> float:
    """Chips a hand the responder in position ``p`` wins playing ``strategy`` (its rows)
    against the bot's ``table``, evaluated exactly: each private state of the exact game plays
    the row its layout (the bot: its table) gives it. Against a mixture: each member's value
    by its weight."""
    if table.members > 1:
        return sum(
            float(w) * exact_response_value(game, layout, table.member(m), strategy, p)
            for m, w in enumerate(table.weights)
        )
    profile = layout_strategy(layout, layout, game, strategy, player=p)
    profile.update(layout_strategy(table, layout, game, table.strategy, player=1 - p))
    value = profile_value(game, profile)
    return value if p == 0 else -value


def calibrate(
    name: str, config: LithConfig, iterations: int, prune: float = 0.0
) -> list[dict[str, Any]]:
    """One game's rows: each recall's and policy's exact share of the best response, by
    position."""
    bot = ax.ExchangeAbstractSolver(config, 10, seed=1, traversals=100)
    bot.iterate(1000)
    table = BotTable.dense(bot.average_strategy(), bot.bucket)
    game = ExchangeGame(config)
    exact_bot = ax.exact_game_strategy(bot, game, bot.average_strategy())
    best = [best_response_value(game, exact_bot, p)[0] for p in range(2)]
    rows = []
    # A perfect recall's dense rows hold every slot and card at each exchange: past one
    # exchange on 9 cards that is 52 GB, so three rounds are calibrated with recall swap only.
    for recall in ("swap", "perfect") if config.rounds == 2 else ("swap",):
        layout = RecallLayout(config, math.comb(len(config.deck), 3), recall=recall)
        solver = ResponderSolver(layout, table, seed=1, traversals=100, prune=prune)
        start = time.process_time()
        solver.iterate(iterations)
        seconds = time.process_time() - start
        for policy in POLICIES:
            found = [exact_response_value(game, layout, table, solver.strategy(policy), p)
                     for p in range(2)]  # fmt: skip
            rows.append({
                "game": name, "recall": recall, "policy": policy, "iterations": iterations,
                "prune": prune,
                "cpu_seconds": round(seconds, 1), "best": best, "found": found,
                "share": [f / b for f, b in zip(found, best, strict=True)],
            })  # fmt: skip
            print(json.dumps(rows[-1]), flush=True)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lith_solver.response_calibration")
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--game", choices=list(GAMES), action="append", default=None,
                        help="a game to calibrate (default: both)")  # fmt: skip
    parser.add_argument("--prune", type=float, default=0.0,
                        help="skip actions this many chips an iteration behind (default 0: "
                        "walk every action)")  # fmt: skip
    parser.add_argument("--out", default=None, help="a JSON file for the rows")
    args = parser.parse_args(argv)
    if args.iterations < 1:
        parser.error(f"--iterations: must be a positive integer, got {args.iterations}")
    if not args.prune >= 0:
        parser.error(f"--prune: must be at least 0, got {args.prune}")
    names = args.game or list(GAMES)
    rows = [
        row for name in names for row in calibrate(name, GAMES[name], args.iterations, args.prune)
    ]
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
