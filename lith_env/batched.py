"""A batched Lith engine: N tables stepped at once with numpy arrays.

The same rules as :class:`lith_env.game.LithHand` / :class:`~lith_env.game.LithGame`, kept as a
structure of arrays (one row per table) and updated with masked array operations: no Python loop
over tables anywhere in a step, only short loops over seats (at most 10) and over the few
automatic transitions an action can trigger. Every table has exactly one seat to act until its
episode ends; :meth:`BatchedLith.step` takes one action id per table (the ids of
:mod:`lith_env.encoding`) for the seat to act.

Exactness is the contract: given the same decks (``decks="reference"`` replays
:class:`~lith_env.game.LithGame`'s own shuffles seed for seed) and the same actions, every
table goes through the same states as the reference engine, and :meth:`encode`,
:meth:`action_masks` and :meth:`returns` give the same observations, masks and chips
(``tests/test_lith_batched.py`` checks this over thousands of hands and every configuration).

Plain numpy; no Gymnasium here (:mod:`lith_env.vector` wraps it).
"""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Any

import numpy as np

from lith_env import encoding
from lith_env.game import BETTING_STATS, NUM_ROUNDS, LithConfig, deal
from lith_env.hands import C2, C3, strength_table
from tablegame.engine import IllegalActionError

__all__ = [
    "BET",
    "EXCHANGE",
    "OVER",
    "BatchedLith",
    "GivenDecks",
    "NumpyDecks",
    "ReferenceDecks",
    "award_showdowns",
]

BET, EXCHANGE, OVER = 0, 1, 2
_WIDTH = len(BETTING_STATS)  # checks, calls, bets and raises, folds, chips
_INT64_MIN, _INT64_MAX = int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max)  # iinfo is slow


class ReferenceDecks:
    """Per table, the first dealer and every hand's deck order and demon coin of
    ``LithGame(config, seed)``, drawn exactly as it draws them (Python's ``random``)."""

    def __init__(self, config: LithConfig, num_tables: int, first_dealer: int | None) -> None:
        self.config, self.first_dealer = config, first_dealer
        self.rngs = [random.Random(0) for _ in range(num_tables)]

    def start(self, tables: np.ndarray, seeds: Any) -> np.ndarray:
        """Reseed ``tables`` (one seed each) and return their first dealers."""
        seeds = np.broadcast_to(np.asarray(seeds, dtype=object), (len(tables),))
        dealers = []
        for t, seed in zip(tables.tolist(), seeds.tolist(), strict=True):
            self.rngs[t] = rng = random.Random(seed)
            first = self.first_dealer
            dealers.append(rng.randrange(self.config.num_players) if first is None else first)
        return np.array(dealers, dtype=np.int64)

    def deal(self, tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Deck orders (top first) and demon coins of the next hand at each table."""
        orders, demons = [], []
        for t in tables.tolist():
            order, demon = deal(self.config, self.rngs[t].getrandbits(63))
            orders.append(order)
            demons.append(demon)
        return np.array(orders, dtype=np.int64).reshape(len(tables), -1), np.array(demons)


class NumpyDecks:
    """Decks from one numpy generator for all tables: vectorized, so fast; not the reference
    engine's shuffles. Only the top ``cards`` cards of each deck are drawn (a hand reads no
    deeper), by a Fisher-Yates shuffle stopped after that many places: each is uniform over
    the cards not yet drawn, as in a whole shuffle."""

    def __init__(
        self, config: LithConfig, num_tables: int, first_dealer: int | None, cards: int
    ) -> None:
        self.config, self.first_dealer = config, first_dealer
        self.deck = np.array(config.deck, dtype=np.int8)
        self.rng = np.random.default_rng()
        size = len(self.deck)
        self.cards = min(cards, size - 1)  # the last place of a whole shuffle has no choice
        self._low = np.arange(self.cards)[:, None]
        self._span = (size - np.arange(self.cards))[:, None].astype(np.float64)

    def start(self, tables: np.ndarray, seeds: Any) -> np.ndarray:
        """A seed (an int, or anything ``numpy.random.default_rng`` takes) restarts the
        generator; ``None`` goes on with it. Returns the first dealers of ``tables``."""
        if seeds is not None:
            self.rng = np.random.default_rng(seeds)
        if self.first_dealer is not None:
            return np.full(len(tables), self.first_dealer, dtype=np.int64)
        # floor(u * n) for uniform u in [0, 1): uniform over the seats, cheaper than integers()
        return (self.rng.random(len(tables)) * self.config.num_players).astype(np.int64)

    def deal(self, tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        k, size = len(tables), len(self.deck)
        decks = np.tile(self.deck, (k, 1))
        flat = decks.reshape(-1)
        at = np.arange(0, k * size, size)  # each deck's place being filled
        # Place i of a deck takes a card drawn uniformly from places i .. size - 1.
        drawn = at + self._low + (self.rng.random((self.cards, k)) * self._span).astype(np.intp)
        for place in drawn:
            card = flat[place]
            flat[place] = flat[at]
            flat[at] = card
            at += 1
        return decks, self.rng.random(k) < 0.5


def _sort3(hands: np.ndarray) -> np.ndarray:
    """Sort three cards (axis 0 of a (3, ...) array) with a min/max network; returned with the
    cards last and seats first, flattened as the (3n, k) cells of ``cards`` want them."""
    a, b, c = hands
    n, k = a.shape
    out = np.empty((n, 3, k), dtype=hands.dtype)  # seat-major: row 3s + r is seat s's card r
    low, b = np.minimum(a, b), np.maximum(a, b)
    np.minimum(b, c, out=out[:, 1])
    np.maximum(b, c, out=out[:, 2])
    np.minimum(low, out[:, 1], out=out[:, 0])
    np.maximum(low, out[:, 1], out=out[:, 1])
    return out.reshape(3 * n, k)


def award_showdowns(
    committed: np.ndarray, live: np.ndarray, strength: np.ndarray, dealer: np.ndarray
) -> np.ndarray:
    """Chips each seat wins at a showdown, for many tables (rows) at once: side pots from the
    smallest all-in up, each to the best eligible hand, equal hands splitting with odd chips to
    the first tied winner left of the dealer (as :func:`lith_env.pots.side_pots` then
    :func:`~lith_env.pots.award_pots`). ``committed`` (k, n) chips put in this hand, ``live``
    (k, n) seats still in, ``strength`` (k, n) their hands' strengths, ``dealer`` (k,)."""
    seat_major = [np.ascontiguousarray(np.asarray(x).T) for x in (committed, live, strength)]
    return _award(*seat_major, np.asarray(dealer)).T


