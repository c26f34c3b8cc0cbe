"""Exact equilibria of heads-up limit Lith with exchanges (``rounds=2`` or ``3``) on small decks.

The game: two players ante and are dealt three cards; betting rounds as in the one-round game
(``lith_solver.one_round``), each with its own bet size; between two rounds an exchange: the player
acting first keeps or discards one card face down, then the dealer does, seeing whether the
first discarded. If both discarded they swap the discards; if one did, it draws the top card
of the deck and its discard goes to the bottom. Each player learns whether the other
discarded, and which card it got; after a swap each knows one card of the other's hand.

The solver enumerates, for every public course of the exchanges (a *stage*: at each exchange
nobody discarded, one player drew, or they swapped), every joint history of private cards —
the deal, the discarded cards, the cards drawn — and from it each player's private states
(what that player knows of the cards) and a sparse matrix between the two players' states:
the chance weight of each consistent pair, signed by who wins the showdown. Discounted CFR
then runs on the public tree, every quantity an array over (earlier betting lines, private
states). The joint enumeration is exact and simple but grows with the deck; past
``MAX_JOINTS`` the stages are built per player instead (``lith_solver.factored``). The docs
say which sizes fit and which build is faster where.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np
from scipy import sparse

from lith_env.game import LithConfig
from lith_env.hands import strength
from lith_solver.kernels import (
    discounted_update,
    moved_reach,
    regret_matching,
    summed_into_parents,
)
from lith_solver.last_round import BEST_RESPONSE, CFR, EVAL
from lith_solver.last_round import last_round as generic_last_round
from lith_solver.one_round import (
    ALPHA,
    BETA,
    GAMMA,
    betting_tree,
    check_stacks,
    dcfr_weights,
    normalized,
)
from lith_solver.tree_walks import last_round_for

__all__ = [
    "ExchangeGame",
    "ExchangeSolver",
    "Stage",
    "auto_build",
    "best_response_value",
    "check_exchange_solvable",
    "deciding_player",
    "discard_report",
    "exploitability",
    "joint_histories",
    "profile_value",
    "row_classes",
    "strategy_entries",
]

DECISION_NAMES = {"x0": "first", "x1k": "dealer after a keep", "x1d": "dealer after a discard"}
BUILDS = ("joint", "factored")  # how a game is laid out; a saved strategy names its own
METHODS = ("auto", *BUILDS)
# The most joint histories a joint build may hold (about 250 bytes each over all stages,
# 5 GB). Measuring an agent needs one (it deals a table per private state), and saved
# solutions that do not name their build were built by this rule alone (older solutions).
JOINT_LIMIT = 20_000_000
# The largest game ``auto`` builds jointly, by rounds; measured in docs/exploitability.md. With
# two rounds the factored sums are faster from 14 cards on (3.5 million joint histories: 0.44 s
# an iteration against 0.58 s, 2.1x at 16 cards, built in 0.5 s instead of 48 s); with three
# the joint build's compiled last round is 3.5x faster on 8 cards and only memory stops it.
MAX_JOINTS = {2: 2_000_000, 3: JOINT_LIMIT}
MAX_ENTRIES = 300_000_000  # strategy entries: regrets and sums, 8 bytes each, and temporaries
PATTERNS = ("none", "draw0", "draw1", "swap")  # nobody discarded, one drew, both swapped
# (first player discards?, dealer discards?) of each pattern
DISCARDS = {"none": (False, False), "draw0": (True, False), "draw1": (False, True),
            "swap": (True, True)}  # fmt: skip


@dataclass
class Stage:
    """Every joint history of private cards after a public course of exchanges.

    ``states[p]``: each joint history's private state of player p (its index in that
    player's state table); ``parents[p]``/``actions[p]``: for each state, its state at the
    previous stage and the exchange action that led here (0 keep, 1-3 discard the first to
    third card of the sorted hand). ``total[p]`` and ``net[p]``: sparse matrices (p's states x
    the other's states) of the chance weight of each consistent pair, unsigned and signed by
    p's showdown result."""

    patterns: tuple[str, ...]
    hands: tuple[np.ndarray, np.ndarray]  # (joints, 3) current hands
    dead: np.ndarray  # (joints,) bitmask of cards sent to the bottom of the deck
    keys: tuple[np.ndarray, np.ndarray]  # (joints, k) each player's private history
    states: tuple[np.ndarray, np.ndarray]
    num_states: tuple[int, int]
    parents: tuple[np.ndarray | None, np.ndarray | None]
    actions: tuple[np.ndarray | None, np.ndarray | None]
    chance: float
    total: tuple[Any, Any] = (None, None)
    net: tuple[Any, Any] = (None, None)
    children: dict[str, Stage] = field(default_factory=dict)
    index: int = 0
    # A state's own cards (p's hand, sorted): what its player sees.
    state_hands: tuple[np.ndarray, np.ndarray] | None = None
    state_keys: tuple[np.ndarray, np.ndarray] | None = None
    # Per player at a last stage of a joint build: ``total`` and ``net`` as one CSR pattern,
    # (indptr, indices, total's data, net's data), for the compiled last round.
    pairs: tuple[Any, Any] = (None, None)
    # Per player, alongside ``pairs``: each state's first state with the same row of
    # ``pairs`` (:func:`row_classes`); the compiled last round walks only those.
    classes: tuple[Any, Any] = (None, None)
    # Per player, ``pairs`` the other way round and only for first states (:func:`by_opponent`).
    by_opponent: tuple[Any, Any] = (None, None)


class ExchangeGame:
    """Heads-up limit Lith with ``rounds`` 2 or 3 on the deck of ``config``, as public tree and
    stages. ``ValueError`` names a rule outside it."""

    def __init__(
        self, config: LithConfig, max_joints: int | None = None, method: str = "auto"
    ) -> None:
        if method not in METHODS:
            raise ValueError(f"method: one of {', '.join(METHODS)}, got {method!r}")
        if method == "auto":
            method = auto_build(config, max_joints)
        check_exchange_solvable(config)
        self.method = method
        self.config = config
        self.rounds = config.rounds
        self.deck = np.array(sorted(config.deck), dtype=np.int64)
        max_bets = 1 + config.max_raises
        self.trees = [betting_tree(0, config.bet_sizes[r], max_bets) for r in range(self.rounds)]
        # Continuing ends of a betting round (check-check or a call), in tree order.
        self.ends = [
            [i for i, n in enumerate(tree) if n.player is None and n.folder is None]
            for tree in self.trees
        ]
        # The last round's tree as arrays, as each player sees it, for the compiled pass.
        last = self.rounds - 1
        self.compiled_trees = {(last, me): _compiled_tree(self.trees[last], me) for me in (0, 1)}
        self.roles = ("imposter", "beggar") if config.excuse == "demon" else (config.excuse,)
        self.stages: list[Stage] = []
        if method == "factored":
            self._build_factored()
            return
        self.root = self._deal()
        self._expand(self.root, 0)
        for stage in self.stages:
            self._matrices(stage, final=len(stage.patterns) == self.rounds - 1)

    # ------------------------------------------------------------------ factored stages

    def _build_factored(self) -> None:
        """Stages from each player's own states (``lith_solver.factored``)."""
        from lith_solver.factored import deal_table

        table = deal_table(self.deck)
        num_hands = len(table)
        opponents = math.comb(len(self.deck) - 3, 3)
        self.root = self._factored_stage((), (table, table), 1.0 / (num_hands * opponents))
        self._expand_factored(self.root, (table, table), draws=0)

    def _factored_stage(self, patterns: tuple, tables: tuple, chance: float) -> Stage:
        from lith_solver.factored import FactoredSums

        stage = Stage(
            patterns=patterns, hands=(None, None), dead=None, keys=(None, None),  # type: ignore[arg-type]
            states=(None, None), num_states=(len(tables[0]), len(tables[1])),  # type: ignore[arg-type]
            parents=(tables[0].parents, tables[1].parents),
            actions=(tables[0].actions, tables[1].actions), chance=chance,
        )  # fmt: skip
        stage.state_hands = (tables[0].hands, tables[1].hands)
        stage.state_keys = (tables[0].keys, tables[1].keys)
        stage.index = len(self.stages)
        self.stages.append(stage)
        strengths = [
            [
                strength(t.hands, pawns_and_courts=self.config.pawns_and_courts, excuse=role)
                for role in self.roles
            ]
            for t in tables
        ]
        size = len(self.deck)
        final = len(patterns) == self.rounds - 1
        sums = [
            FactoredSums(tables[p], tables[1 - p], strengths[p], strengths[1 - p], chance, size)
            for p in (0, 1)
        ]
        stage.total = (sums[0].total, sums[1].total)
        if final:
            stage.net = (sums[0].net, sums[1].net)
        return stage

    def _expand_factored(self, stage: Stage, tables: tuple, draws: int) -> None:
        from lith_solver.factored import exchange_table

        if len(stage.patterns) >= self.rounds - 1:
            return
        modes = {"none": ("keep", "keep"), "draw0": ("draw", "keep"),
                 "draw1": ("keep", "draw"), "swap": ("swap", "swap")}  # fmt: skip
        top = len(self.deck) - 6 - draws  # cards a lone discarder may draw
        for pattern in PATTERNS:
            children = tuple(
                exchange_table(tables[p], self.deck, modes[pattern][p]) for p in (0, 1)
            )
            drew = pattern in ("draw0", "draw1")
            chance = stage.chance / top if drew else stage.chance
            child = self._factored_stage((*stage.patterns, pattern), children, chance)
            stage.children[pattern] = child
            self._expand_factored(child, children, draws + drew)

    # ------------------------------------------------------------------ stages

    def _deal(self) -> Stage:
        deck = self.deck.tolist()
        hands = np.array(list(itertools.combinations(deck, 3)), dtype=np.int64)
        mask = _bits(hands)
        disjoint = (mask[:, None] & mask[None, :]) == 0
        first, second = np.nonzero(disjoint)
        num_hands = len(hands)
        opponents = math.comb(len(deck) - 3, 3)
        h0, h1 = hands[first], hands[second]
        states = (first, second)
        stage = Stage(
            patterns=(),
            hands=(h0, h1),
            dead=np.zeros(len(first), dtype=np.int64),
            keys=(h0.copy(), h1.copy()),
            states=states,
            num_states=(num_hands, num_hands),
            parents=(None, None),
            actions=(None, None),
            chance=1.0 / (num_hands * opponents),
        )
        stage.state_hands = (hands, hands)
        stage.state_keys = (hands, hands)
        self.stages.append(stage)
        return stage

    def _expand(self, stage: Stage, exchange: int) -> None:
        if exchange >= self.rounds - 1:
            return
        for pattern in PATTERNS:
            child = self._exchange(stage, pattern)
            child.index = len(self.stages)
            self.stages.append(child)
            stage.children[pattern] = child
            self._expand(child, exchange + 1)

    def _exchange(self, stage: Stage, pattern: str) -> Stage:
        h0, h1 = stage.hands
        joints = len(h0)
        parent = np.arange(joints)
        slots = [np.full(joints, -1), np.full(joints, -1)]
        received = [np.full(joints, -1), np.full(joints, -1)]
        dead = stage.dead
        chance = stage.chance
        new = [h0, h1]
        if pattern in ("draw0", "draw1"):
            p = 0 if pattern == "draw0" else 1
            own = stage.hands[p]
            in_play = _bits(h0) | _bits(h1) | dead
            available = ((in_play[:, None] >> self.deck[None, :]) & 1) == 0
            width = int(available[0].sum())  # the same count for every joint history here
            _, columns = np.nonzero(available)
            cards = self.deck[columns].reshape(joints, width)
            parent = np.repeat(np.arange(joints), 3 * width)
            slot = np.tile(np.repeat(np.arange(3), width), joints)
            drawn = np.repeat(cards, 3, axis=0).reshape(-1)
            hand = own[parent]
            given = hand[np.arange(len(parent)), slot]
            new = [h0[parent], h1[parent]]
            new[p] = _replace(hand, slot, drawn)
            dead = dead[parent] | (np.int64(1) << given)
            slots = [np.full(len(parent), -1), np.full(len(parent), -1)]
            received = [np.full(len(parent), -1), np.full(len(parent), -1)]
            slots[p], received[p] = slot, drawn
            chance = chance / width
        elif pattern == "swap":
            parent = np.repeat(np.arange(joints), 9)
            s0 = np.tile(np.repeat(np.arange(3), 3), joints)
            s1 = np.tile(np.tile(np.arange(3), 3), joints)
            a, b = h0[parent], h1[parent]
            rows = np.arange(len(parent))
            give0, give1 = a[rows, s0], b[rows, s1]
            new = [_replace(a, s0, give1), _replace(b, s1, give0)]
            dead = dead[parent]
            slots = [s0, s1]
            received = [give1, give0]
        keys = tuple(
            np.concatenate([stage.keys[p][parent], slots[p][:, None], received[p][:, None]], axis=1)
            for p in (0, 1)
        )
        states, parents, actions, state_hands, state_keys, counts = [], [], [], [], [], []
        for p in (0, 1):
            unique, first, inverse = np.unique(
                keys[p], axis=0, return_index=True, return_inverse=True
            )
            inverse = inverse.reshape(-1)
            states.append(inverse)
            counts.append(len(unique))
            parents.append(stage.states[p][parent][first])
            actions.append(slots[p][first] + 1)
            state_hands.append(new[p][first])
            state_keys.append(unique)
        child = Stage(
            patterns=(*stage.patterns, pattern),
            hands=(new[0], new[1]),
            dead=dead,
            keys=keys,  # type: ignore[arg-type]
            states=(states[0], states[1]),
            num_states=(counts[0], counts[1]),
            parents=(parents[0], parents[1]),
            actions=(actions[0], actions[1]),
            chance=chance,
        )
        child.state_hands = (state_hands[0], state_hands[1])
        child.state_keys = (state_keys[0], state_keys[1])
        return child

    @property
    def num_hands(self) -> int:
        """Hands a player may be dealt."""
        return self.root.num_states[0]

    def exploitability(self, strategy: dict[tuple, np.ndarray]) -> tuple[float, float, float]:
        """(best response acting first, as the dealer, their mean): chips a hand."""
        return exploitability(self, strategy)

    def game_value(self, strategy: dict[tuple, np.ndarray]) -> float:
        """Chips a hand the first player wins when both play ``strategy``."""
        return profile_value(self, strategy)

    def _matrices(self, stage: Stage, final: bool) -> None:
        """The stage's fold and showdown matrices, both players' views."""
        s0, s1 = stage.states
        shape = stage.num_states
        weight = np.full(len(s0), stage.chance)
        total0 = sparse.csr_matrix((weight, (s0, s1)), shape=shape)
        stage.total = (total0, total0.T.tocsr())
        if not final:
            return
        sign = np.zeros(len(s0))
        for role in self.roles:
            a = strength(stage.hands[0], pawns_and_courts=self.config.pawns_and_courts, excuse=role)
            b = strength(stage.hands[1], pawns_and_courts=self.config.pawns_and_courts, excuse=role)
            sign += np.sign(a - b)
        sign *= stage.chance / len(self.roles)
        net0 = sparse.csr_matrix((sign, (s0, s1)), shape=shape)
        stage.net = (net0, (-net0).T.tocsr())
        pairs = []
        for total, net in zip(stage.total, stage.net, strict=True):
            # built from the same pairs, explicit zeros kept: one pattern
            if not (
                np.array_equal(total.indptr, net.indptr)
                and np.array_equal(total.indices, net.indices)
            ):
                raise AssertionError("fold and showdown matrices of a stage share a pattern")
            pairs.append((total.indptr, total.indices, total.data, net.data))
        stage.pairs = (pairs[0], pairs[1])
        stage.classes = (row_classes(*pairs[0]), row_classes(*pairs[1]))
        stage.by_opponent = tuple(
            by_opponent(pairs[p], stage.classes[p], shape[1 - p]) for p in (0, 1)
        )


def row_classes(
    indptr: np.ndarray, indices: np.ndarray, total: np.ndarray, net: np.ndarray
) -> np.ndarray:
    """For each of a last stage's states, for one player, the first state with the same row
    of its ``pairs`` (the same opponent states, with the same fold and showdown weights, in
    the same order).

    Two such states have the same counterfactual values against any opponent strategy, so
    discounted CFR gives them the same regrets at every iteration, hence the same strategy:
    the compiled last round walks only the first and copies the result (their strategy sums
    differ, by their own reach). On nine cards the 22,680 states of a player who drew at
    both exchanges fall into 309 classes: much of which card it gave when changes nothing
    the opponent may hold. After two swaps no two states are alike."""
    first: dict[tuple, int] = {}
    out = np.empty(len(indptr) - 1, dtype=np.int64)
    for a in range(len(out)):
        entries = slice(indptr[a], indptr[a + 1])
        key = (indices[entries].tobytes(), total[entries].tobytes(), net[entries].tobytes())
        out[a] = first.setdefault(key, a)
    return out


def by_opponent(
    pairs: tuple[np.ndarray, ...], first: np.ndarray, opp_states: int
) -> tuple[np.ndarray, ...]:
    """A player's ``pairs`` (its states x the opponent's, CSR) turned round for the compiled
    last round: for each opponent state, the first states of the player's classes (``first``,
    :func:`row_classes`) consistent with it, ascending, with the same fold and showdown
    weights, as (indptr, indices, total, net). Adding an opponent state's terminal reach into
    each of its rows, opponent states in order, gives every first state's sums in the same
    order as its own row of ``pairs``, hence the same sums to the bit, while touching only the
    opponent states a betting line reaches."""
    indptr, indices, total, net = pairs
    rows = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    keep = first[rows] == rows
    mine, theirs = rows[keep], indices[keep]
    order = np.lexsort((mine, theirs))  # by opponent state, then by mine
    starts = np.zeros(opp_states + 1, dtype=np.int64)
    np.cumsum(np.bincount(theirs, minlength=opp_states), out=starts[1:])
    return starts, mine[order], total[keep][order], net[keep][order]


def auto_build(config: LithConfig, max_joints: int | None = None) -> str:
    """The faster build of ``config``'s game, ``"joint"`` or ``"factored"``: joint up to
    ``max_joints`` joint histories (default ``MAX_JOINTS`` of its rounds)."""
    if max_joints is None:
        max_joints = MAX_JOINTS[config.rounds]
    fits = joint_histories(len(config.deck), config.rounds) <= max_joints
    return "joint" if fits else "factored"


def joint_histories(cards: int, rounds: int) -> int:
    """The joint histories of private cards over every stage of a heads-up game with
    ``cards`` cards and ``rounds`` betting rounds (what the solver enumerates)."""
    deals = math.comb(cards, 3) * math.comb(cards - 3, 3)

    def grow(joints: int, top: int, exchanges: int) -> int:
        if exchanges == 0:
            return 0
        total = 0
        # nobody discards; one draws (two ways: 3 cards to give x the top cards); a swap
        for count, next_top in ((joints, top), (joints * 3 * top, top - 1)):
            total += count + grow(count, next_top, exchanges - 1)
        total += joints * 3 * top + grow(joints * 3 * top, top - 1, exchanges - 1)
        total += joints * 9 + grow(joints * 9, top, exchanges - 1)
        return total

    return deals + grow(deals, cards - 6, rounds - 1)


def _bits(hands: np.ndarray) -> np.ndarray:
    """Bitmask of the cards of each hand (rows of card ids)."""
    return (np.int64(1) << hands).sum(axis=1)


def _replace(hands: np.ndarray, slots: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """Hands with the card at ``slots`` replaced by ``cards``, sorted again."""
    out = hands.copy()
    out[np.arange(len(out)), slots] = cards
    return np.sort(out, axis=1)


def check_exchange_solvable(config: LithConfig) -> None:
    """Raise ``ValueError`` naming the rule that puts ``config`` outside the exchange solver,
    the size of the deck included (the strategy's entries must fit in memory)."""
    if config.num_players != 2:
        raise ValueError(f"num_players: the solver plays heads-up (2), got {config.num_players}")
    if config.rounds not in (2, 3):
        raise ValueError(f"rounds: the exchange solver solves rounds=2 or 3, got {config.rounds}")
    if config.betting != "limit":
        raise ValueError(f"betting: the solver plays limit betting, got {config.betting!r}")
    check_stacks(config)
    entries = strategy_entries(config)
    if entries > MAX_ENTRIES:
        raise ValueError(
            f"cards: {len(config.deck)} cards with {config.rounds} rounds make a strategy of "
            f"{entries:,} entries (about {entries * 40 / 1e9:.0f} GB to solve); the solver takes "
            f"at most {MAX_ENTRIES:,}: play fewer cards (--rule cards=...)"
        )


def strategy_entries(config: LithConfig) -> int:
    """The entries of a strategy of this game (decision points x lines x the acting player's
    private states x actions), counted without building it: the factored build's count (the
    joint build keeps only jointly possible states, at most as many)."""
    cards = len(config.deck)
    max_bets = 1 + config.max_raises
    trees = [betting_tree(0, config.bet_sizes[r], max_bets) for r in range(config.rounds)]
    ends = [sum(1 for n in t if n.player is None and n.folder is None) for t in trees]

    def count(r: int, states: tuple, lines: int, draws: int) -> int:
        # states[p] = (number, cards seen, cards dead) of player p's private states
        total = sum(
            lines * states[node.player][0] * len(node.actions)
            for node in trees[r]
            if node.player is not None
        )
        if r == config.rounds - 1:
            return total
        after = lines * ends[r]
        total += after * 4 * (states[0][0] + 2 * states[1][0])
        for pattern in PATTERNS:
            first, dealer = DISCARDS[pattern]
            new = []
            for p, discards in ((0, first), (1, dealer)):
                n, seen, dead = states[p]
                if not discards:
                    new.append((n, seen, dead))
                elif pattern == "swap":
                    new.append((n * 3 * (cards - 3 - dead), seen + 1, dead))
                else:  # a draw: any card never seen (the dead were seen)
                    new.append((n * 3 * (cards - seen), seen + 1, dead + 1))
            drew = pattern in ("draw0", "draw1")
            total += count(r + 1, tuple(new), after, draws + drew)
        return total

    hands = math.comb(cards, 3)
    return count(0, ((hands, 3, 0), (hands, 3, 0)), 1, 0)


# ---------------------------------------------------------------------------------------------
# Strategies and the walk over the public tree


class ExchangeSolver:
    """Discounted CFR on an :class:`ExchangeGame`; also exact best responses and values.
    (CFR+, predictive CFR+, PDCFR+, hyperparameter schedules and other discount weights were
    tried on a three-round game: none converged several times faster;
    ``docs/exploitability.md``.)

    Strategies are kept per decision point: a betting node ``(round, stage, node)`` or an
    exchange decision ``(round, stage, "x0" | "x1k" | "x1d")`` (the first player's; the
    dealer's after the first kept / discarded), each an array (lines, states, actions) over
    the earlier rounds' betting lines and the acting player's private states."""

    def __init__(
        self, game: ExchangeGame, alpha: float = ALPHA, beta: float = BETA, gamma: float = GAMMA
    ) -> None:
        self.game, self.alpha, self.beta, self.gamma = game, alpha, beta, gamma
        self.iterations = 0
        # Every decision point's regrets and sums are C-ordered blocks of two flat arrays, at
        # the same offset in each: the compiled last round reads and updates them there.
        shapes = self.shapes(game)
        self.offsets, size = _layout(shapes)
        self._regret, self._sums = np.zeros(size), np.zeros(size)
        self.regrets = _blocks(self._regret, self.offsets, shapes)
        self.sums = _blocks(self._sums, self.offsets, shapes)
        # The current strategy is stored only where the numpy walk reads it: the compiled last
        # round matches regrets as it goes (on nine cards, 1.8 GB not held).
        stored = {key: shape for key, shape in shapes.items() if not _compiled(game, key)}
        stored_offsets, stored_size = _layout(stored)
        self._strategies = _blocks(np.empty(stored_size), stored_offsets, stored)

    @staticmethod
    def shapes(game: ExchangeGame) -> dict[tuple, tuple[int, int, int]]:
        """Every decision point's key and shape (lines, states, actions)."""
        out: dict[tuple, tuple[int, int, int]] = {}

        def collect(r: int, stage: Stage, lines: int) -> None:
            for index, node in enumerate(game.trees[r]):
                if node.player is not None:
                    states = stage.num_states[node.player]
                    out[(r, stage.index, index)] = (lines, states, len(node.actions))
            if r == game.rounds - 1:
                return
            after = lines * len(game.ends[r])
            out[(r, stage.index, "x0")] = (after, stage.num_states[0], 4)
            out[(r, stage.index, "x1k")] = (after, stage.num_states[1], 4)
            out[(r, stage.index, "x1d")] = (after, stage.num_states[1], 4)
            for child in stage.children.values():
                collect(r + 1, child, after)

        collect(0, game.root, 1)
        return out

    def state_dict(self) -> dict[str, np.ndarray]:
        """The iteration count and all regrets and strategy sums (flat, in the order of
        ``offsets``): the solver's own arrays, which ``lith_solver.checkpoint`` saves and
        loads into."""
        self.fill_classes()
        return {
            "iterations": np.array(self.iterations),
            "regrets": self._regret,
            "sums": self._sums,
        }

    def fill_classes(self) -> None:
        """Give every state of a compiled last round its class's first state's regrets
        (:func:`row_classes`): the compiled round updates only those, which the others equal
        in an update that kept them all."""
        for key, regret in self.regrets.items():
            if _compiled(self.game, key):
                first = self.game.stages[key[1]].classes[deciding_player(self.game, key)]
                regret[...] = regret[:, first, :]

    def current(self, key: tuple) -> np.ndarray:
        """Regret matching at a decision point."""
        regret = self.regrets[key]
        if _compiled(self.game, key):  # its class's first state's regrets
            regret = regret[:, self.game.stages[key[1]].classes[deciding_player(self.game, key)]]
        return regret_matching(regret.reshape(-1, regret.shape[2])).reshape(regret.shape)

    def average(self) -> dict[tuple, np.ndarray]:
        """The average strategy of every decision point: what converges to an equilibrium."""
        return {key: normalized(sums) for key, sums in self.sums.items()}

    average_profile = average  # the name lith_solver.one_round's solver uses

    def iterate(self, count: int = 1) -> None:
        """Run ``count`` iterations, each updating the first player then the dealer."""
        strategy = self._strategies
        for key in strategy:
            strategy[key][...] = self.current(key)
        for _ in range(count):
            self.iterations += 1
            self._t = self.iterations
            for player in (0, 1):
                _Walk(self.game, strategy, player, "cfr", self).run()
                # The walk's updates have already put the player's next strategy in place.

    def _update(
        self, key: tuple, children: np.ndarray, strategy: np.ndarray, own: np.ndarray
    ) -> np.ndarray:
        """Regret and average-strategy updates at a decision point of the updating player, from
        ``children`` (actions, lines, states), each action's values, and ``own`` its reach
        (lines, states); returns the point's value (lines, states). ``strategy`` (C-ordered,
        updated in place) becomes the point's next strategy."""
        regret, sums = self.regrets[key], self.sums[key]
        lines, states, actions = regret.shape
        if not strategy.flags.c_contiguous:  # a reshaped copy would lose the next strategy
            raise ValueError(f"strategy of {key}: must be C-contiguous to be updated in place")
        value = discounted_update(
            regret.reshape(-1, actions),
            sums.reshape(-1, actions),
            np.ascontiguousarray(children).reshape(actions, -1),
            strategy.reshape(-1, actions),
            np.ascontiguousarray(own, dtype=np.float64).reshape(-1),
            *dcfr_weights(self._t, self.alpha, self.beta, self.gamma),
        )
        return value.reshape(lines, states)


def deciding_player(game: ExchangeGame, key: tuple) -> int:
    """The player deciding at a decision point ``(round, stage, node or exchange)``."""
    r, _, point = key
    if point == "x0":
        return 0
    if point in ("x1k", "x1d"):
        return 1
    return int(game.trees[r][point].player)  # type: ignore[arg-type]


def best_response_value(
    game: ExchangeGame, strategy: dict[tuple, np.ndarray], player: int
) -> tuple[float, dict[tuple, np.ndarray]]:
    """Chips a hand ``player`` wins by a best response to the other's strategy, and the best
    response (one-hot rows at ``player``'s decision points)."""
    walk = _Walk(game, strategy, player, "br", None)
    value = walk.run()
    return float(value), walk.choices


def profile_value(game: ExchangeGame, strategy: dict[tuple, np.ndarray]) -> float:
    """Chips a hand the first player wins when both play ``strategy``."""
    return float(_Walk(game, strategy, 0, "eval", None).run())


def exploitability(
    game: ExchangeGame, strategy: dict[tuple, np.ndarray]
) -> tuple[float, float, float]:
    """(best response acting first, as the dealer, their mean): chips a hand."""
    first = best_response_value(game, strategy, 0)[0]
    second = best_response_value(game, strategy, 1)[0]
    return first, second, (first + second) / 2


class _Walk:
    """One pass over the public tree for ``player``: counterfactual values, with the
    strategy (``eval``), with regret updates (``cfr``) or a best response (``br``)."""

    def __init__(
        self,
        game: ExchangeGame,
        strategy: dict[tuple, np.ndarray],
        player: int,
        mode: str,
        solver: ExchangeSolver | None,
    ) -> None:
        self.game, self.strategy, self.player, self.mode = game, strategy, player, mode
        self.solver = solver
        self.choices: dict[tuple, np.ndarray] = {}
        # with record (eval mode): how often each of my exchange decisions is reached
        self.record = False
        self.reached: dict[tuple, np.ndarray] = {}

    def run(self) -> float:
        game, me = self.game, self.player
        root = game.root
        ones = (np.ones((1, root.num_states[1 - me])), np.ones((1, root.num_states[me])))
        values = self.round(0, root, np.full(1, float(game.config.ante)), *ones)
        return float(values.sum())

    def decide(self, key: tuple, children: np.ndarray, own: np.ndarray) -> np.ndarray:
        """Value (lines, states) of the acting player (``me``) at a decision point, from its
        actions' values ``children`` (actions, lines, states)."""
        if self.mode == "br":
            self.choices[key] = np.argmax(children, axis=0)
            return children.max(axis=0)
        strategy = self.strategy[key]
        if self.mode == "cfr":
            return self.solver._update(key, children, strategy, own)
        return sum(children[a] * strategy[:, :, a] for a in range(len(children)))

    def round(
        self, r: int, stage: Stage, base: np.ndarray, opp: np.ndarray, own: np.ndarray
    ) -> np.ndarray:
        """Values (lines, my states) at the start of betting round ``r`` at ``stage``:
        ``base`` (lines,) chips each player has in, ``opp``/``own`` reaches (lines, states)."""
        game, me = self.game, self.player
        if r == game.rounds - 1 and stage.pairs[me] is not None:
            return self.last_round(r, stage, base, opp, own)
        tree = game.trees[r]
        reach_opp, reach_own = {0: opp}, {0: own}
        for index, node in enumerate(tree):
            if node.player is None:
                continue
            if node.player == me:
                probs = None if self.mode == "br" else self.strategy[(r, stage.index, index)]
            else:
                probs = self.strategy[(r, stage.index, index)]
            for a, child in enumerate(node.children):
                if node.player == me:
                    reach_opp[child] = reach_opp[index]
                    reach_own[child] = (
                        reach_own[index] if probs is None else reach_own[index] * probs[:, :, a]
                    )
                else:
                    reach_opp[child] = reach_opp[index] * probs[:, :, a]
                    reach_own[child] = reach_own[index]
        value: dict[int, np.ndarray] = {}
        last = r == game.rounds - 1
        ends = game.ends[r]
        folds = [i for i, n in enumerate(tree) if n.folder is not None]
        lines = len(base)
        if folds:
            stacked = np.concatenate([reach_opp[i] for i in folds])  # (folds x lines, opp)
            total = _apply(stage.total[me], stacked).reshape(len(folds), lines, -1)
            for row, i in enumerate(folds):
                node = tree[i]
                chips = base + node.contributions[node.folder]
                sign = -1.0 if node.folder == me else 1.0
                value[i] = sign * chips[:, None] * total[row]
        if last:
            stacked = np.concatenate([reach_opp[i] for i in ends])
            net = _apply(stage.net[me], stacked).reshape(len(ends), lines, -1)
            for row, i in enumerate(ends):
                chips = base + tree[i].contributions[0]
                value[i] = chips[:, None] * net[row]
        else:
            after_opp = np.concatenate([reach_opp[i] for i in ends])  # (ends x lines, states)
            after_own = np.concatenate([reach_own[i] for i in ends])
            after_base = np.concatenate([base + tree[i].contributions[0] for i in ends])
            exchanged = self.exchange(r, stage, after_base, after_opp, after_own)
            exchanged = exchanged.reshape(len(ends), lines, -1)
            for row, i in enumerate(ends):
                value[i] = exchanged[row]
        for index in reversed(range(len(tree))):
            node = tree[index]
            if node.player is None:
                continue
            if node.player != me:
                value[index] = sum(value[c] for c in node.children)
            else:
                children = np.stack([value[c] for c in node.children])
                value[index] = self.decide((r, stage.index, index), children, reach_own[index])
        return value[0]

    def last_round(
        self, r: int, stage: Stage, base: np.ndarray, opp: np.ndarray, own: np.ndarray
    ) -> np.ndarray:
        """:meth:`round` for the last round of a joint build, in one compiled pass
        (``lith_solver.last_round``, its walk written out for the tree by
        ``lith_solver.tree_walks``)."""
        me, lines = self.player, len(base)
        tree = self.game.compiled_trees[r, me]
        keys = [(r, stage.index, n) for n in tree.decisions]
        weights = (0.0, 0.0, 0.0)
        if self.mode == "cfr":
            solver = self.solver
            flat, regret, sums = solver._regret, solver._regret, solver._sums  # flat: unread
            offsets = [solver.offsets[key] for key in keys]
            weights = dcfr_weights(solver._t, solver.alpha, solver.beta, solver.gamma)
        else:  # this stage's strategies copied into one flat array
            arrays, offsets, size = [], [], 0
            for key, p, actions in zip(keys, tree.players, tree.widths, strict=True):
                if self.mode == "br" and p == me:  # a best responder's own are not read
                    offsets.append(0)
                    continue
                shape = (lines, stage.num_states[p], actions)
                array = np.asarray(self.strategy[key], dtype=np.float64)
                if array.shape != shape:
                    raise ValueError(f"strategy of {key}: shape {array.shape}, expected {shape}")
                arrays.append(array.reshape(-1))
                offsets.append(size)
                size += array.size
            flat = np.concatenate(arrays) if arrays else np.zeros(1)
            regret = sums = flat
        offset = np.full(len(tree.arrays[0]), -1, dtype=np.int64)
        offset[tree.decisions] = offsets
        mine = sum(p == me for p in tree.players) if self.mode == "br" else 0
        choices = np.zeros((mine, lines, stage.num_states[me]), dtype=np.int64)
        # Evaluating, each state plays its own strategy: no two share their values. The
        # opponent's classes are read only by the regret update.
        first, opp_first = stage.classes[me], stage.classes[1 - me]
        if self.mode == "eval":
            first = np.arange(stage.num_states[me])
        values = tree.kernel()(
            {"eval": EVAL, "cfr": CFR, "br": BEST_RESPONSE}[self.mode], me,
            np.asarray(base, dtype=np.float64),
            np.ascontiguousarray(opp, dtype=np.float64),
            np.ascontiguousarray(own, dtype=np.float64),
            tree.arrays, offset, flat, regret, sums, choices, stage.pairs[me],
            stage.by_opponent[me], first, opp_first,
            *weights, numba.get_num_threads(),
        )  # fmt: skip
        if self.mode == "br":
            for key, index in zip(keys, tree.mine, strict=True):
                if index >= 0:
                    self.choices[key] = choices[index]
        return values

    def exchange(
        self, r: int, stage: Stage, base: np.ndarray, opp: np.ndarray, own: np.ndarray
    ) -> np.ndarray:
        """Values (lines, my states) before the exchange after round ``r``."""
        me, other = self.player, 1 - self.player
        keys = {0: (r, stage.index, "x0")}
        if self.record:
            _record(self, r, stage, opp, own)
        # Each pattern's child: the acting players' strategies at their states.
        dealer_key = {False: (r, stage.index, "x1k"), True: (r, stage.index, "x1d")}
        per_action: dict[tuple, np.ndarray] = {}
        for pattern, child in stage.children.items():
            first_discards, _ = DISCARDS[pattern]
            who_keys = {0: keys[0], 1: dealer_key[first_discards]}
            probs = {
                p: (None if (p == me and self.mode == "br") else self.strategy[who_keys[p]])
                for p in (0, 1)
            }
            child_opp = _moved(opp, child, other, probs[other])
            child_own = _moved(own, child, me, probs[me])
            values = self.round(r + 1, child, base, child_opp, child_own)
            # My child states' values, summed into (parent state, action) of my decision.
            key = who_keys[me]
            lines, states = len(base), stage.num_states[me]
            summed = summed_into_parents(
                values, child.parents[me], child.actions[me], stage.num_states[me]
            )  # (lines, states * 4)
            if key in per_action:
                per_action[key] += summed.reshape(lines, states, 4)
            else:
                per_action[key] = summed.reshape(lines, states, 4)
        total = np.zeros((len(base), stage.num_states[me]))
        for key, values in per_action.items():
            total += self.decide(key, np.moveaxis(values, 2, 0), own)
        return total


@dataclass
class _CompiledTree:
    """A betting tree as arrays for ``lith_solver.last_round``, seen by player ``me``:
    ``arrays`` is the kernel's ``tree`` argument, ``decisions`` the decision nodes in tree
    order."""

    arrays: tuple
    decisions: list[int]
    me: int
    generic: bool = False  # run lith_solver.last_round's own walk, not one written for the tree
    _written: Any = field(default=None, repr=False, compare=False)

    def kernel(self) -> Any:
        """The compiled last round for this tree: ``lith_solver.tree_walks``'s, its walk written
        out for the tree (the generic one of ``lith_solver.last_round`` if ``generic``)."""
        if self.generic:
            return generic_last_round
        if self._written is None:  # generating the source again costs 0.4 ms a call
            self._written = last_round_for(self.arrays, self.me)
        return self._written

    @property
    def players(self) -> list[int]:
        """The decisions' players."""
        return self.arrays[0][self.decisions].tolist()

    @property
    def widths(self) -> list[int]:
        """The decisions' numbers of actions."""
        return self.arrays[2][self.decisions].tolist()

    @property
    def mine(self) -> list[int]:
        """The decisions' places among the player's own decisions, -1 for the other's."""
        return self.arrays[-1][self.decisions].tolist()


def _compiled_tree(tree: list, me: int) -> _CompiledTree:
    nodes = len(tree)
    player = np.array([-1 if n.player is None else n.player for n in tree], dtype=np.int64)
    children = np.full((nodes, 3), -1, dtype=np.int64)
    for i, n in enumerate(tree):
        children[i, : len(n.children)] = n.children
    width = np.array([len(n.children) for n in tree], dtype=np.int64)
    decisions = [i for i, n in enumerate(tree) if n.player is not None]
    folds = [i for i, n in enumerate(tree) if n.player is None and n.folder is not None]
    showdowns = [i for i, n in enumerate(tree) if n.player is None and n.folder is None]
    column = np.full(nodes, -1, dtype=np.int64)
    column[folds + showdowns] = np.arange(len(folds) + len(showdowns))
    chips = [tree[i].contributions[tree[i].folder] for i in folds]
    chips += [tree[i].contributions[0] for i in showdowns]
    sign = [-1.0 if tree[i].folder == me else 1.0 for i in folds] + [1.0] * len(showdowns)
    mine = np.full(nodes, -1, dtype=np.int64)
    own = [i for i in decisions if tree[i].player == me]
    mine[own] = np.arange(len(own))
    arrays = (
        player, children, width, column, len(folds), np.array(chips, dtype=np.float64),
        np.array(sign), mine,
    )  # fmt: skip
    return _CompiledTree(arrays, decisions, me)


def _compiled(game: ExchangeGame, key: tuple) -> bool:
    """Whether the decision point ``key`` is in a last round that runs compiled (a joint
    build's)."""
    r, stage, _ = key
    return r == game.rounds - 1 and game.stages[stage].pairs[0] is not None


def _layout(shapes: dict) -> tuple[dict[tuple, int], int]:
    """Each key's offset in one flat array holding all ``shapes`` in order, and its size."""
    offsets, size = {}, 0
    for key, shape in shapes.items():
        offsets[key] = size
        size += math.prod(shape)
    return offsets, size


def _blocks(flat: np.ndarray, offsets: dict, shapes: dict) -> dict[tuple, np.ndarray]:
    """Views of ``flat``: each key's C-ordered block of its shape at its offset."""
    return {
        key: flat[offset : offset + math.prod(shapes[key])].reshape(shapes[key])
        for key, offset in offsets.items()
    }


def _record(walk: _Walk, r: int, stage: Stage, opp: np.ndarray, own: np.ndarray) -> None:
    """Store how often ``walk``'s player reaches its exchange decisions here, per (line,
    state): its own reach times the chance-weighted reach of the consistent opponent states
    (for the dealer, split by the first player's keep or discard)."""
    me = walk.player
    if me == 0:
        walk.reached[(r, stage.index, "x0")] = own * _apply(stage.total[0], opp)
        return
    keep = walk.strategy[(r, stage.index, "x0")][:, :, 0]
    walk.reached[(r, stage.index, "x1k")] = own * _apply(stage.total[1], opp * keep)
    walk.reached[(r, stage.index, "x1d")] = own * _apply(stage.total[1], opp * (1 - keep))


def discard_report(game: ExchangeGame, strategy: dict[tuple, np.ndarray]) -> list[dict]:
    """How a strategy exchanges when it plays itself: per exchange and decision, how often it
    discards (in all and by the hand's strength percentile, in thirds) and which card of its
    sorted hand it gives (lowest, middle, highest id)."""
    from lith_env.exchange import role_percentile

    rows = []
    for player in (0, 1):
        walk = _Walk(game, strategy, player, "eval", None)
        walk.record = True
        walk.run()
        for key, weight in walk.reached.items():
            r, stage_index, point = key
            stage = game.stages[stage_index]
            hands = stage.state_hands[player]
            percentile = role_percentile(hands, game.config.pawns_and_courts, game.config.excuse)
            band = np.minimum((percentile * 3).astype(int), 2)
            probs = strategy[key]
            discard = 1.0 - probs[:, :, 0]
            row: dict[str, Any] = {
                "exchange": r + 1,
                "stage": "/".join(stage.patterns) or "-",
                "decision": DECISION_NAMES[point],
                "reached": float(weight.sum()),
            }
            total = weight.sum()
            row["discards"] = float((weight * discard).sum() / total) if total else float("nan")
            for b, name in enumerate(("weak third", "middle third", "strong third")):
                w = weight[:, band == b]
                row[name] = float((w * discard[:, band == b]).sum() / w.sum()) if w.sum() else 0.0
            given = (weight[:, :, None] * probs[:, :, 1:]).sum(axis=(0, 1))
            for slot, name in enumerate(("gives lowest", "gives middle", "gives highest")):
                row[name] = float(given[slot] / given.sum()) if given.sum() else 0.0
            rows.append(row)
    return rows


def _moved(reach: np.ndarray, child: Stage, p: int, probs: np.ndarray | None) -> np.ndarray:
    """Player ``p``'s reach (lines, states) carried into ``child``: each child state takes its
    parent state's reach, times the probability of the exchange action that led there (none
    for a best responder)."""
    if probs is None:
        probs = np.empty((0, 0, 0))
    return moved_reach(reach, child.parents[p], child.actions[p], probs)


def _apply(matrix: Any, reach: np.ndarray) -> np.ndarray:
    """``matrix`` (my states x opponent states; or a function doing the same) applied to
    each row of ``reach``."""
    if callable(matrix):
        return matrix(reach)
    return np.asarray((matrix @ reach.T).T)
