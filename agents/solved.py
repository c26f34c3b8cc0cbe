"""``solved:DIR``: a strategy computed by ``decktet solve`` (or a best response
saved by ``lith_solver.exploitability``), played from the observation like any agent.

The observation says all the strategy needs: the seat's three cards, whether it is the dealer
(position 1) or acts first (position 0), and the first round's betting (whether the first
player checked, how many bets and raises were made). The agent samples its action from the
saved probabilities with its own seeded generator (``deterministic=true``: the most likely
action), and gives the probabilities themselves through ``action_probabilities``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from lith_env import encoding
from lith_env.cards import NUM_CARDS
from tablegame.registry import register

__all__ = ["ExchangePoint", "SolvedAgent", "node_keys", "point_action_ids", "read_exchange_point"]

_PATTERN = {(False, False): "none", (True, False): "draw0", (False, True): "draw1"}
_PATTERN[(True, True)] = "swap"  # (first player discarded?, dealer discarded?) -> the course
_DEALER = 7  # the dealer flag among a seat's nine features (lith_env.encoding)
_CHECKS, _BETS = 0, 2  # columns of a seat's betting statistics


def node_keys(observations: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """For a batch of heads-up observations (k, size): the cards (k, 3), the position (k,)
    (0 acts first, 1 is the dealer) and the betting history of the first round (``k``
    check, ``b`` bet or raise) of each."""
    observations = np.asarray(observations)
    k = len(observations)
    at = encoding.field_offsets(2)
    own = observations[:, at.own : at.own + NUM_CARDS] > 0.5
    counts = own.sum(axis=1)
    if not (counts == 3).all():
        raise ValueError("solved: an observation without three own cards (no hand to play)")
    cards = np.nonzero(own)[1].reshape(k, 3)
    position = (observations[:, at.seats + _DEALER] > 0.5).astype(np.int64)  # me: first row
    width = len(encoding.BETTING_STATS)
    history = observations[:, at.history : at.history + 2 * width].reshape(k, 2, width)
    # Relative seats: 0 is me, 1 the opponent; the first player is me unless I am the dealer.
    first = position  # the row of the first player: 0 when I act first, else 1
    checked = history[np.arange(k), first, _CHECKS] > 0.5
    bets = np.rint(4 * history[:, :, _BETS].sum(axis=1)).astype(np.int64)
    keys = [("k" if c else "") + "b" * int(b) for c, b in zip(checked, bets, strict=True)]
    return cards, position, keys


# The rules a solved strategy depends on; a match's length and stacks do not matter as long
# as no stack can run out within a hand.
GAME_RULES = (
    "num_players", "betting", "bet_sizes", "max_raises", "pawns_and_courts", "excuse", "ante",
    "rounds", "cards",
)  # fmt: skip


def _check_table(solved: Any, table: Any, path: Path, name: str = "solved") -> None:
    """Raise ``ValueError`` naming the rules in which ``table`` differs from the game the
    strategy at ``path`` was solved for."""
    from lith_solver.one_round import check_stacks

    differ = [
        f"{name}={getattr(table, name)!r} (solved for {getattr(solved, name)!r})"
        for name in GAME_RULES
        if getattr(table, name) != getattr(solved, name)
    ]
    if differ:
        raise ValueError(
            f"{name}: {str(path)!r} was solved for other rules: this table has " + ", ".join(differ)
        )
    check_stacks(table)


@register("lith", "solved")
class SolvedAgent:
    """Plays a solved one-round heads-up strategy saved in ``DIR`` (``strategy.npz`` and
    ``solution.json``). The table's rules must be the rules it was solved for."""

    spec_argument = "path"  # the spec is solved:DIR
    needs_observation = True
    name = "solved"

    def __init__(
        self,
        path: str | Path,
        seed: int | None = None,
        deterministic: bool = False,
        config: Any = None,
    ) -> None:
        from lith_solver.solutions import load_solution

        self.game, self.profile, self.record = load_solution(path)
        self._set_up(path, seed, deterministic, config)

    def _set_up(
        self, path: str | Path, seed: int | None, deterministic: Any, config: Any,
        reader: Any = None,
    ) -> None:  # fmt: skip
        """Check the table's rules and the options, and index the strategy by hand.
        ``reader``: what reads a game with exchanges (default: the exact game's states)."""
        self.path = Path(path)
        self.rules = self.game.config if reader is None else reader.config
        self._exchanges = reader
        if reader is None and self.rules.rounds > 1:
            self._exchanges = _ExchangeReader(self.game, self.profile)
        if config is not None:
            _check_table(self.rules, config, self.path, self.name)
        if not isinstance(deterministic, bool):
            raise ValueError(
                f"{self.name}: deterministic must be true or false, got {deterministic!r}"
            )
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.num_actions = encoding.num_actions(self.rules)
        if self._exchanges is not None:
            return
        self._node = {self.game.tree[i].history: i for i in self.game.decisions}
        deck = self.game.deck
        self._card_position = np.full(NUM_CARDS, -1, dtype=np.int64)
        self._card_position[deck] = np.arange(len(deck))
        # Hand rows by the three card positions in the deck, for a vectorized lookup.
        size = len(deck)
        local = self._card_position[self.game.hands]
        self._row = np.full(size**3, -1, dtype=np.int64)
        self._row[(local[:, 0] * size + local[:, 1]) * size + local[:, 2]] = np.arange(len(local))

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def misfits(self, observation_size: int, num_actions: int) -> list[tuple[str, Any, int]]:
        """(space, the strategy's size, the table's size) where they differ."""
        problems: list[tuple[str, Any, int]] = []
        expected = encoding.observation_size(self.rules)
        if observation_size != expected:
            problems.append(("observation", expected, observation_size))
        if num_actions != self.num_actions:
            problems.append(("action", self.num_actions, num_actions))
        return problems

    def action_probabilities(self, observations: Any, action_masks: np.ndarray) -> np.ndarray:
        """(k, actions): the strategy's probability of each action id."""
        if self._exchanges is not None:
            out = self._exchanges.batch_probabilities(observations)
            return self._checked(out, action_masks)
        cards, position, keys = node_keys(observations)
        size = len(self.game.deck)
        local = self._card_position[cards]
        if (local < 0).any():
            raise ValueError(
                f"{self.name}: a card outside the deck {str(self.path)!r} was solved for"
            )
        rows = self._row[(local[:, 0] * size + local[:, 1]) * size + local[:, 2]]
        out = np.zeros((len(keys), self.num_actions))
        for key in set(keys):
            index = self._node.get(key)
            where = np.flatnonzero([k == key for k in keys])
            node = None if index is None else self.game.tree[index]
            if node is None or (position[where] != node.player).any():
                raise ValueError(
                    f"{self.name}: no decision of the solved game after the betting {key!r} "
                    "(not the one-round heads-up game it was solved for?)"
                )
            out[np.ix_(where, node.actions)] = self.profile[index][rows[where]]
        return self._checked(out, action_masks)

    def _checked(self, out: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(action_masks, dtype=bool)
        if (out[~masks] > 1e-9).any():
            raise ValueError(
                f"{self.name}: the strategy gives weight to an action the mask forbids"
            )
        return out

    def act_batch(self, observations: Any, action_masks: np.ndarray) -> np.ndarray:
        """Action ids for a batch: sampled from the strategy (or its most likely action)."""
        probabilities = self.action_probabilities(observations, action_masks)
        if self.deterministic:
            return np.argmax(probabilities, axis=1)
        cumulative = np.cumsum(probabilities, axis=1)
        draws = self.rng.random(len(probabilities))[:, None] * cumulative[:, -1:]
        return np.minimum((cumulative <= draws).sum(axis=1), probabilities.shape[1] - 1)

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])


