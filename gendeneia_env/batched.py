"""A batched Gendeneía engine: N tables stepped at once by compiled kernels.

:class:`BatchedGendeneia` keeps every table's state in arrays (one row per table) and steps
them with the kernels of :mod:`gendeneia_env.batched_rules`, which follow
:class:`~gendeneia_env.game.GendeneiaGame` rule for rule. Every rule and variant of the
reference engine is covered: any player count, both game ends, ``discard_ends_turn``, both
pre-summing variants, the Twist removals under either rule, and the temporary round lots.

Exactness is the contract: a table reset with seed ``s`` (and first player ``p``) deals what
``GendeneiaGame(config, seed=s, first_player=p)`` deals, draws the cards it draws and
reshuffles as it does (its generator is Python's own Mersenne Twister, :mod:`.mersenne`); given
the same actions it goes through the same states, and :meth:`encode`, :meth:`action_masks` and
:meth:`scores` give what :func:`~gendeneia_env.encoding.encode`,
:func:`~gendeneia_env.encoding.action_mask` and ``GendeneiaGame.scores`` give, bit for bit
(``tests/test_gendeneia_batched.py`` plays thousands of games of every variant both ways).

Plain numpy and numba; no Gymnasium here (:mod:`gendeneia_env.vector` wraps it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gendeneia_env import batched_rules as rules
from gendeneia_env import encoding
from gendeneia_env.game import GendeneiaConfig, IllegalActionError
from gendeneia_env.mersenne import N as STATE_WORDS
from gendeneia_env.mersenne import seed_keys
from gendeneia_env.scoring import PRESUMS

__all__ = ["END_REASONS", "BatchedGendeneia"]

PHASES = encoding.PHASES
END_REASONS = {
    rules.ROUNDS: "{round} round(s)",
    rules.RESHUFFLED: "{reshuffles} reshuffle(s)",
    rules.RAN_OUT: "a draw pile ran out (no reshuffle allowed)",
    rules.NOT_REFILLED: "a draw pile could not be refilled",
}


def _rules_row(config: GendeneiaConfig) -> tuple[np.ndarray, np.ndarray]:
    cfg = np.zeros(rules.CFG, dtype=np.int64)
    cfg[rules.PLAYERS] = config.num_players
    cfg[rules.MAX_ROUNDS] = -1 if config.max_rounds is None else config.max_rounds
    cfg[rules.MAX_RESHUFFLES] = -1 if config.max_reshuffles is None else config.max_reshuffles
    cfg[rules.DISCARD_ENDS] = config.discard_ends_turn
    cfg[rules.PRESUM] = PRESUMS.index(config.presum)
    cfg[rules.ROUND_LOTS] = config.round_lots
    cfg[rules.ANY_MUST] = config.twist_any_rule == "must"
    cfg[rules.SUIT_MUST] = config.twist_suit_rule == "must"
    twists = np.zeros(12, dtype=np.int64)
    twists[list(config.twist_any)] = 1
    twists[list(config.twist_suit)] = 2
    return cfg, twists


class BatchedGendeneia:
    """``num_tables`` games of Gendeneía under one ``config``, stepped together.

    Every table has one seat to act (``current``) until its game ends (``match_over``);
    :meth:`step` takes one action id (those of :mod:`gendeneia_env.encoding`) per table.
    """

    def __init__(self, config: GendeneiaConfig | None = None, num_tables: int = 1) -> None:
        if not isinstance(num_tables, int | np.integer) or isinstance(num_tables, bool):
            raise ValueError(f"num_tables: must be a positive integer, got {num_tables!r}")
        if num_tables < 1:
            raise ValueError(f"num_tables: must be a positive integer, got {num_tables!r}")
        self.config = config = config or GendeneiaConfig()
        if not isinstance(config, GendeneiaConfig):
            raise ValueError(f"config: must be a GendeneiaConfig, got {config!r}")
        self.num_tables = k = int(num_tables)
        self.n = n = config.num_players
        self.num_actions = encoding.num_actions(config)
        self.observation_size = encoding.observation_size(config)
        where = encoding.layout(n, config.round_lots)
        self._offsets = np.array([where[name][0] for name in rules.FIELDS], dtype=np.int64)
        self._cfg, self._twists = _rules_row(config)
        self.mt = np.zeros((k, STATE_WORDS), dtype=np.uint32)
        self.mt_position = np.zeros(k, dtype=np.int64)
        self.piles = np.zeros((k, 4, 36), dtype=np.int8)
        self.sizes = np.zeros((k, 4), dtype=np.int64)
        self.owner = np.full((k, 36), -1, dtype=np.int8)
        self.force = np.zeros((k, 36), dtype=np.int8)
        self.stamp = np.zeros((k, 36), dtype=np.int64)
        self.hands = np.full((k, n, 2), -1, dtype=np.int8)
        self.meta = np.zeros((k, rules.META), dtype=np.int64)
        self._state = rules.Tables(
            self.mt, self.mt_position, self.piles, self.sizes, self.owner, self.force,
            self.stamp, self.hands, self.meta,
        )  # fmt: skip
        self.meta[:, rules.PHASE] = rules.OVER
        self.meta[:, rules.CURRENT] = -1
        self.seeds = np.zeros(k, dtype=object)
        self._all = np.arange(k)

    # ------------------------------------------------------------------ state

    @property
    def current(self) -> np.ndarray:
        """The seat to act at each table, -1 where the game is over (a view: read it now)."""
        return self.meta[:, rules.CURRENT]

    @property
    def match_over(self) -> np.ndarray:
        """Whether each table's game is over."""
        return self.meta[:, rules.PHASE] == rules.OVER

    @property
    def phase(self) -> np.ndarray:
        """Each table's phase, an index into ``encoding.PHASES``."""
        return self.meta[:, rules.PHASE]

    def _tables(self, tables: Any) -> np.ndarray:
        if tables is None:
            return self._all
        idx = np.asarray(tables)
        if idx.dtype.kind not in "iu" or idx.ndim != 1:
            raise ValueError(f"tables: need a 1-d array of table indices, got {tables!r}")
        if len(idx) and (idx.min() < 0 or idx.max() >= self.num_tables):
            raise ValueError(f"tables: indices run 0-{self.num_tables - 1}, got {idx.tolist()}")
        return idx.astype(np.int64, copy=False)

    # ------------------------------------------------------------------ play

    def reset(self, seeds: Any, tables: Any = None, first_player: int | None = None) -> None:
        """New games at ``tables`` (all by default), ``seeds`` one integer per table (or one
        for all): each deals what ``GendeneiaGame(config, seed, first_player)`` deals.
        ``first_player=None`` draws it from the seed, as the reference engine does."""
        idx = self._tables(tables)
        values = np.broadcast_to(np.asarray(seeds, dtype=object), (len(idx),))
        keys = np.zeros((len(idx), 3), dtype=np.int64)
        for i, seed in enumerate(values.tolist()):
            if not isinstance(seed, int | np.integer) or isinstance(seed, bool):
                raise ValueError(f"seeds: need integers, got {seed!r}")
            keys[i] = seed_keys(int(seed))
        if first_player is not None and not (
            isinstance(first_player, int | np.integer) and 0 <= first_player < self.n
        ):
            raise ValueError(
                f"first_player: must be None or a seat 0-{self.n - 1}, got {first_player!r}"
            )
        first = np.full(len(idx), -1 if first_player is None else int(first_player), np.int64)
        self.seeds[idx] = [int(s) for s in values.tolist()]
        rules.reset(idx, keys, first, self._state, self._cfg)

    def action_masks(self, tables: Any = None) -> np.ndarray:
        """int8 masks (k, actions) of the seat to act at ``tables`` (all zeros where over)."""
        idx = self._tables(tables)
        out = np.empty((len(idx), self.num_actions), dtype=np.int8)
        rules.masks(idx, out, self._state, self._cfg)
        return out

    def step(self, actions: Any, tables: Any = None) -> None:
        """Play ``actions[t]`` (an action id) for the seat to act at each table ``t`` of
        ``tables`` (default: every table; finished tables are skipped and other entries of
        ``actions``, one per table, ignored), as :class:`lith_env.batched.BatchedLith` does.
        An action that is not legal raises :class:`IllegalActionError` naming the table, the
        action and the legal ids, and no table changes."""
        ids = np.asarray(actions)
        if ids.dtype.kind not in "iu" or ids.shape != (self.num_tables,):
            raise IllegalActionError(
                f"actions: need {self.num_tables} integer action ids, one per table, got "
                f"shape {ids.shape} of dtype {ids.dtype}"
            )
        idx = self._tables(tables)
        idx = idx[~self.match_over[idx]]
        ids = ids.astype(np.int64, copy=False)[idx]
        masks = self.action_masks(idx)
        inside = (ids >= 0) & (ids < self.num_actions)
        legal = np.zeros(len(idx), dtype=bool)
        legal[inside] = masks[np.flatnonzero(inside), ids[inside]] == 1
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise IllegalActionError(
                f"illegal action id {int(ids[bad])} at table {int(idx[bad])} (seat "
                f"{int(self.current[idx[bad]])} to act); legal ids: "
                f"{np.flatnonzero(masks[bad]).tolist()}"
            )
        rules.step(idx, ids, self._state, self._cfg, self._twists)

    # ------------------------------------------------------------------ results and views

    def encode(self, seats: Any, tables: Any = None) -> np.ndarray:
        """The observation of ``seats[i]`` at ``tables[i]`` (all tables by default), as
        :func:`gendeneia_env.encoding.encode` writes it: float32 (k, size)."""
        idx = self._tables(tables)
        seats = np.broadcast_to(np.asarray(seats, dtype=np.int64), (len(idx),))
        if len(seats) and (seats.min() < 0 or seats.max() >= self.n):
            raise ValueError(f"seats: run 0-{self.n - 1}, got {seats.tolist()}")
        out = np.empty((len(idx), self.observation_size), dtype=np.float32)
        seats = np.ascontiguousarray(seats)
        if len(idx) >= rules.PARALLEL_ROWS:
            rules.encode(idx, seats, out, self._offsets, self._state, self._cfg)
        else:
            rules.encode_rows(idx, seats, out, self._offsets, self._state, self._cfg, 0, len(idx))
        return out

    def scores(self) -> np.ndarray:
        """Every seat's score at every table now, (tables, seats) int64 (lowest wins)."""
        out = np.empty((self.num_tables, self.n), dtype=np.int64)
        rules.all_scores(out, self.owner, self.force, self._cfg)
        return out

    def win_shares(self) -> np.ndarray:
        """Every seat's share of the win now: 1 / the number tied for the lowest score."""
        scores = self.scores()
        best = scores == scores.min(axis=1, keepdims=True)
        return best / best.sum(axis=1, keepdims=True)

    def end_reason(self, table: int) -> str | None:
        """Why a table's game ended, as ``GendeneiaGame.end_reason`` says it."""
        code = int(self.meta[table, rules.REASON])
        if not code:
            return None
        return END_REASONS[code].format(
            round=self.meta[table, rules.ROUND], reshuffles=self.meta[table, rules.RESHUFFLES]
        )

    def table_state(self, table: int) -> dict[str, Any]:
        """One table's state in the reference engine's terms (for tests and debugging):
        hands, every lot's pairs in play order, the temporary lots, the draw and discard
        piles, the turn and phase, the removal owed, the counts."""
        t, n = int(table), self.n
        meta = self.meta[t]

        def lot(holder: int, index: int) -> list[tuple[int, int]]:
            cards = [c for c in range(index * 12, index * 12 + 12) if self.owner[t, c] == holder]
            cards.sort(key=lambda c: self.stamp[t, c])
            return [(c, int(self.force[t, c])) for c in cards]

        pending = None
        if meta[rules.TWIST] >= 0:
            rule = "must" if meta[rules.MUST] else "may"
            pending = (int(meta[rules.TWIST]), int(meta[rules.SUIT]), rule)
        over = meta[rules.PHASE] == rules.OVER
        return {
            "hands": [[None if c < 0 else int(c) for c in self.hands[t, s]] for s in range(n)],
            "lots": [[lot(s, k) for k in range(3)] for s in range(n)],
            "temp_lots": [lot(n, k) for k in range(3)] if self.config.round_lots else None,
            "draw": [self.piles[t, k, : self.sizes[t, k]].tolist() for k in (0, 1)],
            "discard": [self.piles[t, k, : self.sizes[t, k]].tolist() for k in (2, 3)],
            "phase": PHASES[int(meta[rules.PHASE])],
            "current": None if over else int(meta[rules.CURRENT]),
            "opener": int(meta[rules.OPENER]),
            "round": int(meta[rules.ROUND]),
            "turns_in_round": int(meta[rules.TURNS]),
            "reshuffles": int(meta[rules.RESHUFFLES]),
            "pending": pending,
            "end_reason": self.end_reason(t),
        }
