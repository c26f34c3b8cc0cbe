"""Any agent's strategy on a heads-up Lith game the solvers handle, read by querying it.

The agent is asked for its action at every information set, in batches through the batched
engine: a table is dealt (by its deck order) a hand, or a joint history, that reaches the
point, and played there; the acting seat's observations then go to the agent in one batch
(``act_batch``, or ``action_probabilities`` for a stochastic agent).

On the one-round game (:func:`agent_profile`): every hand of the deck, in each position, at
each betting history. On a game with exchanges (:func:`exchange_strategy`), for every decision
point of an :class:`~lith_solver.exchanges.ExchangeGame` (a betting node, or an exchange
decision, after given betting lines and a given course of the exchanges) and every private
state of the acting player: the deal and the cards drawn are put in the deck order, the
betting lines and both players' exchange choices are played as actions.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from lith_env.batched import BatchedLith
from lith_env.encoding import keep_id
from lith_solver.exchanges import ExchangeGame, ExchangeSolver, Stage, deciding_player
from lith_solver.one_round import OneRoundGame, path_to
from tablegame.agent import Agent, act_batch

__all__ = ["agent_probabilities", "agent_profile", "deal_orders", "exchange_strategy"]

_SEATS = (1, 0)  # the seat of each position when seat 0 deals: seat 1 acts first

_SEEDS = (1, 2)  # an agent without probabilities must answer the same under both
_FIRST_SEAT = 1  # the dealer is seat 0, so seat 1 acts first (position 0)


def deal_orders(
    deck: np.ndarray, first: np.ndarray, dealer: np.ndarray, drawn: Sequence[np.ndarray] = ()
) -> np.ndarray:
    """Deck orders (top first) that deal ``first`` (k, 3) to the player acting first (seat 1)
    and ``dealer`` (k, 3) to the dealer (seat 0), one card at a time from the dealer's left,
    then the ``drawn`` cards in order, then the rest of the deck."""
    k = len(first)
    top = np.empty((k, 6 + len(drawn)), dtype=np.int64)
    top[:, [0, 2, 4]] = first
    top[:, [1, 3, 5]] = dealer
    for i, cards in enumerate(drawn):
        top[:, 6 + i] = cards
    used = np.zeros((k, deck.max() + 1), dtype=bool)
    used[np.arange(k)[:, None], top] = True
    rest = np.argsort(used[:, deck], axis=1, kind="stable")[:, : len(deck) - top.shape[1]]
    return np.concatenate([top, deck[rest]], axis=1)


def _deck_orders(game: OneRoundGame, position: int) -> np.ndarray:
    """Deck orders, one per hand, that deal that hand to the player in ``position`` and the
    first cards of the deck not in it to the other."""
    hands, deck = game.hands, game.deck
    in_hand = np.zeros((len(hands), deck.max() + 1), dtype=bool)
    in_hand[np.arange(len(hands))[:, None], hands] = True
    others = deck[np.argsort(in_hand[:, deck], axis=1, kind="stable")[:, :3]]
    return deal_orders(deck, hands, others) if position == 0 else deal_orders(deck, others, hands)


def agent_profile(agent: Agent, game: OneRoundGame, name: str = "agent") -> list[np.ndarray]:
    """The agent's probability of each action at every decision node (hands, actions), for
    every hand, in the node's position. ``ValueError`` names an agent that is stochastic
    without ``action_probabilities``, or whose probabilities are not a distribution over the
    legal actions."""
    profile = game.uniform_profile()
    num_hands = game.num_hands
    engine = BatchedLith(game.config, num_hands, episode="hand")
    for position in (0, 1):
        orders = _deck_orders(game, position)
        seat = _FIRST_SEAT if position == 0 else 1 - _FIRST_SEAT
        for index in game.decisions:
            node = game.tree[index]
            if node.player != position:
                continue
            engine.reset_to_decks(
                orders, np.zeros(num_hands, dtype=np.int64), np.zeros(num_hands, dtype=bool)
            )
            for action in path_to(game.tree, index):
                engine.step(np.full(num_hands, action, dtype=np.int64))
            if not (engine.current == seat).all():
                raise AssertionError(f"the engine's seat to act departs from node {node.history!r}")
            observations = engine.encode(np.full(num_hands, seat))
            masks = engine.action_masks()
            probabilities = agent_probabilities(agent, observations, masks, name)
            profile[index] = probabilities[:, list(node.actions)]
    return profile


def agent_probabilities(agent: Agent, observations: np.ndarray, masks: np.ndarray, name: str):
    """(k, actions) probabilities of an agent's actions, checked."""
    given = getattr(agent, "action_probabilities", None)
    if given is not None:
        out = np.asarray(given(observations, masks), dtype=np.float64)
        if out.shape != masks.shape:
            raise ValueError(
                f"{name}: action_probabilities gave shape {out.shape}, expected {masks.shape}"
            )
        if (out < -1e-9).any() or not np.allclose(out.sum(axis=1), 1.0, atol=1e-6):
            raise ValueError(f"{name}: action_probabilities rows must be distributions")
        if (out[masks == 0] > 1e-9).any():
            raise ValueError(f"{name}: action_probabilities gives weight to illegal actions")
        return out
    answers = []
    for seed in _SEEDS:
        agent.reset(seed=seed)
        answers.append(act_batch(agent, observations, masks))
    if not np.array_equal(answers[0], answers[1]):
        raise ValueError(
            f"{name}: answers differently under two seeds, so it plays a mixed strategy; "
            "give it action_probabilities(observations, masks) -> (k, actions) to measure it"
        )
    chosen = answers[0]
    if not masks[np.arange(len(chosen)), chosen].all():
        raise ValueError(f"{name}: chose an illegal action")
    out = np.zeros(masks.shape)
    out[np.arange(len(chosen)), chosen] = 1.0
    return out