class ExchangePoint(NamedTuple):
    """Where a heads-up observation of a game with exchanges stands, in the solvers' terms."""

    round: int  # the betting round, or the exchange after it
    exchanging: bool  # an exchange decision (else a betting one)
    patterns: tuple[str, ...]  # each exchange so far: none, draw0, draw1 or swap
    point: int | str  # the betting node, or x0 (first player), x1k / x1d (the dealer, after
    # the first player kept / discarded)
    line: int  # the completed betting rounds' line, numbered as the solvers number it
    position: int  # 0 acts first, 1 is the dealer
    hand: tuple[int, ...]  # the three cards held now, sorted
    deal_key: tuple[int, ...]  # the dealt hand, then per exchange the slot given (-1 none)
    # and the card got (-1 none): the exact game's private state key


def read_exchange_point(
    obs: np.ndarray,
    trees: Sequence[Any],
    ends: Sequence[Sequence[int]],
    nodes: Sequence[dict[str, int]],
    name: str,
) -> ExchangePoint:
    """Read one heads-up observation of a game with exchanges (``trees``: each round's betting
    tree, ``ends`` its continuing ends, ``nodes`` its node index by history)."""
    at = encoding.field_offsets(2)
    width = len(encoding.BETTING_STATS)
    cards = sorted(int(c) for c in np.flatnonzero(obs[at.own : at.own + NUM_CARDS] > 0.5))
    if len(cards) != 3:
        raise ValueError(f"{name}: an observation without three own cards (no hand to play)")
    position = int(obs[at.seats + _DEALER] > 0.5)
    phase = int(np.argmax(obs[at.phase : at.phase + len(encoding.PHASES)]))
    r, exchanging = phase // 2, phase % 2 == 1
    history = obs[at.history : at.history + 3 * 2 * width].reshape(3, 2, width)
    first = position  # the first player's row: 0 when I act first, else 1

    def betting(q: int) -> tuple[bool, int]:
        return bool(history[q, first, 0] > 0.5), int(np.rint(4 * history[q, :, 2].sum()))

    completed = r + 1 if exchanging else r  # betting rounds over
    line, lines = 0, 1
    for q in range(completed):
        checked, bets = betting(q)
        end = "kk" if bets == 0 else ("k" if checked else "") + "b" * bets + "c"
        line += ends[q].index(nodes[q][end]) * lines
        lines *= len(ends[q])
    # Exchanges done: the public course, and what I gave and got, undone back to the deal.
    patterns, steps = [], []
    for e in range(r):  # the exchanges before this point
        block, gave, _, got, _ = at.exchanges[e]
        mine, theirs = bool(obs[block] > 0.5), bool(obs[block + 4] > 0.5)
        course = (mine, theirs) if position == 0 else (theirs, mine)
        patterns.append(_PATTERN[course])
        given = int(np.argmax(obs[gave : gave + NUM_CARDS])) if mine else None
        received = int(np.argmax(obs[got : got + NUM_CARDS])) if mine else None
        steps.append((given, received))
    hand = list(cards)
    log = []
    for given, received in reversed(steps):
        if given is None:
            log.append((-1, -1))
            continue
        hand.remove(received)
        hand = sorted([*hand, given])
        log.append((hand.index(given), received))
    deal_key = tuple(hand) + tuple(x for pair in reversed(log) for x in pair)
    point: int | str
    if exchanging:
        dealer_point = "x1d" if obs[at.exchanges[r][0] + 4] > 0.5 else "x1k"
        point = "x0" if position == 0 else dealer_point
    else:
        checked, bets = betting(r)
        node_history = ("k" if checked else "") + "b" * bets
        node = nodes[r].get(node_history)
        if node is None or trees[r][node].player != position:
            raise ValueError(f"{name}: no decision after the betting {node_history!r}")
        point = node
    return ExchangePoint(
        r, exchanging, tuple(patterns), point, line, position, tuple(cards), deal_key
    )