def _award(
    committed: np.ndarray, live: np.ndarray, strength: np.ndarray, dealer: np.ndarray
) -> np.ndarray:
    """:func:`award_showdowns` on seat-major (n, k) arrays (reductions run over the first
    axis, which numpy does fast)."""
    n, k = committed.shape
    rows = np.arange(k)
    big, lowest = _INT64_MAX, _INT64_MIN
    distance = _distances(n).take(dealer, axis=1)  # from the dealer's left
    if (
        np.where(live, committed, lowest).max(axis=0) == np.where(live, committed, big).min(axis=0)
    ).all():
        # Every live seat put in the same: one pot of everything, the usual case (no all-in).
        return _award_pot(committed.sum(axis=0), live, strength, distance)
    # Layers between consecutive live commitment levels (a repeated level is an empty layer).
    levels = np.sort(np.where(live & (committed > 0), committed, big), axis=0)
    amounts = np.zeros((n, k), dtype=np.int64)
    previous = np.zeros(k, dtype=np.int64)
    for j in range(n):
        valid = levels[j] < big
        top = np.where(valid, levels[j], previous)
        amounts[j] = (np.minimum(committed, top) - previous).clip(0).sum(axis=0)
        previous = top
    # Chips folded seats put in above every live level join the last pot.
    leftover = (committed - previous).clip(0).sum(axis=0)
    active = amounts > 0
    last = np.zeros(k, dtype=np.int64)
    for j in range(n):
        last = np.where(active[j], j, last)
    amounts[last, rows] += leftover
    won = np.zeros((n, k), dtype=np.int64)
    for j in range(n):
        eligible = live & (committed >= levels[j]) & active[j]
        won += _award_pot(amounts[j], eligible, strength, distance)
    return won


@functools.cache
def _distances(n: int) -> np.ndarray:
    """[seat, dealer]: how many places clockwise from the dealer's left the seat sits."""
    return (np.arange(n)[:, None] - np.arange(n)[None, :] - 1) % n


def _award_pot(
    amount: np.ndarray, eligible: np.ndarray, strength: np.ndarray, distance: np.ndarray
) -> np.ndarray:
    """One pot per table (k,) to the best hand among the ``eligible`` seats (n, k): equal
    hands split, odd chips to the tied winner nearest the dealer's left (``distance``)."""
    n = len(eligible)
    best = np.where(eligible, strength, _INT64_MIN).max(axis=0)
    winners = eligible & (strength == best)
    share, odd = np.divmod(amount, np.maximum(winners.sum(axis=0), 1))
    won = np.where(winners, share, 0)
    odd_tables = np.flatnonzero(odd > 0)
    if len(odd_tables):
        # The first winner from the dealer's left: the smallest distance among the winners.
        near = np.where(winners[:, odd_tables], distance[:, odd_tables], n).argmin(axis=0)
        won[near, odd_tables] += odd[odd_tables]
    return won


# The betting summary's column of a betting id (0 fold, 1 check or call, 2+ raise) given
# whether the seat had chips to call: [id 0: fold, fold; id 1: check, call; raise, raise].
_SUMMARY_COLUMN = np.array([3, 3, 0, 1, 2, 2])


def _count_before(flags: np.ndarray) -> np.ndarray:
    """Per column, how many rows above each row are set: an exclusive cumulative sum over
    the first axis (n, k), row by row (``np.cumsum(axis=0)`` walks the short columns one at a
    time, several times slower at these shapes)."""
    out = np.empty(flags.shape, dtype=np.int64)
    running = np.zeros(flags.shape[1], dtype=np.int64)
    for j in range(len(flags)):
        out[j] = running
        running += flags[j]
    return out


