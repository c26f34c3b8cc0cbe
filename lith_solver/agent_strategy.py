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

On any game with exchanges, the full game included (:func:`public_tree_strategy`), for every
decision of the public tree and every hand the agent may hold there: per exchange course and
position, one table per hand, the public tree walked once.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence

import numpy as np

from lith_env.batched import BatchedLith
from lith_env.encoding import keep_id
from lith_env.game import LithConfig
from lith_solver.abstract_exchanges import BET, FOLD, SHOWDOWN, PublicTree, one_round_config
from lith_solver.exchanges import (
    DISCARDS,
    ExchangeGame,
    ExchangeSolver,
    Stage,
    deciding_player,
)
from lith_solver.one_round import OneRoundGame, path_to
from tablegame.agent import Agent, act_batch

__all__ = [
    "agent_probabilities",
    "agent_profile",
    "deal_orders",
    "exchange_strategy",
    "public_tree_strategy",
]

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


# ---------------------------------------------------------------------------------------------
# Any game with exchanges: the public tree, by the hand held now


def public_tree_strategy(
    agent: Agent,
    config: LithConfig,
    name: str = "agent",
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """The agent's probability of each action at every decision of the public tree
    (:class:`~lith_solver.abstract_exchanges.PublicTree`) for every hand it may hold there:
    (decisions, hands, 4) float32, hands in the deck's ``OneRoundGame`` order, actions in the
    tree's order (at an exchange: keep, then discard the first to third card).

    For each course of the exchanges and each position of the agent, one table per hand is
    dealt a history that leaves the agent holding that hand (the cards it received are the
    hand's lowest; those it gave, the first cards of the deck outside it), and the public tree
    is walked once, the agent asked in one batch at each of its decisions (checked by
    :func:`agent_probabilities`). An agent whose choice hangs on more of its own history than
    the hand it holds (which card it gave) is read at that one history. ``progress`` is
    called with the number of decisions read."""
    tree = PublicTree(config)
    hands = OneRoundGame(one_round_config(config)).hands
    deck = np.array(sorted(config.deck), dtype=np.int64)
    keep = keep_id(config)
    out = np.zeros((len(tree.decisions), len(hands), 4), dtype=np.float32)
    engine = BatchedLith(config, len(hands), episode="hand")
    for patterns, stage in tree.stage_index.items():
        for position in (0, 1):
            orders, exchanges = _stage_deals(patterns, position, hands, deck, keep)
            engine.reset_to_decks(
                orders, np.zeros(len(hands), dtype=np.int64), np.zeros(len(hands), dtype=bool)
            )
            walk = _TreeWalk(tree, agent, name, out, stage, position, exchanges, keep, progress)
            walk.visit(0, engine)
    return out


class _TreeWalk:
    """A walk of the public tree for one exchange course (``stage``) and one position of the
    agent: betting before the course's last exchange is walked through, the exchanges played
    as ``exchanges`` says, and the agent asked at its decisions of ``stage``."""

    def __init__(self, tree, agent, name, out, stage, position, exchanges, keep, progress):
        self.tree, self.agent, self.name, self.out = tree, agent, name, out
        self.stage, self.position, self.exchanges, self.keep = stage, position, exchanges, keep
        self.progress = progress

    def visit(self, node: int, engine: BatchedLith) -> None:
        """Walk the subtree of ``node``, ``engine``'s tables standing there."""
        tree = self.tree
        kind, key = tree.kind[node], tree.keys[node]
        if kind in (FOLD, SHOWDOWN):
            return
        if kind == BET:
            if key[1] == self.stage and tree.player[node] == self.position:
                self.ask(node, engine)
            ids = tree.trees[key[0]][key[2]].actions
            self.branch(engine, [(tree.child[node, a], [ids[a]]) for a in range(tree.width[node])])
            return
        e = key[0]  # the exchange after betting round e
        if e < len(self.exchanges):  # done in this course: both choices played
            first, dealer = self.exchanges[e]
            x1 = tree.child[node, int(first[0] > self.keep)]
            after = tree.child[x1, int(dealer[0] > self.keep)]
            self.branch(engine, [(after, [first, dealer])])
            return
        if key[1] != self.stage:
            return
        if self.position == 0:  # the exchange's first decision
            self.ask(node, engine)
            return
        for a, choice in ((0, self.keep), (1, self.keep + 1)):  # the other kept, or discarded
            moved = copy.deepcopy(engine)
            moved.step(np.full(len(engine.current), choice, dtype=np.int64))
            self.ask(tree.child[node, a], moved)

    def branch(self, engine: BatchedLith, moves: list) -> None:
        """Visit each (child, actions) in a copy of ``engine`` with the actions played (the
        last one in ``engine`` itself)."""
        live = [(c, acts) for c, acts in moves if self.tree.kind[c] not in (FOLD, SHOWDOWN)]
        for i, (child, actions) in enumerate(live):
            moved = engine if i == len(live) - 1 else copy.deepcopy(engine)
            for action in actions:
                moved.step(np.broadcast_to(action, engine.current.shape).astype(np.int64))
            self.visit(child, moved)

    def ask(self, node: int, engine: BatchedLith) -> None:
        """The agent's probabilities at ``node`` for every hand, into ``out``."""
        tree = self.tree
        key, seat = tree.keys[node], _SEATS[self.position]
        if not (engine.current == seat).all():
            raise AssertionError(f"the engine's seat to act departs from decision {key}")
        if tree.kind[node] == BET:
            ids = np.array(tree.trees[key[0]][key[2]].actions)
        else:
            ids = self.keep + np.arange(4)
        observations = engine.encode(np.full(len(engine.current), seat))
        read = agent_probabilities(self.agent, observations, engine.action_masks(), self.name)
        self.out[tree.decision[node], :, : len(ids)] = read[:, ids]
        if self.progress is not None:
            self.progress(1)


def _stage_deals(
    patterns: tuple[str, ...], position: int, hands: np.ndarray, deck: np.ndarray, keep: int
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """Deck orders (one per hand) and each exchange's action ids of (first player, dealer)
    that leave the player in ``position`` holding ``hands`` after the exchanges ``patterns``.

    Its j-th discard gives the deck's j-th card outside the hand and gets the hand's j-th
    card: from the deck when it discards alone, from the other in a swap (dealt to the other
    for that). The other, discarding alone, gives its own dealt cards in order and draws the
    next cards outside the hand."""
    k = len(hands)
    outside = np.ones((k, deck.max() + 1), dtype=bool)
    outside[np.arange(k)[:, None], hands] = False
    fresh = deck[np.argsort(~outside[:, deck], axis=1, kind="stable")[:, : len(deck) - 3]]
    mine = [e for e, pattern in enumerate(patterns) if DISCARDS[pattern][position]]
    dealt = hands.copy()
    dealt[:, : len(mine)] = fresh[:, : len(mine)]
    destined = [hands[:, j] for j, e in enumerate(mine) if patterns[e] == "swap"]
    own = [fresh[:, len(mine) + i] for i in range(3 - len(destined))]
    other_dealt = np.stack(destined + own, axis=1)
    nxt = len(mine) + len(own)
    held, other = np.sort(dealt, axis=1), np.sort(other_dealt, axis=1)
    drawn, exchanges, j = [], [], 0
    for pattern in patterns:
        ids = np.full((2, k), keep, dtype=np.int64)
        i_discard, other_discards = DISCARDS[pattern][position], DISCARDS[pattern][1 - position]
        if i_discard:
            gave, got = fresh[:, j], hands[:, j]
            ids[position] = keep + 1 + _slot(held, gave)
            j += 1
        if other_discards:
            their = got if i_discard else own.pop(0)  # in a swap, the card it gets
            ids[1 - position] = keep + 1 + _slot(other, their)
        if i_discard and other_discards:
            held, other = _replace(held, gave, got), _replace(other, their, gave)
        elif i_discard:
            drawn.append(got)
            held = _replace(held, gave, got)
        elif other_discards:
            drawn.append(fresh[:, nxt])
            other = _replace(other, their, fresh[:, nxt])
            nxt += 1
        exchanges.append((ids[0], ids[1]))
    if not np.array_equal(held, hands):
        raise AssertionError(f"the dealt history of course {patterns!r} misses the hands")
    first, dealer = (dealt, other_dealt) if position == 0 else (other_dealt, dealt)
    return deal_orders(deck, first, dealer, drawn), exchanges


def _slot(held: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Where each of ``cards`` is in its row of sorted ``held`` hands."""
    found = held == cards[:, None]
    if not found.any(axis=1).all():
        raise AssertionError("a card to give is not in the hand")
    return np.argmax(found, axis=1)


def _replace(held: np.ndarray, gave: np.ndarray, got: np.ndarray) -> np.ndarray:
    return np.sort(np.where(held == gave[:, None], got[:, None], held), axis=1)
