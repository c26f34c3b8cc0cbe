"""Helpers for the best-response and abstraction tests: the eight-card game, a weak abstract
bot saved, the perfect-recall responder held to the exact best response, and a saved bot
played through its agent held to what its solver measured."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from lith_env.game import LithConfig
from lith_solver import abstract_exchanges as ax
from lith_solver.exchanges import ExchangeGame, best_response_value
from lith_solver.exploitability import best_response_to, solvable_game
from lith_solver.recall_layout import RecallLayout
from lith_solver.responder import BotTable, ResponderSolver
from lith_solver.response_calibration import exact_response_value
from tablegame.registry import make_agent

CARDS = tuple(range(0, 16, 2))  # eight cards: 56 hands
TINY = LithConfig(rounds=2, cards=CARDS, max_raises=0)
RULES = ["--rule", "rounds=2", "--rule", "cards=" + ",".join(map(str, CARDS)),
         "--rule", "max_raises=0"]  # fmt: skip


def saved_abstract_bot(folder: Path, config: LithConfig = TINY) -> ax.ExchangeAbstractSolver:
    """A weak abstract bot (4 buckets, 100 iterations), saved in ``folder`` as ``abstract:``."""
    solver = ax.ExchangeAbstractSolver(config, 4, seed=2, traversals=100)
    solver.iterate(100)
    ax.save_exchange_abstract(folder, solver, {})
    return solver


def assert_near_the_exact_best_response(
    game: ExchangeGame, exact_bot: Any, table: BotTable, share: float = 0.95, prune: float = 0.0
) -> None:
    """A perfect-recall responder against ``table`` (pruning at ``prune``), after 1,000
    iterations, wins at least ``share`` of the exact best response to ``exact_bot`` in each
    position, and never more."""
    layout = RecallLayout(game.config, math.comb(len(game.deck), 3), recall="perfect")
    solver = ResponderSolver(layout, table, seed=3, traversals=100, prune=prune)
    solver.iterate(1000)
    for p in range(2):
        best = best_response_value(game, exact_bot, p)[0]
        found = exact_response_value(game, layout, table, solver.average_strategy(), p)
        assert found <= best + 1e-9  # nothing beats a best response
        assert found >= share * best, (p, found, best)


def assert_the_agent_plays_what_was_measured(
    folder: Path, figures: dict[str, float], config: LithConfig, tolerance: float = 1e-6
) -> None:
    """The bot saved in ``folder``, played as ``abstract:`` with each policy, has the exact
    exploitability its solver measured (``figures``: ``real_average``, ``real_current``)."""
    for policy in ("average", "current"):
        spec = f"abstract:{folder}:policy={policy}"
        agent = make_agent(spec, "lith", seed=0, config=config)
        measured = best_response_to(agent, solvable_game(config), spec)["exploitability"]
        assert abs(measured - figures[f"real_{policy}"]) <= tolerance, (policy, measured, figures)
