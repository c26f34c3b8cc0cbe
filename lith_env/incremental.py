"""Observations of one live table, kept in step with its engine action by action.

:func:`lith_env.encoding.encode` builds a seat's observation from scratch out of a
:class:`~lith_env.game.PlayerView`: the statement of what each entry means. Most entries are
public (the phase, the pot, every seat's chips and status, who discarded and drew, the betting
summary) and change in a few places per action, so :class:`IncrementalEncoder` keeps them in
one vector laid out as seat 0 sees it, updates only what the last actions changed, and gives a
seat its observation as one gather (the seat blocks rotated to its order) plus its few private
entries (its cards and hand features, the amount it must call, its raise range, its own side of
the exchanges). The result equals ``encode(hand.observe(seat), config)`` entry for entry
(``tests/test_lith_encoding.py`` checks it for random seats after random stretches of play in
every configuration).

Numpy only, no RL imports.
"""

from __future__ import annotations

import functools

import numpy as np

from lith_env.cards import NUM_CARDS
from lith_env.encoding import (
    HAND_FEATURES,
    PHASES,
    encode,
    feature_entries,
    field_offsets,
    stat_scales,
)
from lith_env.game import BETTING_STATS, NUM_ROUNDS, STAT_COLUMN, LithConfig, LithHand
from lith_env.hands import hand_index

__all__ = ["IncrementalEncoder"]

_WIDTH = len(BETTING_STATS)
# A seat's status flags in its block of nine (stack, bet, chips in, then these):
_LIVE, _FOLDED, _ALL_IN, _OUT = 3, 4, 5, 6
_STATUS_CELLS = {"live": (_LIVE,), "all-in": (_LIVE, _ALL_IN), "folded": (_FOLDED,), "out": (_OUT,)}


class IncrementalEncoder:
    """Every seat's observation of one table's hands (``encode(hand.observe(seat), config)``),
    from a public part updated as actions happen. Call :meth:`encode` with the table's current
    hand: a new hand object starts over, the same one catches up on what it did since."""

    def __init__(self, config: LithConfig) -> None:
        n = config.num_players
        at = field_offsets(n)
        self.config, self.n, self.at = config, n, at
        self.total = float(config.total_chips)
        # Past float32's exact integers the reference rounds through numpy: use it as it is.
        self.exact = self.total < 2**24
        self.scales = stat_scales(self.total)
        self.public = np.zeros(at.size + 1, dtype=np.float32)  # the last cell stays 0
        self.gathers = [_gather(n, me) for me in range(n)]
        self.hand: LithHand | None = None

    # ------------------------------------------------------------------ the public part

    def _start(self, hand: LithHand) -> None:
        """A new hand: a blank public part, then everything counts as changed."""
        n = self.n
        self.public.fill(0.0)
        self.hand = hand
        self.seen = -1  # public actions already counted (-1: nothing written yet)
        self.resolved = 0  # exchanges whose draws are written
        self.raises = [0] * NUM_ROUNDS
        self.phase_cell = -1
        self.current: int | None = None
        self.stacks, self.bets, self.committed = [0] * n, [0] * n, [0] * n
        self.status: list[str | None] = [None] * n
        self.card_cells: list[tuple[np.ndarray, np.ndarray] | None] = [None] * n
        self.public[self.at.seats + 9 * hand.dealer + 7] = 1.0

    def _catch_up(self, hand: LithHand) -> None:
        actions = hand.public_actions
        if hand is not self.hand:
            self._start(hand)
        elif self.seen == len(actions):
            return  # every change to a hand is an action: none since the last call
        at, n, pub = self.at, self.n, self.public
        acted = None  # the seat whose chips and status may have changed, if only one
        if self.seen < len(actions):
            summary, scales = hand.betting_summary, self.scales
            for entry in actions[max(self.seen, 0) :]:
                r, seat = entry["round"], entry["seat"]
                acted = seat if acted is None or acted == seat else -1
                if entry["phase"] == "bet":
                    stat = STAT_COLUMN[entry["kind"]]
                    i = (r * n + seat) * _WIDTH
                    value = summary[i + stat] * scales[stat]
                    pub[at.history + i + stat] = value if value < 1.0 else 1.0
                    value = summary[i + 4] * scales[4]
                    pub[at.history + i + 4] = value if value < 1.0 else 1.0
                    if stat == 2:
                        self.raises[r] += 1
                        pub[at.raises + r] = min(0.25 * self.raises[r], 1.0)
                else:
                    kept = entry["kind"] != "discard"
                    pub[at.exchanges[r][0] + 4 * seat + kept] = 1.0
        self.seen = len(actions)

        phase = hand.phase
        exchanges = hand.exchanges
        if phase == "bet":
            phase_cell = 2 * hand.round
        elif phase == "exchange":
            phase_cell = 2 * (len(exchanges) - 1) + 1
        else:
            phase_cell = len(PHASES) - 1
        if phase_cell != self.phase_cell:
            # A new phase moves chips and clears bets for every seat: look at them all.
            if self.phase_cell >= 0:
                pub[at.phase + self.phase_cell] = 0.0
            pub[at.phase + phase_cell] = 1.0
            self.phase_cell = phase_cell
            acted = -1
            resolved = len(exchanges) - (phase == "exchange")
            while self.resolved < resolved:
                block = at.exchanges[self.resolved][0]
                for seat, (_, source) in exchanges[self.resolved].received.items():
                    pub[block + 4 * seat + (2 if source is None else 3)] = 1.0
                self.resolved += 1
                self.card_cells = [None] * n  # hands changed

        betting = phase == "bet"
        total = self.total
        pub[at.chips] = sum(hand.committed) / total
        pub[at.chips + 2] = hand.highest / total if betting else 0.0
        if acted == -1:
            for seat in range(n):
                self._refresh_seat(hand, seat, betting)
        elif acted is not None:
            self._refresh_seat(hand, acted, betting)
        current = hand.current
        if current != self.current:
            if self.current is not None:
                pub[at.seats + 9 * self.current + 8] = 0.0
            if current is not None:
                pub[at.seats + 9 * current + 8] = 1.0
            self.current = current

    def _refresh_seat(self, hand: LithHand, seat: int, betting: bool) -> None:
        """Write what changed of one seat's stack, bet, chips in and status."""
        pub, total, cell = self.public, self.total, self.at.seats + 9 * seat
        stack = hand.stacks[seat]
        if stack != self.stacks[seat]:
            pub[cell] = stack / total
            self.stacks[seat] = stack
        bet = hand.bets[seat] if betting else 0
        if bet != self.bets[seat]:
            pub[cell + 1] = bet / total
            self.bets[seat] = bet
        committed = hand.committed[seat]
        if committed != self.committed[seat]:
            pub[cell + 2] = committed / total
            self.committed[seat] = committed
        if not hand.dealt_in[seat]:
            status = "out"
        elif hand.folded[seat]:
            status = "folded"
        else:
            status = "live" if stack else "all-in"
        before = self.status[seat]
        if status != before:
            if before is not None:
                for flag in _STATUS_CELLS[before]:
                    pub[cell + flag] = 0.0
            for flag in _STATUS_CELLS[status]:
                pub[cell + flag] = 1.0
            self.status[seat] = status

    # ------------------------------------------------------------------ one seat's view

    def encode(self, hand: LithHand, seat: int) -> np.ndarray:
        """``seat``'s float32 observation of ``hand`` now (a new array)."""
        if not self.exact:
            return encode(hand.observe(seat), self.config)
        self._catch_up(hand)
        at, n, total = self.at, self.n, self.total
        obs = self.public[self.gathers[seat]]

        cards = self.card_cells[seat]
        if cards is None:
            cards = self.card_cells[seat] = self._card_cells(hand.cards[seat])
        obs[cards[0]] = cards[1]

        if hand.phase == "bet":
            chips = at.chips
            stack, highest = hand.stacks[seat], hand.highest
            obs[chips + 1] = min(highest - hand.bets[seat], stack) / total
            if hand.current == seat:
                legal = hand.legal_actions()
                if legal.raise_kind is not None:
                    obs[chips + 3] = legal.min_to / total  # type: ignore[operator]
                    obs[chips + 4] = legal.max_to / total  # type: ignore[operator]

        exchanges = hand.exchanges
        last = len(exchanges) - 1
        for e, log in enumerate(exchanges):
            resolved = e < last or hand.phase != "exchange"
            _, gave, taken_by, got, got_from = at.exchanges[e]
            card = log.discards.get(seat)
            if card is not None:
                obs[gave + card] = 1.0
                if resolved:
                    taker = log.taken_by[seat]
                    obs[taken_by + (n if taker is None else (taker - seat) % n)] = 1.0
            if resolved:
                received = log.received.get(seat)
                if received is not None:
                    obs[got + received[0]] = 1.0
                    obs[got_from + (received[1] is not None)] = 1.0
        return obs

    def _card_cells(self, cards: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Cells and values of a hand's own-card and hand-feature entries (none if no cards)."""
        if len(cards) != 3:
            return _NO_CELLS
        return _hand_cells(self.config.pawns_and_courts, self.config.excuse, *sorted(cards))


_NO_CELLS = (np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.float32))


