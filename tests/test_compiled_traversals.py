"""The solvers' recursive traversals compile once a type of table: numba compiles a recursive
function again for a call with literal arguments, so a root called with ``0`` would compile
the whole traversal twice (seconds each, in every process that solves)."""

from __future__ import annotations

import pytest

from lith_env.game import LithConfig
from lith_solver import abstract_exchanges, abstraction, responder, swap_abstraction
from lith_solver.abstract_exchanges import ExchangeAbstractSolver
from lith_solver.abstraction import AbstractSolver
from lith_solver.one_round import OneRoundGame
from lith_solver.recall_layout import RecallLayout
from lith_solver.responder import BotTable, ResponderSolver
from lith_solver.swap_abstraction import SwapAbstractSolver
from tests.responder_helpers import TINY


def literal_signatures(kernel) -> list:
    """The compiled signatures of ``kernel`` with a literal argument."""
    return [s for s in kernel.signatures if any("Literal" in str(t) for t in s)]


@pytest.mark.slow
def test_every_traversal_compiles_without_literal_arguments():
    AbstractSolver(OneRoundGame(LithConfig(rounds=1, cards=tuple(range(8)))), 4).iterate(1)
    ExchangeAbstractSolver(TINY, 4, traversals=2).iterate(1)
    bot = SwapAbstractSolver(TINY, 4, traversals=2)
    bot.iterate(1)
    table = BotTable.of_layout(bot.layout, bot.average_strategy())
    solver = ResponderSolver(RecallLayout(TINY, 4), table, traversals=2)
    solver.iterate(1)  # learning
    solver.sampled_values(2, seed=1)  # playing
    for module in (abstraction, abstract_exchanges, swap_abstraction):
        assert module._traverse.signatures and not literal_signatures(module._traverse)
    assert responder._respond.signatures and not literal_signatures(responder._respond)
