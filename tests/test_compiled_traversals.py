"""The solvers' recursive traversals compile once a type of table: numba compiles a function
again for a call with literal arguments, so a root called with ``0`` would compile the whole
traversal twice (seconds each, in every process that solves). Checked in a fresh process,
where every kernel compiles, by numba's own record of what it compiled."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SOLVE_AND_RECORD = """
import json
from numba.core import event
from lith_env.game import LithConfig
from lith_solver.abstract_exchanges import ExchangeAbstractSolver
from lith_solver.abstraction import AbstractSolver
from lith_solver.one_round import OneRoundGame
from lith_solver.recall_layout import RecallLayout
from lith_solver.responder import BotTable, ResponderSolver
from lith_solver.swap_abstraction import SwapAbstractSolver
from tests.responder_helpers import TINY

with event.install_recorder("numba:compile") as record:
    AbstractSolver(OneRoundGame(LithConfig(rounds=1, cards=tuple(range(8)))), 4).iterate(1)
    ExchangeAbstractSolver(TINY, 4, traversals=2).iterate(1)
    bot = SwapAbstractSolver(TINY, 4, traversals=2)
    bot.iterate(1)
    table = BotTable.of_layout(bot.layout, bot.average_strategy())
    responder = ResponderSolver(RecallLayout(TINY, 4), table, traversals=2)
    responder.iterate(1)  # learning
    responder.sampled_values(2, seed=1)  # playing
compiled = [
    [e.data["dispatcher"].py_func.__module__, e.data["dispatcher"].py_func.__name__,
     [str(a) for a in e.data["args"]]]
    for _, e in record.buffer if e.is_start
]
print(json.dumps(compiled))
"""


@pytest.mark.slow
def test_every_traversal_compiles_once_without_literal_arguments():
    done = subprocess.run(
        [sys.executable, "-c", SOLVE_AND_RECORD],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    compiled = json.loads(done.stdout.splitlines()[-1])
    solvers = [(m, f, args) for m, f, args in compiled if m.startswith("lith_solver.")]
    traversals = [(m, f) for m, f, _ in solvers if f in ("_traverse", "_respond")]
    assert sorted(traversals) == [
        ("lith_solver.abstract_exchanges", "_traverse"),
        ("lith_solver.abstraction", "_traverse"),
        ("lith_solver.responder", "_respond"),
        ("lith_solver.swap_abstraction", "_traverse"),
    ]  # each once: learning and playing share the responder's
    literal = [(m, f) for m, f, args in solvers if any("Literal" in a for a in args)]
    assert not literal, literal