def _first(found: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """Per table (column), the seat of the first row where ``found`` holds, or -1."""
    out = np.full(found.shape[1], -1, dtype=np.int64)
    for j in range(len(found) - 1, -1, -1):  # the nearest row is written last, so it wins
        out = np.where(found[j], seats[j], out)
    return out


class GivenDecks:
    """Deck orders, first dealers and demon coins given by the caller (one hand per table)."""

    def __init__(self, orders: np.ndarray, dealers: np.ndarray, demons: np.ndarray) -> None:
        self.orders, self.dealers, self.demons = orders, dealers, demons

    def start(self, tables: np.ndarray, seeds: Any) -> np.ndarray:
        return np.asarray(self.dealers, dtype=np.int64)

    def deal(self, tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(self.orders, dtype=np.int64), np.asarray(self.demons, dtype=bool)


class BatchedLith:
    """``num_tables`` Lith tables with the same rules.

    ``episode="hand"`` ends each table's episode with its hand; ``"match"`` deals hand after
    hand until one player holds every chip or ``max_hands``. ``decks="numpy"`` deals from one
    numpy generator (fast); ``"reference"`` replays :class:`~lith_env.game.LithGame`'s shuffles
    for each table's seed, for exactness tests. ``first_dealer=None`` draws it per table.
    """

    def __init__(
        self,
        config: LithConfig,
        num_tables: int,
        episode: str = "hand",
        decks: str = "numpy",
        first_dealer: int | None = None,
    ) -> None:
        if episode not in ("hand", "match"):
            raise ValueError(f"episode: must be 'hand' or 'match', got {episode!r}")
        if decks not in ("numpy", "reference"):
            raise ValueError(f"decks: must be 'numpy' or 'reference', got {decks!r}")
        if not isinstance(num_tables, int | np.integer) or num_tables < 1:
            raise ValueError(f"num_tables: must be a positive integer, got {num_tables!r}")
        if episode == "hand":
            if config.max_hands not in (None, 1):
                raise ValueError(
                    f"max_hands: a 'hand' episode plays one hand, got {config.max_hands!r}"
                )
            config = dataclasses.replace(config, max_hands=1)
        self.config = config
        self.episode = episode
        self.decks_mode = decks
        self.first_dealer = first_dealer
        self.B = B = int(num_tables)  # noqa: N806 - B and D as in the docs: tables, deck
        self.num_tables = B
        self.n = n = config.num_players
        self.num_actions = encoding.num_actions(config)
        self.keep_id = encoding.keep_id(config)
        self.observation_size = encoding.observation_size(config)
        self.total = float(config.total_chips)
        self.limit = config.betting == "limit"
        self.pot_limit = config.betting == "pot-limit"
        self.bet_sizes = np.array(config.bet_sizes, dtype=np.int64)
        D = len(config.deck)  # noqa: N806
        self.D = D
        # A hand deals 3 cards a seat and draws at most one more a seat from the top at each
        # exchange; below that, the deck is only read once discards sent to the bottom come
        # round (when that is more than the deck).
        used = (3 + config.rounds - 1) * n
        self._deck_used = D if used > D else used
        self.rows = np.arange(B)
        self.seat_range = np.arange(n)
        self._seat_offsets = np.arange(n)[:, None]  # added to idx * n: (n, k) cells
        self._starting_stacks = np.array(config.stacks, dtype=np.int64)
        self._ex_offsets = np.arange(2 * n)[:, None]
        self._card_offsets = np.arange(3 * n)[:, None]
        self._card_rounds = np.arange(3)
        self._steps = np.arange(1, n + 1)[:, None]  # seats on from a seat, clockwise
        # [j, seat]: the seat j + 1 places clockwise after ``seat`` (a lookup: no modulo)
        self._after = (np.arange(n)[None, :] + self._steps) % n
        self._action_cells = np.arange(B) * self.num_actions  # row starts of a (B, A) mask
        # For observations: seats in order from each seat, and the betting summary's cells in
        # that order ([round, position from me, stat] -> flat offset within a table's block).
        self._rotations = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n
        r, p, w = np.meshgrid(np.arange(NUM_ROUNDS), np.arange(n), np.arange(_WIDTH), indexing="ij")
        self._history_cells = np.stack(
            [((r * n + (p + me) % n) * _WIDTH + w).ravel() for me in range(n)]
        )
        self._betting_width = NUM_ROUNDS * n * _WIDTH
        # Strength tables of the roles in play (demon: imposter on heads, beggar on tails).
        pac = config.pawns_and_courts
        if config.excuse == "demon":
            self._strengths = (strength_table(pac, "beggar"), strength_table(pac, "imposter"))
        else:
            self._strengths = (strength_table(pac, config.excuse),) * 2
        self._features = encoding.features_table(pac, config.excuse)
        at = encoding.field_offsets(n)
        self._at = at
        self.history_scale = encoding.history_scale(self.total, n).reshape(NUM_ROUNDS, n, _WIDTH)

        # ---- state: per table (B,), per seat (B, n)
        self.deck = np.zeros((B, D + 2 * n), dtype=np.int8)  # card ids; top at deck_head
        self.deck_head = np.zeros(B, dtype=np.int64)
        self.deck_tail = np.zeros(B, dtype=np.int64)
        self.cards = np.full((B, n, 3), -1, dtype=np.int64)  # sorted; -1 when not dealt in
        self.stacks = np.zeros((B, n), dtype=np.int64)
        self.match_start = np.zeros((B, n), dtype=np.int64)
        self.hand_start = np.zeros((B, n), dtype=np.int64)
        self.committed = np.zeros((B, n), dtype=np.int64)
        self.bets = np.zeros((B, n), dtype=np.int64)
        self.dealt_in = np.zeros((B, n), dtype=bool)
        self.folded = np.zeros((B, n), dtype=bool)
        self.acted = np.zeros((B, n), dtype=bool)
        self.open_to_raise = np.zeros((B, n), dtype=bool)
        self.dealer = np.zeros(B, dtype=np.int64)
        self.current = np.full(B, -1, dtype=np.int64)
        self.phase = np.full(B, OVER, dtype=np.int64)
        self.round = np.zeros(B, dtype=np.int64)
        self.highest = np.zeros(B, dtype=np.int64)
        self.last_raise = np.zeros(B, dtype=np.int64)
        self.raises = np.zeros(B, dtype=np.int64)
        self.demon_heads = np.zeros(B, dtype=bool)
        self.num_exchanges = np.zeros(B, dtype=np.int64)  # exchanges started this hand
        # Small codes and card ids: int8 keeps the working set of thousands of tables in cache.
        self.ex_discarded = np.full((B, 2, n), -1, dtype=np.int8)  # -1 undecided/out, 0, 1
        self.ex_card = np.full((B, 2, n), -1, dtype=np.int8)  # the card discarded
        self.ex_drew = np.full((B, 2, n), -1, dtype=np.int8)  # -1 unknown, 1 deck, 0 left
        self.ex_received = np.full((B, 2, n), -1, dtype=np.int8)
        self.ex_from = np.full((B, 2, n), -1, dtype=np.int8)  # -1 the deck, else a seat
        self.ex_taken_by = np.full((B, 2, n), -2, dtype=np.int8)  # -1 bottom, -2 n/a
        chips = np.int32 if config.total_chips < 2**31 else np.int64
        self.betting = np.zeros((B, NUM_ROUNDS, n, _WIDTH), dtype=chips)
        self.showed = np.zeros((B, n), dtype=bool)  # seats that showed their cards
        self.hands_played = np.zeros(B, dtype=np.int64)
        self.match_over = np.ones(B, dtype=bool)
        self.last_net = np.zeros((B, n), dtype=np.int64)  # net chips of each table's last hand
        if decks == "reference":
            self._source: Any = ReferenceDecks(config, B, first_dealer)
        else:
            self._source = NumpyDecks(config, B, first_dealer, cards=self._deck_used)
        # action_masks() of every table is kept until the state changes (step and reset
        # count versions), so a step after the caller's own mask query validates for free.
        self._version = 0
        self._masks_version = -1
        self._masks = np.zeros((B, self.num_actions), dtype=np.int8)
        keep, size = self.keep_id, self.num_actions
        self._mask_patterns = np.zeros((6, size), dtype=np.int8)
        self._mask_patterns[1, keep:] = 1  # an exchange: keep or discard
        for fold in (0, 1):
            for raise_ in (0, 1):
                row = self._mask_patterns[2 + fold + 2 * raise_]
                row[0], row[1], row[2:keep] = fold, 1, raise_

    # ------------------------------------------------------------------ set-up

    def reset(self, seeds: Any = None, tables: np.ndarray | None = None) -> None:
        """Start new matches (hands, for ``episode="hand"``) at ``tables`` (all by default).

        ``decks="reference"``: ``seeds`` gives one seed per table (or one for all), and each
        table then deals exactly as ``LithGame(config, seed)``. ``decks="numpy"``: ``seeds`` (an
        int or sequence) restarts the one generator; ``None`` continues it."""
        idx = self.rows if tables is None else np.asarray(tables, dtype=np.int64)
        self._version += 1
        self.dealer[idx] = self._source.start(idx, seeds)
        cells = self._cells(idx)
        stacks = self._starting_stacks[:, None]  # (n, 1): broadcast over the tables
        self._put(self.stacks, cells, stacks)
        self._put(self.match_start, cells, stacks)
        self.hands_played[idx] = 0
        self.match_over[idx] = False
        self._deal_hands(idx)

    def reset_to_decks(
        self,
        orders: np.ndarray,
        dealers: np.ndarray,
        demons: np.ndarray,
        tables: np.ndarray | None = None,
    ) -> None:
        """Start new matches at ``tables`` (all by default) with given first hands: deck orders
        (k, deck size; top first), dealers (k,) and demon coins (k,). Later hands of a match come
        from the engine's own decks."""
        own, self._source = self._source, GivenDecks(orders, dealers, demons)
        try:
            self.reset(None, tables)
        finally:
            self._source = own

    # Row access: per-seat arrays (B, n) are read and written through flat indices. Gathers and
    # scatters of a few whole rows (``a[idx]``) and reductions over the short seat axis are
    # slow in numpy; 1-D ``take``/``put`` on a (n, k) array of cells ``idx * n + seat``, and
    # reductions over its first axis, are fast.

    def _cells(self, idx: np.ndarray) -> np.ndarray:
        """(n, k) flat indices of every seat at tables ``idx``: row s is ``idx * n + s``."""
        return idx[None, :] * self.n + self._seat_offsets

    def _clockwise(self, idx: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The seats 1, 2, ..., n places clockwise after ``after`` at tables ``idx`` (n, k),
        and their flat cells."""
        seats = self._after.take(after, axis=1)  # take: a 2-D fancy index is slow
        return seats, idx * self.n + seats

    def _rows(self, array: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """``array[idx]`` of a per-table array, without a gather when ``idx`` is every table."""
        return array if idx is self.rows else array[idx]

    def _get(self, array: np.ndarray, cells: np.ndarray) -> np.ndarray:
        return array.reshape(-1)[cells]

    def _put(self, array: np.ndarray, cells: np.ndarray, values: Any) -> None:
        array.reshape(-1)[cells] = values

    def _deal_hands(self, idx: np.ndarray) -> None:
        """Antes and three cards each, then the first betting round, at tables ``idx``."""
        if len(idx) == 0:
            return
        n, k = self.n, len(idx)
        rows = np.arange(k)
        cells = self._cells(idx)
        orders, demons = self._source.deal(idx)
        used = self._deck_used
        self.deck[idx, :used] = orders[:, :used]  # long rows: numpy's own row write is fast here
        self.deck_tail[idx] = self.D
        self.demon_heads[idx] = demons
        stacks = self._get(self.stacks, cells)  # (n, k)
        self._put(self.hand_start, cells, stacks)
        dealt = stacks > 0
        self._put(self.dealt_in, cells, dealt)
        self._put(self.folded, cells, ~dealt)
        self._put(self.showed, cells, False)
        self.num_exchanges[idx] = 0
        # Only the decisions need blanking: what an exchange resolves (drew, received, from,
        # taken by) is written for every seat when it resolves and read only after that, the
        # bets are zeroed by the first betting round.
        ex_cells = idx[None, :] * (2 * n) + self._ex_offsets
        self._put(self.ex_discarded, ex_cells, -1)
        self._put(self.ex_card, ex_cells, -1)
        self.betting[idx] = 0  # rows of 15n: a plain row write is the fast one
        # Antes: everyone with chips posts min(ante, stack).
        ante = np.minimum(self.config.ante, stacks)
        self._put(self.stacks, cells, stacks - ante)
        self._put(self.committed, cells, ante)
        # Deal three rounds of one card, starting left of the dealer, to the seats dealt in:
        # a seat's r-th card is the deck's card r * count + (its place among those dealt in).
        count = dealt.sum(axis=0)
        place = np.zeros((n, k), dtype=np.int64)
        position = np.zeros(k, dtype=np.int64)
        for seat in self._after.take(self.dealer[idx], axis=1):  # from the dealer's left
            cell = seat * k + rows  # flat: a 2-D fancy index is slow
            place.reshape(-1)[cell] = position
            position += dealt.reshape(-1)[cell]
        where = rows * orders.shape[1] + place + self._card_rounds[:, None, None] * count
        hands = np.where(dealt, orders.reshape(-1)[where], -1)
        self._put(self.cards, idx[None, :] * (3 * n) + self._card_offsets, _sort3(hands))
        self.deck_head[idx] = 3 * count
        self._start_betting_round(idx, 0)

    # ------------------------------------------------------------------ betting

    def _start_betting_round(self, idx: np.ndarray, round_: int | np.ndarray) -> None:
        self.phase[idx] = BET
        self.round[idx] = round_
        self.highest[idx] = 0
        self.last_raise[idx] = 0
        self.raises[idx] = 0
        cells = self._cells(idx)
        self._put(self.bets, cells, 0)
        self._put(self.acted, cells, False)
        self._put(self.open_to_raise, cells, True)
        # Nobody has acted or bet yet: the first to act is the first seat left of the dealer
        # who can bet, and with fewer than two such seats there is no betting at all.
        can_bet = self._can_bet(cells)  # (n, k) by seat
        k = len(idx)
        seats, _ = self._clockwise(idx, self.dealer[idx])  # from the dealer's left
        first = _first(can_bet.reshape(-1)[seats * k + np.arange(k)], seats)
        first[can_bet.sum(axis=0) <= 1] = -1
        self.current[idx] = first
        none = first < 0
        if none.any():
            self._end_betting_round(idx[none])

    def _can_bet(self, cells: np.ndarray) -> np.ndarray:
        return ~self._get(self.folded, cells) & (self._get(self.stacks, cells) > 0)

    def _next_to_bet(self, idx: np.ndarray, after: np.ndarray) -> np.ndarray:
        """The next seat clockwise after ``after`` that still has to act (-1: none)."""
        if len(idx) == 0:
            return np.full(0, -1, dtype=np.int64)
        seats, at = self._clockwise(idx, after)
        needs = self._can_bet(at) & (
            ~self._get(self.acted, at) | (self._get(self.bets, at) < self.highest[idx])
        )
        return _first(needs, seats)

    def _end_betting_round(self, idx: np.ndarray) -> None:
        if len(idx) == 0:
            return
        self.current[idx] = -1
        last = self.round[idx] >= self.config.rounds - 1
        self._showdown(idx[np.flatnonzero(last)])
        self._start_exchange(idx[np.flatnonzero(~last)])

    def bet_options(
        self, idx: np.ndarray, seats: np.ndarray | None = None, can_raise: bool = True
    ) -> dict[str, np.ndarray]:
        """Legal betting options of the seat to act at tables ``idx`` (in the betting phase),
        as :func:`lith_env.betting.bet_options` computes them for one table; ``seats`` the
        seats to act, if the caller has them. ``can_raise=False`` leaves out whether a raise
        is legal (playing an action already checked against the mask does not need it)."""
        rows = self._rows
        seats = rows(self.current, idx) if seats is None else seats
        at = idx * self.n + seats  # flat (table, seat) index: cheaper to gather
        stack = self.stacks.reshape(-1)[at]
        my_bet = self.bets.reshape(-1)[at]
        highest = rows(self.highest, idx)
        to_call = np.minimum(highest - my_bet, stack)
        all_in_to = my_bet + stack
        bet_size = self.bet_sizes[rows(self.round, idx)]
        options = {"can_fold": highest > my_bet, "call": to_call, "stack": stack, "bet": my_bet}
        if can_raise:
            options["can_raise"] = (
                self.open_to_raise.reshape(-1)[at]
                & (stack > to_call)
                & (self._can_bet(self._cells(idx)).sum(axis=0) > 1)  # someone could answer
            )
            if self.limit:
                options["can_raise"] &= rows(self.raises, idx) < 1 + self.config.max_raises
        if self.limit:
            min_to = max_to = np.minimum(highest + bet_size, all_in_to)
        else:
            increment = np.maximum(rows(self.last_raise, idx), bet_size)
            min_to = np.minimum(highest + increment, all_in_to)
            if self.pot_limit:
                pot = self._get(self.committed, self._cells(idx)).sum(axis=0)
                max_to = np.minimum(highest + pot + (highest - my_bet), all_in_to)
                max_to = np.maximum(max_to, min_to)
            else:
                max_to = all_in_to
        options["min_to"], options["max_to"] = min_to, max_to
        return options

    def _raise_targets(self, idx: np.ndarray, options: dict, menu: np.ndarray) -> np.ndarray:
        """Raise-to amounts of raise ids (menu index 0 = min ... 3 = max), as
        :func:`lith_env.encoding.action_from_id` computes them."""
        if self.limit:
            return options["min_to"]
        highest = self.highest[idx]
        pot_after_call = self._get(self.committed, self._cells(idx)).sum(axis=0) + options["call"]
        target = np.select(
            [menu == 0, menu == 1, menu == 2],
            [options["min_to"], highest + pot_after_call // 2, highest + pot_after_call],
            options["max_to"],
        )
        return np.minimum(np.maximum(target, options["min_to"]), options["max_to"])

    def _apply_bets(self, idx: np.ndarray, ids: np.ndarray) -> None:
        n = self.n
        seat = self.current[idx]
        at = idx * n + seat  # flat (table, seat) index
        options = self.bet_options(idx, seat, can_raise=False)  # the mask was checked
        fold = ids == 0
        check_call = ids == 1
        raising = ids >= 2
        # Fold (index arrays rather than boolean masks where one selects from several arrays)
        folds = np.flatnonzero(fold)
        self.folded.reshape(-1)[at[folds]] = True
        # Check or call; bet or raise
        amount = self._raise_targets(idx, options, ids - 2)
        chips = np.where(raising, amount - options["bet"], options["call"] * check_call)
        self.stacks.reshape(-1)[at] -= chips
        self.committed.reshape(-1)[at] += chips
        self.bets.reshape(-1)[at] += chips
        raises = np.flatnonzero(raising)
        if len(raises):
            r_idx, r_amount = idx[raises], amount[raises]
            size = r_amount - self.highest[r_idx]
            bet_size = self.bet_sizes[self.round[r_idx]]
            full_size = bet_size if self.limit else np.maximum(self.last_raise[r_idx], bet_size)
            full = np.flatnonzero(size >= full_size)
            self.highest[r_idx] = r_amount
            f_idx = r_idx[full]
            self.last_raise[f_idx] = size[full]
            self.raises[f_idx] += 1
            self.open_to_raise.reshape(-1)[self._cells(f_idx)] = True  # flat: rows are slow
            self.acted.reshape(-1)[self._cells(r_idx)] = False
        self.acted.reshape(-1)[at] = True
        self.open_to_raise.reshape(-1)[at] = False
        # The public betting summary: checks, calls, bets and raises, folds, chips
        column = _SUMMARY_COLUMN[np.minimum(ids, 2) * 2 + (options["call"] > 0)]
        summary = self.betting.reshape(-1)
        cell = ((idx * NUM_ROUNDS + self.round[idx]) * n + seat) * _WIDTH
        summary[cell + column] += 1
        summary[cell + 4] += chips
        # A fold that leaves one player wins the pot at once.
        if len(folds):
            left = (~self._get(self.folded, self._cells(idx[folds]))).sum(axis=0)
            won = folds[left == 1]
            if len(won):
                self._fold_win(idx[won])
                keep = np.ones(len(idx), dtype=bool)
                keep[won] = False
                idx, seat = idx[keep], seat[keep]
        nxt = self._next_to_bet(idx, seat)
        self.current[idx] = nxt
        self._end_betting_round(idx[nxt < 0])

    # ------------------------------------------------------------------ exchanges

    def _in_hand(self, cells: np.ndarray) -> np.ndarray:
        return ~self._get(self.folded, cells)  # seats not dealt in count as folded

    def _start_exchange(self, idx: np.ndarray) -> None:
        if len(idx) == 0:
            return
        self.phase[idx] = EXCHANGE
        self.num_exchanges[idx] += 1
        self.current[idx] = self._next_in_hand(idx, self.dealer[idx], self.num_exchanges[idx] - 1)

    def _next_in_hand(self, idx: np.ndarray, after: np.ndarray, e: np.ndarray) -> np.ndarray:
        """The next seat clockwise after ``after`` still in the hand that has not decided in
        exchange ``e`` (-1: none; the order ends before it would pass the dealer again)."""
        seats, at = self._clockwise(idx, after)
        undecided = self._in_hand(at) & (
            self._get(self.ex_discarded, (idx * 2 + e) * self.n + seats) < 0
        )
        return _first(undecided, seats)

    def _apply_exchanges(self, idx: np.ndarray, ids: np.ndarray) -> None:
        n = self.n
        seat = self.current[idx]
        e = self.num_exchanges[idx] - 1
        discard = ids > self.keep_id
        which = np.minimum(np.maximum(ids - self.keep_id - 1, 0), 2)  # np.clip costs more
        card = np.where(discard, self.cards.reshape(-1)[(idx * n + seat) * 3 + which], -1)
        at = (idx * 2 + e) * n + seat
        self.ex_discarded.reshape(-1)[at] = discard
        self.ex_card.reshape(-1)[at] = card
        nxt = self._next_in_hand(idx, seat, e)
        # The order runs from the dealer's left: it ends after the last seat before the dealer's
        # left comes round again, which _next_in_hand already gives as "no undecided seat".
        self.current[idx] = nxt
        done = idx[nxt < 0]
        if len(done):
            self._resolve_exchange(done)
            self._start_betting_round(done, self.num_exchanges[done])

    def _resolve_exchange(self, idx: np.ndarray) -> None:
        """Each discarder, from the dealer's left, takes the discard of the next player still in
        on their left if that player discarded, else the top card of the deck; discards nobody
        takes go to the bottom of the deck in order (as ``LithHand._resolve_exchange``).

        Worked on seats in order from the dealer's left (row j: the j-th seat from there), with
        every seat at once: the ring of seats still in is ranked by a cumulative sum, and each
        seat's left neighbour (the next rank) and right neighbour (the previous) are gathered."""
        n, k = self.n, len(idx)
        rows = np.arange(k)
        e = self.num_exchanges[idx] - 1
        seats, by_seat = self._clockwise(idx, self.dealer[idx])  # from the dealer's left
        ex_cells = (idx * 2 + e)[None, :] * n + seats
        in_hand = self._in_hand(by_seat)
        discarded = self.ex_discarded.reshape(-1)[ex_cells] == 1  # only seats still in
        cards = self.ex_card.reshape(-1)[ex_cells].astype(np.int64)
        # Ranks in the ring of seats still in, and the row of each rank.
        size = in_hand.sum(axis=0)
        rank = _count_before(in_hand)
        row_of_rank = np.zeros((n, k), dtype=np.int64)
        row_of_rank.reshape(-1)[np.where(in_hand, rank, n - 1) * k + rows] = self._steps - 1
        ring = np.maximum(size, 1)
        after = rank + 1  # the next rank round the ring, and the previous (no modulo: slow)
        after[after >= ring] = 0
        before = np.where(rank == 0, ring - 1, rank - 1)
        left = row_of_rank.reshape(-1)[after * k + rows]  # (n, k) rows
        right = row_of_rank.reshape(-1)[before * k + rows]
        # Discarders take their left neighbour's discard, else draw in turn from the top.
        flat_rows = rows[None, :]
        from_left = discarded & (size > 1) & discarded.reshape(-1)[left * k + flat_rows]
        from_deck = discarded & ~from_left
        deck = self.deck.reshape(-1)
        deck_base = idx * self.deck.shape[1]
        head = self.deck_head[idx]
        drawn = deck[deck_base + head + _count_before(from_deck)]
        received = np.where(
            from_left, cards.reshape(-1)[left * k + flat_rows], np.where(from_deck, drawn, -1)
        )
        self.deck_head[idx] = head + from_deck.sum(axis=0)
        left_seat = seats.reshape(-1)[left * k + flat_rows]
        source = np.where(from_left, left_seat, -1)
        # A discard goes to the seat on its right if that seat took from its left, else to
        # the bottom of the deck, in order from the dealer's left.
        taken = discarded & from_left.reshape(-1)[right * k + flat_rows]
        taken_by = np.where(
            taken, seats.reshape(-1)[right * k + flat_rows], np.where(discarded, -1, -2)
        )
        bottom = discarded & ~taken
        tail = self.deck_tail[idx]
        spot = deck_base + tail + _count_before(bottom)
        under = np.flatnonzero(bottom)
        deck[spot.reshape(-1)[under]] = cards.reshape(-1)[under]
        self.deck_tail[idx] = tail + bottom.sum(axis=0)
        self.ex_received.reshape(-1)[ex_cells] = received
        self.ex_from.reshape(-1)[ex_cells] = source
        self.ex_taken_by.reshape(-1)[ex_cells] = taken_by
        self.ex_drew.reshape(-1)[ex_cells] = np.where(discarded, from_deck, -1)
        # New hands: the discarded card replaced by the one received, kept sorted.
        card_cells = by_seat[None, :, :] * 3 + self._card_rounds[:, None, None]  # (3, n, k)
        hands = self.cards.reshape(-1)[card_cells]
        hands = np.where(hands == np.where(discarded, cards, -3), received, hands)
        self.cards.reshape(-1)[card_cells.transpose(1, 0, 2).reshape(3 * n, k)] = _sort3(hands)

    # ------------------------------------------------------------------ the end of a hand

    def _fold_win(self, idx: np.ndarray) -> None:
        if len(idx) == 0:
            return
        cells = self._cells(idx)
        in_hand = self._in_hand(cells)
        pot = self._get(self.committed, cells).sum(axis=0)
        self._finish(idx, cells, np.where(in_hand, pot[None, :], 0))

    def _showdown(self, idx: np.ndarray) -> None:
        """Side pots from the smallest all-in up, each to the best eligible hand; equal hands
        split, odd chips to the first tied winner left of the dealer (``lith_env.pots``)."""
        if len(idx) == 0:
            return
        cells = self._cells(idx)
        live = self._in_hand(cells)  # (n, k)
        self._put(self.showed, cells, live)
        n, k = cells.shape
        hands = np.maximum(self._get(self.cards, idx[None, :] * (3 * n) + self._card_offsets), 0)
        hands = hands.reshape(n, 3, k)  # [seat, card, table], cards sorted
        index = C3[hands[:, 2]] + C2[hands[:, 1]] + hands[:, 0]
        tails_table, heads_table = self._strengths
        if tails_table is heads_table:  # one role for the Excuse (or none): one lookup
            strength = tails_table[index]
        else:
            heads = self.demon_heads[idx]
            strength = np.where(heads, heads_table[index], tails_table[index])
        strength = np.where(live, strength, -1)
        committed = self._get(self.committed, cells)
        self._finish(idx, cells, _award(committed, live, strength, self.dealer[idx]))

    def _finish(self, idx: np.ndarray, cells: np.ndarray, winnings: np.ndarray) -> None:
        """End the hands at tables ``idx`` (seat cells ``cells``), paying ``winnings`` (n, k)."""
        stacks = self._get(self.stacks, cells) + winnings
        self._put(self.stacks, cells, stacks)
        self._put(self.last_net, cells, stacks - self._get(self.hand_start, cells))
        self.phase[idx] = OVER
        self.current[idx] = -1
        self.hands_played[idx] += 1
        alive = (stacks > 0).sum(axis=0)
        limit = self.config.max_hands
        over = (alive <= 1) | (self.hands_played[idx] >= limit if limit else False)
        self.match_over[idx] = over
        going = np.flatnonzero(~over)
        if len(going):
            # The deal passes left, to the next player still in the match.
            go = idx[going]
            has_chips = (stacks > 0).reshape(-1)
            dealer = self.dealer[go]
            nxt = dealer.copy()
            for seat in self._after[::-1].take(dealer, axis=1):  # the nearest is written last
                nxt = np.where(has_chips[seat * len(idx) + going], seat, nxt)
            self.dealer[go] = nxt
            self._deal_hands(go)

    # ------------------------------------------------------------------ the step

    def step(self, actions: np.ndarray, tables: np.ndarray | None = None) -> None:
        """Play ``actions[t]`` (an action id) for the seat to act at each table ``t`` of
        ``tables`` (default: every table whose episode is not over; finished tables are always
        skipped and other entries of ``actions`` ignored). Illegal ids raise
        ``IllegalActionError`` naming the tables and their legal ids, before any table changes;
        so do ids that are not integers (a float or bool array: nothing is rounded)."""
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu":
            raise IllegalActionError(
                f"actions: must be integer action ids, got an array of {actions.dtype}"
            )
        actions = actions.astype(np.int64, copy=False)
        if actions.shape != (self.B,):
            raise ValueError(f"actions: need shape ({self.B},), got {actions.shape}")
        idx = self.rows if tables is None else np.asarray(tables, dtype=np.int64)
        idx = idx[~self.match_over[idx]]
        every = len(idx) == self.B  # every table (in order): no gathers needed
        ids = actions if every else actions[idx]
        if self._masks_version == self._version:
            masks = self._masks if every else np.take(self._masks, idx, axis=0)
        else:
            masks = self.action_masks(None if every else idx)
        inside = (ids >= 0) & (ids < self.num_actions)
        clipped = np.minimum(np.maximum(ids, 0), self.num_actions - 1)
        legal = inside & masks.reshape(-1)[self._action_cells[: len(idx)] + clipped].astype(bool)
        if not legal.all():
            raise IllegalActionError(
                "illegal action ids at tables "
                + "; ".join(
                    f"{t}: id {ids[i]}, legal ids {np.flatnonzero(masks[i]).tolist()}"
                    for i, t in zip(np.flatnonzero(~legal)[:5], idx[~legal][:5], strict=True)
                )
            )
        self._version += 1  # the state changes from here on: cached masks are stale
        betting = (self.phase if every else self.phase[idx]) == BET
        bets, exchanges = np.flatnonzero(betting), np.flatnonzero(~betting)
        self._apply_bets(idx[bets], ids[bets])
        self._apply_exchanges(idx[exchanges], ids[exchanges])

    # ------------------------------------------------------------------ what agents see

    def action_masks(self, idx: np.ndarray | None = None) -> np.ndarray:
        """int8 masks over action ids for the seat to act at tables ``idx`` (all by default),
        as :func:`lith_env.encoding.action_mask` gives them; zeros where nobody is to act."""
        if idx is None and self._masks_version == self._version:
            return self._masks.copy()  # nothing changed since the last call
        every = idx is None
        idx = self.rows if idx is None else np.asarray(idx, dtype=np.int64)
        # Each table's mask is one of six patterns (``self._mask_patterns``), picked by a code:
        # 0 nobody to act, 1 an exchange, 2 + (may fold) + 2 (may raise) a betting decision.
        current, phase = self._rows(self.current, idx), self._rows(self.phase, idx)
        acting = current >= 0
        code = (acting & (phase == EXCHANGE)).astype(np.intp)
        bet = acting & (phase == BET)
        if bet.any():
            options = self.bet_options(idx, np.maximum(current, 0))  # read only where bet is set
            code += bet * (2 + options["can_fold"] + 2 * options["can_raise"])
        masks = self._mask_patterns.take(code, axis=0)
        if every:
            self._masks, self._masks_version = masks.copy(), self._version
        return masks

    def returns(self) -> np.ndarray:
        """Chips each seat has won (+) or lost (-) since its match (or hand) began, counting
        finished hands only, as ``LithGame.returns`` (B, n)."""
        settled = np.where((self.phase == OVER)[:, None], self.stacks, self.hand_start)
        return settled - self.match_start

    def encode(self, seats: np.ndarray, idx: np.ndarray | None = None) -> np.ndarray:
        """The float32 observations of ``seats[i]`` at table ``idx[i]`` (all tables by default),
        equal entry for entry to :func:`lith_env.encoding.encode` of that seat's view."""
        idx = self.rows if idx is None else np.asarray(idx, dtype=np.int64)
        me = np.asarray(seats, dtype=np.int64)
        m, n, at, total = len(idx), self.n, self._at, self.total
        obs = np.zeros((m, at.size), dtype=np.float32)
        flat = obs.reshape(-1)  # one-hot entries are written at row * size + column
        row_start = np.arange(m) * at.size
        # Per-seat values in seat order from me: (m, n) cells of the (B, n) arrays.
        order = np.take(self._rotations, me, axis=0)  # (m, n): seat at each position from me
        seat_cells = (idx * n)[:, None] + order
        my_cell = idx * n + me
        # Own cards and hand features
        mine = self.cards.reshape(-1, 3)[my_cell]  # (m, 3) sorted, -1 when out
        has = mine[:, 0] >= 0
        if has.all():  # the usual case: nothing to select
            flat[(row_start[:, None] + at.own + mine).ravel()] = 1.0
        else:
            flat[(row_start[has, None] + at.own + mine[has]).ravel()] = 1.0
        index = C3[mine[:, 2].clip(0)] + C2[mine[:, 1].clip(0)] + mine[:, 0].clip(0)
        features = np.take(self._features, index, axis=0)
        features[~has] = 0.0
        obs[:, at.hand : at.hand + features.shape[1]] = features
        # Phase
        phase, rnd = self.phase[idx], self.round[idx]
        phase_index = np.where(
            phase == OVER, len(encoding.PHASES) - 1, 2 * rnd + (phase == EXCHANGE)
        )
        flat[row_start + at.phase + phase_index] = 1.0
        # Chips: pot, to call, highest, raise range (mine only)
        betting_now = phase == BET
        committed = self._get(self.committed, seat_cells)  # (m, n) from me
        stacks = self._get(self.stacks, seat_cells)
        bets = np.where(betting_now[:, None], self._get(self.bets, seat_cells), 0)
        pot = committed.T.sum(axis=0) if n > 1 else committed[:, 0]
        highest = np.where(betting_now, self.highest[idx], 0)
        to_call = np.where(betting_now, np.minimum(highest - bets[:, 0], stacks[:, 0]), 0)
        low = np.zeros(m, dtype=np.int64)
        high = np.zeros(m, dtype=np.int64)
        acting = np.flatnonzero(betting_now & (self.current[idx] == me))
        if len(acting):
            options = self.bet_options(idx[acting])
            ok = options["can_raise"]
            low[acting[ok]] = options["min_to"][ok]
            high[acting[ok]] = options["max_to"][ok]
        chips = obs[:, at.chips : at.chips + 5]
        for j, value in enumerate((pot, to_call, highest, low, high)):
            chips[:, j] = value / total
        # Seats, in order from me: nine fields each
        dealt = self._get(self.dealt_in, seat_cells)
        folded = self._get(self.folded, seat_cells)
        live = dealt & ~folded
        block = obs[:, at.seats : at.seats + 9 * n].reshape(m, n, 9)
        block[:, :, 0] = stacks / total
        block[:, :, 1] = bets / total
        block[:, :, 2] = committed / total
        block[:, :, 3] = live
        block[:, :, 4] = dealt & folded
        block[:, :, 5] = live & (stacks == 0)
        block[:, :, 6] = ~dealt
        block[:, :, 7] = order == self.dealer[idx, None]
        block[:, :, 8] = order == self.current[idx, None]
        # Exchanges: per seat (position from me) discarded/kept, drew/took; mine in detail
        started = self.num_exchanges[idx]
        for e, (start, gave, taken_by, got, got_from) in enumerate(at.exchanges):
            exists = started > e
            if not exists.any():
                continue
            resolved = exists & ((started - 1 > e) | (phase != EXCHANGE))
            ex_cells = ((idx * 2 + e) * n)[:, None] + order
            decision = self._get(self.ex_discarded, ex_cells)  # (m, n): -1, 0 kept, 1
            decided = exists[:, None] & (decision >= 0)
            seat_base = row_start[:, None] + start + 4 * self.seat_range[None, :]
            flat[(seat_base + np.where(decision == 1, 0, 1))[decided]] = 1.0
            drew = self._get(self.ex_drew, ex_cells)
            known = resolved[:, None] & (decision == 1)
            flat[(seat_base + np.where(drew == 1, 2, 3))[known]] = 1.0
            mine_at = (idx * 2 + e) * n + me
            my_card = np.where(exists, self.ex_card.reshape(-1)[mine_at], -1)
            g = np.flatnonzero(my_card >= 0)
            flat[row_start[g] + gave + my_card[g]] = 1.0
            g = g[resolved[g]]
            taker = self.ex_taken_by.reshape(-1)[mine_at[g]]
            position = np.where(taker == -1, n, (taker - me[g]) % n)
            flat[row_start[g] + taken_by + position] = 1.0
            received = np.where(resolved, self.ex_received.reshape(-1)[mine_at], -1)
            r = np.flatnonzero(received >= 0)
            flat[row_start[r] + got + received[r]] = 1.0
            source = self.ex_from.reshape(-1)[mine_at[r]]
            flat[row_start[r] + got_from + (source >= 0)] = 1.0
        # Betting history, rotated to seat order from me; raises per round
        width = self._betting_width
        cells = (idx * width)[:, None] + np.take(self._history_cells, me, axis=0)
        history = self.betting.reshape(-1)[cells]
        scaled = history.astype(np.float32) * self.history_scale.reshape(-1)
        np.minimum(scaled, 1.0, out=obs[:, at.history : at.raises])
        per_round = history.reshape(m, NUM_ROUNDS, n, _WIDTH)[:, :, :, 2]
        raises = per_round[:, :, 0].copy()  # summed seat by seat: a short-axis sum is slow
        for seat in range(1, n):
            raises += per_round[:, :, seat]
        raises = 0.25 * raises
        obs[:, at.raises : at.raises + 3] = np.minimum(raises, 1.0)
        return obs
