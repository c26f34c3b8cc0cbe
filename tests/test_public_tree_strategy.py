"""Any agent's table over the public tree and the hand held now
(``lith_solver.agent_strategy.public_tree_strategy``), what ``decktet best-response`` asks of
a bot without a table of its own: checked against a bot's own file, against the agent's
choices in hands played out by the real engine, and against the exact best response."""

from __future__ import annotations

import numpy as np
import pytest

from agents.solved import read_exchange_point
from lith_env.batched import BatchedLith
from lith_env.encoding import keep_id
from lith_env.game import LithConfig
from lith_solver import abstract_exchanges as ax
from lith_solver.agent_strategy import exchange_strategy, public_tree_strategy
from lith_solver.exchanges import ExchangeGame
from lith_solver.recall_layout import RecallLayout
from lith_solver.responder import BotTable
from tablegame.registry import make_agent
from tests.responder_helpers import CARDS, TINY, assert_near_the_exact_best_response

TWO = TINY
THREE = LithConfig(rounds=3, cards=CARDS, max_raises=0)  # two exchanges: every course


@pytest.mark.slow
@pytest.mark.parametrize("config", [TWO, THREE], ids=["rounds=2", "rounds=3"])
def test_an_abstract_bots_table_read_by_asking_it_is_its_files(config, tmp_path):
    solver = ax.ExchangeAbstractSolver(config, 4, seed=2, traversals=50)
    solver.iterate(50)
    ax.save_exchange_abstract(tmp_path, solver, {})
    agent = make_agent(f"abstract:{tmp_path}", "lith", config=config)
    asked = public_tree_strategy(agent, config, "abstract")
    layout = RecallLayout(config, 4)
    own = np.asarray(agent.game.strategy)[:, agent.game.bucket[layout.index], :]
    assert asked.shape == own.shape
    assert np.allclose(asked, own, atol=1e-6)


def _played_decisions(config: LithConfig, hands: int, seed: int):
    """Every decision of ``hands`` hands played with uniformly random legal actions by the
    batched engine: (observation, mask) of the seat to act."""
    rng = np.random.default_rng(seed)
    engine = BatchedLith(config, hands, episode="hand")
    engine.reset(seeds=seed)
    seen = []
    while True:
        live = np.flatnonzero(engine.current >= 0)
        if not len(live):
            return seen
        observations = engine.encode(engine.current.copy())
        masks = engine.action_masks()
        for t in live:
            seen.append((observations[t], masks[t]))
        actions = np.zeros(hands, dtype=np.int64)
        for t in live:
            actions[t] = rng.choice(np.flatnonzero(masks[t]))
        engine.step(actions, tables=live)


@pytest.mark.slow
def test_tags_table_gives_tags_choices_in_played_hands():
    """Betting, and exchanges before the agent's own second discard, hang only on the hand
    held now and the public course: the table gives the agent's choice there exactly."""
    agent = make_agent("tag", "lith", config=THREE)
    strategy = public_tree_strategy(agent, THREE, "tag")
    table = BotTable.by_hand(strategy, THREE)
    layout = RecallLayout(THREE, 4)
    tree, keep = layout.tree, keep_id(THREE)
    nodes = [{n.history: i for i, n in enumerate(t)} for t in tree.trees]
    size, checked = len(layout.deck), 0
    for obs, mask in _played_decisions(THREE, 300, seed=5):
        at = read_exchange_point(obs, tree.trees, tree.ends, nodes, "tag")
        key = (at.round, tree.stage_index[at.patterns], at.point, at.line)
        local = layout.position[list(at.hand)]
        cell = (local[0] * size + local[1]) * size + local[2]
        probabilities = table.strategy[table.row_of(layout.decision_of[key], cell)]
        if at.exchanging:
            ids = keep + np.arange(4)
            if any(given >= 0 for given in at.deal_key[3::2]):
                continue  # it gave a card before: read at one history, not this one
        else:
            ids = np.array(tree.trees[at.round][at.point].actions)
        chosen = agent.act(obs, mask)
        assert probabilities[list(ids).index(chosen)] == 1.0, (at, chosen, probabilities)
        checked += 1
    assert checked > 1000


@pytest.mark.slow
@pytest.mark.parametrize("heuristic", ["caller", "rock", "tag", "bluffer"])
def test_the_response_to_an_asked_heuristic_approaches_its_exact_best_response(heuristic):
    """Against each heuristic on 56 hands, the responder with perfect recall wins at least 95%
    of the exact best response (the heuristic read independently, per exact information
    set)."""
    game = ExchangeGame(TWO)
    agent = make_agent(heuristic, "lith", config=TWO)
    exact_bot = exchange_strategy(agent, game, heuristic)
    table = BotTable.by_hand(public_tree_strategy(agent, TWO, heuristic), TWO)
    assert_near_the_exact_best_response(game, exact_bot, table)


def test_a_mixture_drawn_per_hand_is_refused_naming_why(tmp_path):
    class Mixing:  # answers differently under two seeds, without action_probabilities
        def reset(self, seed=None):
            self.rng = np.random.default_rng(seed)

        def act_batch(self, observations, masks):
            return np.array([self.rng.choice(np.flatnonzero(m)) for m in masks])

    with pytest.raises(ValueError, match="coin: answers differently under two seeds"):
        public_tree_strategy(Mixing(), TWO, "coin")