@functools.lru_cache(maxsize=1 << 15)
def _hand_cells(
    pawns_and_courts: bool, excuse: str | None, *cards: int
) -> tuple[np.ndarray, np.ndarray]:
    """The own-card and hand-feature entries of a hand (the same cells in every layout: both
    fields come first)."""
    at = field_offsets(2)
    offsets, values, starts = feature_entries(pawns_and_courts, excuse)
    index = hand_index(cards)
    cells = [at.own + c for c in cards]
    cells += [at.hand + offsets[j] for j in range(starts[index], starts[index + 1])]
    weights = [1.0] * 3 + values[starts[index] : starts[index + 1]]
    out = np.array(cells, dtype=np.intp), np.array(weights, dtype=np.float32)
    for array in out:
        array.flags.writeable = False  # shared by every table
    return out


def _gather(n: int, me: int) -> np.ndarray:
    """For every cell of ``me``'s observation, the public cell it copies: seat blocks and the
    betting summary rotated to seats in order from ``me``, private cells from the blank cell."""
    at = field_offsets(n)
    blank = at.size
    index = np.arange(at.size + 1)
    index[at.own : at.own + NUM_CARDS] = blank
    index[at.hand : at.hand + HAND_FEATURES] = blank
    index[[at.chips + 1, at.chips + 3, at.chips + 4]] = blank
    for position in range(n):
        seat = (me + position) % n
        index[at.seats + 9 * position : at.seats + 9 * position + 9] = np.arange(
            at.seats + 9 * seat, at.seats + 9 * seat + 9
        )
        for block, *_ in at.exchanges:
            index[block + 4 * position : block + 4 * position + 4] = np.arange(
                block + 4 * seat, block + 4 * seat + 4
            )
        for r in range(NUM_ROUNDS):
            to = at.history + (r * n + position) * _WIDTH
            source = at.history + (r * n + seat) * _WIDTH
            index[to : to + _WIDTH] = np.arange(source, source + _WIDTH)
    for _, gave, taken_by, got, got_from in at.exchanges:
        index[gave : gave + NUM_CARDS] = blank
        index[taken_by : taken_by + n + 1] = blank
        index[got : got + NUM_CARDS] = blank
        index[got_from : got_from + 2] = blank
    return index[: at.size].astype(np.intp)