def exchange_strategy(agent: Agent, game: ExchangeGame, name: str) -> dict[tuple, np.ndarray]:
    """The agent's probability of each action at every decision point, for every line and
    private state: arrays (lines, states, actions) keyed like the solver's strategies.
    Each point's probabilities are read with :func:`agent_probabilities` (checked)."""
    if game.method != "joint":
        raise ValueError(
            f"cards: {len(game.deck)} cards are too many to deal every private state a table "
            "(the game was built without joint histories); measure agents on a smaller deck"
        )
    out = {}
    for key, (lines, states, _) in ExchangeSolver.shapes(game).items():
        r, stage_index, point = key
        stage = game.stages[stage_index]
        player = deciding_player(game, key)
        joints = _representatives(stage, player)  # (states,)
        actions, orders = _scripts(game, stage, key, joints, lines)
        tables = lines * states
        engine = BatchedLith(game.config, tables, episode="hand")
        engine.reset_to_decks(orders, np.zeros(tables, dtype=np.int64), np.zeros(tables, bool))
        for step in range(actions.shape[1]):
            live = np.flatnonzero(actions[:, step] >= 0)
            if len(live):
                engine.step(np.maximum(actions[:, step], 0), tables=live)
        seat = _SEATS[player]
        if not (engine.current == seat).all():
            raise AssertionError(f"the engine's seat to act departs from decision {key}")
        observations = engine.encode(np.full(tables, seat))
        masks = engine.action_masks()
        read = agent_probabilities(agent, observations, masks, name)
        if isinstance(point, str):
            ids = keep_id(game.config) + np.arange(4)
        else:
            ids = np.array(game.trees[r][point].actions)
        out[key] = read[:, ids].reshape(lines, states, len(ids))
    return out


def _representatives(stage: Stage, player: int) -> np.ndarray:
    """For each private state of ``player`` at ``stage``, one joint history that holds it."""
    states = stage.states[player]
    first = np.full(stage.num_states[player], -1, dtype=np.int64)
    first[states[::-1]] = np.arange(len(states))[::-1]  # the earliest wins
    return first


def _scripts(
    game: ExchangeGame, stage: Stage, key: tuple, joints: np.ndarray, lines: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per table (line-major, then state): the action ids that lead to the decision point
    (padded with -1), and the deck order that deals the joint history."""
    r, _, point = key
    keep = keep_id(game.config)
    states = len(joints)
    hands0, hands1 = stage.keys[0][joints, :3], stage.keys[1][joints, :3]
    exchanges = len(stage.patterns)
    # Cards drawn, in exchange order: the received card of the lone discarder.
    drawn = []
    for e, pattern in enumerate(stage.patterns):
        if pattern in ("draw0", "draw1"):
            p = 0 if pattern == "draw0" else 1
            drawn.append(stage.keys[p][joints, 4 + 2 * e])
    orders = deal_orders(game.deck, hands0, hands1, drawn)
    # The betting lines of the finished rounds, as actions; then this round's, or none.
    rounds_done = r + 1 if isinstance(point, str) else r
    per_line = []
    for line in range(lines):
        script: list = []
        for q in range(rounds_done):
            size = np.prod([len(game.ends[x]) for x in range(q)]) if q else 1
            end = game.ends[q][(line // int(size)) % len(game.ends[q])]
            script.append(path_to(game.trees[q], end))
        per_line.append(script)
    now = [] if isinstance(point, str) else path_to(game.trees[r], point)
    columns = []
    for line in range(lines):
        row: list = []
        for q in range(rounds_done):
            row.append(np.broadcast_to(per_line[line][q], (states, len(per_line[line][q]))))
            if q < exchanges:  # the exchange after round q, played by both
                slots = [stage.keys[p][joints, 3 + 2 * q] for p in (0, 1)]
                row.append(np.stack([np.where(s >= 0, keep + 1 + s, keep) for s in slots], 1))
        if isinstance(point, str) and point != "x0":  # the first player's choice, seen
            choice = keep if point == "x1k" else keep + 1
            row.append(np.full((states, 1), choice))
        row.append(np.broadcast_to(np.array(now, dtype=np.int64), (states, len(now))))
        columns.append(np.concatenate(row, axis=1) if row else np.zeros((states, 0)))
    width = max(c.shape[1] for c in columns)
    actions = np.full((lines * states, width), -1, dtype=np.int64)
    for line, c in enumerate(columns):
        actions[line * states : (line + 1) * states, : c.shape[1]] = c
    return actions, np.tile(orders, (lines, 1))