def point_action_ids(at: ExchangePoint, trees: Sequence[Any], keep: int) -> list[int]:
    """The env's action ids of the decision ``at``, in the strategy's order: keep and the
    three discards at an exchange (``keep`` the keep id), else the betting node's actions."""
    if at.exchanging:
        return list(range(keep, keep + 4))
    return list(trees[at.round][at.point].actions)


class _ExchangeReader:
    """Reads a heads-up observation of a game with exchanges into the solved strategy's
    decision point, betting line and private state, and gives that point's probabilities
    over the env's action ids."""

    def __init__(self, game: Any, strategy: dict) -> None:
        self.game, self.strategy, self.config = game, strategy, game.config
        self.keep = encoding.keep_id(game.config)
        self.num_actions = encoding.num_actions(game.config)
        self.nodes = [{n.history: i for i, n in enumerate(tree)} for tree in game.trees]
        self.stages = {stage.patterns: stage for stage in game.stages}
        self.states: dict[tuple[int, int], dict[tuple, int]] = {}

    def _state(self, stage: Any, player: int, key: tuple) -> int:
        table = self.states.get((stage.index, player))
        if table is None:
            rows = stage.state_keys[player].tolist()
            table = self.states[(stage.index, player)] = {tuple(r): i for i, r in enumerate(rows)}
        if key not in table:
            raise ValueError(f"solved: no private state {key} in the solved game")
        return table[key]

    def batch_probabilities(self, observations: np.ndarray) -> np.ndarray:
        return np.stack([self.probabilities(o) for o in np.asarray(observations)])

    def probabilities(self, obs: np.ndarray) -> np.ndarray:
        game = self.game
        at = read_exchange_point(obs, game.trees, game.ends, self.nodes, "solved")
        stage = self.stages[at.patterns]
        state = self._state(stage, at.position, at.deal_key)
        out = np.zeros(self.num_actions)
        ids = point_action_ids(at, game.trees, self.keep)
        out[ids] = self.strategy[(at.round, stage.index, at.point)][at.line, state]
        return out
