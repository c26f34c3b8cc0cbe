"""The rules of Gendeneía as compiled kernels over many tables (numba), for :mod:`.batched`.

Each kernel loops over the tables it is given and, for one table, does what
:class:`~gendeneia_env.game.GendeneiaGame` does, step for step: the same draws (Python's
Mersenne Twister, :mod:`.mersenne`), the same order of cards on the discard piles (so the same
reshuffles), the same trumping, removals, round merges and ends. The state of table ``t`` is
spread over a few arrays, one row per table:

- ``mt[t]``, ``mt_position[t]``: its generator (``random.Random(seed)``'s state);
- ``piles[t, k, :sizes[t, k]]``: the Choice and Force draw piles (k = 0, 1; top last) and
  discard piles (k = 2, 3; oldest first);
- ``owner[t, c]``: where Choice card ``c`` lies on a lot: a seat, ``num_players`` for the
  round's temporary lots, -1 for none; ``force[t, c]`` the Force paired with it and
  ``stamp[t, c]`` when it was laid (a lot's pairs in play order are its pairs by stamp:
  trumping discards them in that order, and the round merge follows it);
- ``hands[t, seat]``: (Choice, Force), -1 for none;
- ``meta[t]``: the turn, the phase, the removal owed and the counts (columns below).

``cfg`` holds the rules (columns below) and ``twist_kind[twist]`` which removal a Twist owes
(0 none, 1 any pair, 2 a pair of its Choice suit).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from gendeneia_env.mersenne import randbelow, seed_state, shuffle

# meta columns
OPENER, ROUND, TURNS, RESHUFFLES, CURRENT, PHASE = 0, 1, 2, 3, 4, 5
TWIST, SUIT, MUST, REASON, FIRST, NEXT_STAMP = 6, 7, 8, 9, 10, 11
META = 12
# phases, as encoding.PHASES orders them
DISCARD, PLAY, REMOVE, OVER = 0, 1, 2, 3
# end reasons
ROUNDS, RESHUFFLED, RAN_OUT, NOT_REFILLED = 1, 2, 3, 4
# cfg columns
PLAYERS, MAX_ROUNDS, MAX_RESHUFFLES, DISCARD_ENDS, PRESUM, ROUND_LOTS = 0, 1, 2, 3, 4, 5
ANY_MUST, SUIT_MUST = 6, 7
CFG = 8
# observation offsets (encoding.layout's fields, in this order)
FIELDS = (
    "hand choice",
    "hand force",
    "phase",
    "lots",
    "lot values",
    "scores",
    "score gaps",
    "play effects",
    "removal effects",
    "round lots",
    "round lot values",
    "to act",
    "opener",
    "draw piles",
    "discards",
    "reshuffles",
    "round",
    "owed twist",
    "owed suit",
    "owed must",
)
(
    O_CHOICE,
    O_FORCE,
    O_PHASE,
    O_LOTS,
    O_VALUES,
    O_SCORES,
    O_GAPS,
    O_PLAYS,
    O_REMOVALS,
    O_ROUND_LOTS,
    O_ROUND_VALUES,
    O_TO_ACT,
    O_OPENER,
    O_DRAWS,
    O_DISCARDS,
    O_RESHUFFLES,
    O_ROUND,
    O_TWIST,
    O_SUIT,
    O_MUST,
) = range(len(FIELDS))
MAX_LOT, MAX_SCORE, EFFECT_SCALE, SLOT = 78.0, 312.0, 24.0, 5
PARALLEL_ROWS = 512  # batches this big are shared by numba's threads; smaller ones are not


class Tables(NamedTuple):
    """The state of every table (the module docstring's arrays), one argument to the kernels."""

    mt: np.ndarray
    mt_position: np.ndarray
    piles: np.ndarray
    sizes: np.ndarray
    owner: np.ndarray
    force: np.ndarray
    stamp: np.ndarray
    hands: np.ndarray
    meta: np.ndarray


@njit(cache=True)
def value(card: int) -> int:  # pragma: no cover - compiled
    """The face value: the number, a zero counting as 12."""
    number = card % 12
    return 12 if number == 0 else number


# ---------------------------------------------------------------------- piles


@njit(cache=True)
def _draw(t, kind, state, cfg) -> int:  # pragma: no cover - compiled
    """Top card of draw pile ``kind`` (0 Choice, 1 Force), reshuffling its discard pile into
    it when empty; -1 when it cannot be refilled or no reshuffle is allowed."""
    piles, sizes = state.piles, state.sizes
    if sizes[t, kind] == 0:
        if sizes[t, kind + 2] == 0 or cfg[MAX_RESHUFFLES] == 0:
            return -1
        count = sizes[t, kind + 2]
        for i in range(count):
            piles[t, kind, i] = piles[t, kind + 2, i]
        sizes[t, kind], sizes[t, kind + 2] = count, 0
        shuffle(state.mt[t], state.mt_position, t, piles[t, kind], count)
        state.meta[t, RESHUFFLES] += 1
    sizes[t, kind] -= 1
    return piles[t, kind, sizes[t, kind]]


@njit(cache=True)
def _discard(t, card, state) -> None:  # pragma: no cover - compiled
    piles, sizes = state.piles, state.sizes
    if card >= 0:
        kind = 2 if card < 36 else 3
        piles[t, kind, sizes[t, kind]] = card
        sizes[t, kind] += 1


@njit(cache=True)
def _end(t, reason, state, cfg) -> None:  # pragma: no cover - compiled
    """Over: a round cut short merges its temporary lots first."""
    _merge_round_lots(t, state, cfg)
    meta = state.meta
    meta[t, PHASE] = OVER
    meta[t, CURRENT] = -1
    meta[t, TWIST] = -1
    meta[t, REASON] = reason


@njit(cache=True)
def _draw_hand(t, seat, state, cfg) -> bool:  # pragma: no cover - compiled
    for slot in range(2):
        card = _draw(t, slot, state, cfg)
        if card < 0:
            reason = RAN_OUT if cfg[MAX_RESHUFFLES] == 0 else NOT_REFILLED
            _end(t, reason, state, cfg)
            return False
        state.hands[t, seat, slot] = card
    return True


# ---------------------------------------------------------------------- lots


@njit(cache=True)
def _trump(t, holder, index, played, state) -> None:  # pragma: no cover - compiled
    """A Quill removes from the lot every pair whose Force is a lower Wind, a Wind every lower
    Quill; the removed pairs are discarded in the lot's order."""
    owner, force, stamp = state.owner, state.force, state.stamp
    if played >= 60:  # a Twist removes nothing
        return
    opposite = 4 if played < 48 else 3  # suit index of the Forces it trumps
    strength = value(played)
    removed = np.empty(12, dtype=np.int64)
    count = 0
    for c in range(index * 12, index * 12 + 12):
        if (
            owner[t, c] == holder
            and force[t, c] // 12 == opposite
            and value(force[t, c]) < strength
        ):
            at = count  # insertion sort by stamp: the lot's order
            while at > 0 and stamp[t, removed[at - 1]] > stamp[t, c]:
                removed[at] = removed[at - 1]
                at -= 1
            removed[at] = c
            count += 1
    for i in range(count):
        c = removed[i]
        owner[t, c] = -1
        _discard(t, c, state)
        _discard(t, force[t, c], state)


@njit(cache=True)
def _lay(t, holder, choice, played, state) -> None:  # pragma: no cover - compiled
    state.owner[t, choice] = holder
    state.force[t, choice] = played
    state.stamp[t, choice] = state.meta[t, NEXT_STAMP]
    state.meta[t, NEXT_STAMP] += 1
    _trump(t, holder, choice // 12, played, state)


@njit(cache=True)
def _merge_round_lots(t, state, cfg) -> None:  # pragma: no cover - compiled
    """Under round lots, the pairs left on the temporary lots go onto the leader's lots in
    the order they were played, trumping as usual."""
    if not cfg[ROUND_LOTS]:
        return
    owner, force, stamp = state.owner, state.force, state.stamp
    temporary = cfg[PLAYERS]
    order = np.empty(36, dtype=np.int64)
    count = 0
    for c in range(36):
        if owner[t, c] == temporary:
            at = count
            while at > 0 and stamp[t, order[at - 1]] > stamp[t, c]:
                order[at] = order[at - 1]
                at -= 1
            order[at] = c
            count += 1
    for i in range(count):
        c = order[i]
        _lay(t, state.meta[t, OPENER], c, force[t, c], state)


@njit(cache=True)
def _lot_sum(
    t, holder, index, owner, force, presum, skip, choice, played
) -> int:  # pragma: no cover
    """Value of ``holder``'s lot ``index`` (0 Collars, 1 Hope, 2 Blood) under ``presum``
    (0 none, 1 ignore, 2 subtract), leaving out the pair of Choice ``skip`` and, when
    ``choice`` >= 0, with the pair (``choice``, ``played``) laid on it, trumping included."""
    opposite = -1 if choice < 0 or played >= 60 else (4 if played < 48 else 3)
    strength = value(played) if choice >= 0 else 0
    quills = winds = twists = 0
    for c in range(index * 12, index * 12 + 12):
        if owner[t, c] != holder or c == skip:
            continue
        kind = force[t, c] // 12
        if kind == opposite and value(force[t, c]) < strength:
            continue  # trumped by the pair laid
        if kind == 3:
            quills += value(c)
        elif kind == 4:
            winds += value(c)
        else:
            twists += value(c)
    if choice >= 0:
        kind = played // 12
        if kind == 3:
            quills += value(choice)
        elif kind == 4:
            winds += value(choice)
        else:
            twists += value(choice)
    if presum == 1:
        return max(quills, winds) + twists
    if presum == 2:
        return quills - winds + twists
    return quills + winds + twists


@njit(cache=True)
def lot_value(t, holder, index, owner, force, presum) -> int:  # pragma: no cover - compiled
    """Value of ``holder``'s lot ``index`` now."""
    return _lot_sum(t, holder, index, owner, force, presum, -1, -1, 0)


@njit(cache=True)
def score(collars: int, hope: int, blood: int) -> int:  # pragma: no cover - compiled
    return abs(collars - blood) + abs(hope - blood)


@njit(cache=True)
def lot_values(t, owner, force, presum, out) -> None:  # pragma: no cover - compiled
    """``out[holder, lot]``: every lot's value, the temporary lots' (holder ``n``) included."""
    for holder in range(out.shape[0]):
        for k in range(3):
            out[holder, k] = lot_value(t, holder, k, owner, force, presum)


@njit(cache=True)
def _changed_score(values, seat, index, new) -> int:  # pragma: no cover - compiled
    """``seat``'s score with its lot ``index`` worth ``new``, minus its score now."""
    before = score(values[seat, 0], values[seat, 1], values[seat, 2])
    old = values[seat, index]
    values[seat, index] = new
    after = score(values[seat, 0], values[seat, 1], values[seat, 2])
    values[seat, index] = old
    return after - before


@njit(cache=True)
def play_delta(t, seat, choice, played, owner, force, presum, values) -> int:  # pragma: no cover
    """How much ``seat``'s score changes if the pair lands on its lots, trumping included
    (:func:`gendeneia_env.lookahead.play_delta`); ``values`` from :func:`lot_values`."""
    index = choice // 12
    new = _lot_sum(t, seat, index, owner, force, presum, -1, choice, played)
    return _changed_score(values, seat, index, new)


@njit(cache=True)
def removal_delta(t, seat, card, owner, force, presum, values) -> int:  # pragma: no cover
    """How much ``seat``'s score changes if the pair of Choice ``card`` leaves its lots."""
    if owner[t, card] != seat:
        return 0
    new = _lot_sum(t, seat, card // 12, owner, force, presum, card, -1, 0)
    return _changed_score(values, seat, card // 12, new)


# ---------------------------------------------------------------------- set-up


@njit(cache=True)
def reset(tables, keys, first_players, state, cfg) -> None:  # pragma: no cover - compiled
    """``GendeneiaGame.reset(seed, first_player)`` at each of ``tables``: ``keys[i]`` is
    the seed's key (:func:`.mersenne.seed_keys`), ``first_players[i]`` a seat or -1 (drawn)."""
    n = cfg[PLAYERS]
    mt, mt_position, piles, sizes, owner, _, _, hands, meta = state
    for i in range(len(tables)):
        t = tables[i]
        mt_position[t] = seed_state(mt[t], keys[i, 0], keys[i, 1], keys[i, 2])
        drawn = randbelow(mt[t], mt_position, t, n)
        first = drawn if first_players[i] < 0 else first_players[i]
        for c in range(36):
            piles[t, 0, c] = c
            piles[t, 1, c] = 36 + c
        shuffle(mt[t], mt_position, t, piles[t, 0], 36)
        shuffle(mt[t], mt_position, t, piles[t, 1], 36)
        sizes[t, 0] = sizes[t, 1] = 36
        sizes[t, 2] = sizes[t, 3] = 0
        for c in range(36):
            owner[t, c] = -1
        hands[t] = -1
        meta[t] = 0
        meta[t, OPENER] = meta[t, FIRST] = meta[t, CURRENT] = first
        meta[t, PHASE] = DISCARD
        meta[t, TWIST] = -1
        for k in range(n):
            _draw_hand(t, (first + k) % n, state, cfg)


# ---------------------------------------------------------------------- the turn


@njit(cache=True)
def _removable(t, c, state) -> bool:  # pragma: no cover - compiled
    """Whether the owed removal may take the pair of Choice ``c``: on a lot, not a Twist
    pair, and of the Twist's Choice suit when it names one."""
    if state.owner[t, c] < 0 or state.force[t, c] >= 60:
        return False
    return state.meta[t, SUIT] < 0 or c // 12 == state.meta[t, SUIT]


@njit(cache=True)
def masks(tables, out, state, cfg) -> None:  # pragma: no cover - compiled
    """Legal action ids (``encoding``'s) of the seat to act at each of ``tables``."""
    n, meta = cfg[PLAYERS], state.meta
    out[:] = 0
    for i in range(len(tables)):
        t = tables[i]
        phase = meta[t, PHASE]
        if phase == DISCARD:
            out[i, 0] = out[i, 1] = 1
        elif phase == PLAY:
            for k in range(n):
                out[i, 2 + k] = 1
        elif phase == REMOVE:
            some = False
            for c in range(36):
                if _removable(t, c, state):
                    out[i, 2 + n + c] = 1
                    some = True
            if meta[t, MUST] == 0 or not some:
                out[i, 38 + n] = 1


@njit(cache=True)
def _end_turn(t, state, cfg) -> None:  # pragma: no cover - compiled
    n, meta = cfg[PLAYERS], state.meta
    meta[t, TURNS] += 1
    if meta[t, TURNS] == n:  # the round ends
        _merge_round_lots(t, state, cfg)
        meta[t, ROUND] += 1
        meta[t, TURNS] = 0
        if cfg[ROUND_LOTS]:
            meta[t, OPENER] = (meta[t, OPENER] + 1) % n
        if cfg[MAX_ROUNDS] > 0 and meta[t, ROUND] >= cfg[MAX_ROUNDS]:
            _end(t, ROUNDS, state, cfg)
            return
    limit = cfg[MAX_RESHUFFLES]
    if limit > 0 and meta[t, RESHUFFLES] >= limit:
        _end(t, RESHUFFLED, state, cfg)
        return
    meta[t, CURRENT] = (meta[t, OPENER] + meta[t, TURNS]) % n
    meta[t, PHASE] = DISCARD


@njit(cache=True)
def _finish_play(t, seat, state, cfg) -> None:  # pragma: no cover - compiled
    state.meta[t, TWIST] = -1
    if _draw_hand(t, seat, state, cfg):
        _end_turn(t, state, cfg)


@njit(cache=True)
def _play(t, seat, holder, state, cfg, twists) -> None:  # pragma: no cover - compiled
    """The hand's pair onto ``holder``'s lot of its Choice suit (``num_players``: the
    temporary lots), trumping; then a removal owed, or the turn's end."""
    hands, meta = state.hands, state.meta
    choice, played = hands[t, seat, 0], hands[t, seat, 1]
    hands[t, seat, 0] = hands[t, seat, 1] = -1
    _lay(t, holder, choice, played, state)
    kind = twists[played % 12] if played >= 60 else 0
    if kind == 0:
        _finish_play(t, seat, state, cfg)
        return
    meta[t, TWIST] = played % 12
    meta[t, SUIT] = -1 if kind == 1 else choice // 12
    meta[t, MUST] = cfg[ANY_MUST] if kind == 1 else cfg[SUIT_MUST]
    meta[t, PHASE] = REMOVE


@njit(cache=True)
def _after_hand_choice(t, seat, state, cfg, twists) -> None:  # pragma: no cover - compiled
    if cfg[ROUND_LOTS]:
        _play(t, seat, cfg[PLAYERS], state, cfg, twists)
    else:
        state.meta[t, PHASE] = PLAY


@njit(cache=True)
def step(tables, actions, state, cfg, twists) -> None:  # pragma: no cover - compiled
    """Play ``actions[i]`` (a legal id, checked by the caller) at ``tables[i]``."""
    n, hands = cfg[PLAYERS], state.hands
    for i in range(len(tables)):
        t, a = tables[i], actions[i]
        seat = state.meta[t, CURRENT]
        if a == 0:
            _after_hand_choice(t, seat, state, cfg, twists)
        elif a == 1:
            _discard(t, hands[t, seat, 0], state)
            _discard(t, hands[t, seat, 1], state)
            hands[t, seat, 0] = hands[t, seat, 1] = -1
            if not _draw_hand(t, seat, state, cfg):
                continue
            if cfg[DISCARD_ENDS]:
                _end_turn(t, state, cfg)
            else:
                _after_hand_choice(t, seat, state, cfg, twists)
        elif a < 2 + n:
            _play(t, seat, (seat + a - 2) % n, state, cfg, twists)
        else:
            if a < 38 + n:  # remove the pair of Choice a - 2 - n (else remove nothing)
                c = a - 2 - n
                state.owner[t, c] = -1
                _discard(t, c, state)
                _discard(t, state.force[t, c], state)
            _finish_play(t, seat, state, cfg)


# ---------------------------------------------------------------------- what a seat sees


@njit(cache=True)
def _effect(change: float) -> float:  # pragma: no cover - compiled
    return max(-1.0, min(1.0, change / EFFECT_SCALE))


@njit(cache=True)
def _write_lot(out, i, start, t, holder, index, owner, force) -> None:  # pragma: no cover
    for c in range(index * 12, index * 12 + 12):
        if owner[t, c] == holder:
            at = start + (c % 12) * SLOT
            played = force[t, c]
            out[i, at] = 1.0
            out[i, at + 1 + played // 12 - 3] = 1.0
            out[i, at + 4] = value(played) / 12


@njit(parallel=True, cache=True)
def encode(tables, seats, out, offsets, state, cfg) -> None:  # pragma: no cover - compiled
    """``encoding.encode(game.observe(seats[i]), config)`` of ``tables[i]`` into ``out[i]``
        (zeroed here), the rows in chunks shared by numba's threads. Worth it for many rows only:
    callers pass few rows to :func:`encode_rows` (threads woken for a few rows cost more than
    they save, and far more when the cores are busy)."""
    rows = len(tables)
    chunks = min(rows, 16)
    for chunk in prange(chunks):
        start, stop = chunk * rows // chunks, (chunk + 1) * rows // chunks
        encode_rows(tables, seats, out, offsets, state, cfg, start, stop)


@njit(cache=True)
def encode_rows(
    tables, seats, out, offsets, state, cfg, start, stop
) -> None:  # pragma: no cover - compiled
    n, presum = cfg[PLAYERS], cfg[PRESUM]
    piles, sizes, owner, force, hands, meta = (
        state.piles,
        state.sizes,
        state.owner,
        state.force,
        state.hands,
        state.meta,
    )
    values = np.empty((n + 1, 3), dtype=np.int64)
    scores = np.empty(n, dtype=np.int64)
    for i in range(start, stop):
        out[i, :] = 0.0
        t, me = tables[i], seats[i]
        choice, played = hands[t, me, 0], hands[t, me, 1]
        if choice >= 0:
            out[i, offsets[O_CHOICE] + choice] = 1.0
        if played >= 0:
            out[i, offsets[O_FORCE] + played - 36] = 1.0
        phase = meta[t, PHASE]
        out[i, offsets[O_PHASE] + phase] = 1.0
        lot_values(t, owner, force, presum, values)
        for s in range(n):
            scores[s] = score(values[s, 0], values[s, 1], values[s, 2])
        for k in range(n):
            s = (me + k) % n
            for lot in range(3):
                _write_lot(
                    out, i, offsets[O_LOTS] + (3 * k + lot) * 12 * SLOT, t, s, lot, owner, force
                )
                out[i, offsets[O_VALUES] + 3 * k + lot] = values[s, lot] / MAX_LOT
            out[i, offsets[O_SCORES] + k] = min(1.0, scores[s] / MAX_SCORE)
            out[i, offsets[O_GAPS] + k] = _effect(scores[s] - scores[me])
            if choice >= 0 and played >= 0 and not cfg[ROUND_LOTS]:
                out[i, offsets[O_PLAYS] + k] = _effect(
                    play_delta(t, s, choice, played, owner, force, presum, values)
                )
        if phase == REMOVE:
            for c in range(36):
                if 0 <= owner[t, c] < n and force[t, c] < 60:
                    out[i, offsets[O_REMOVALS] + c] = _effect(
                        removal_delta(t, owner[t, c], c, owner, force, presum, values)
                    )
        if cfg[ROUND_LOTS]:
            for lot in range(3):
                _write_lot(out, i, offsets[O_ROUND_LOTS] + lot * 12 * SLOT, t, n, lot, owner, force)
                out[i, offsets[O_ROUND_VALUES] + lot] = values[n, lot] / MAX_LOT
        if meta[t, CURRENT] >= 0:
            out[i, offsets[O_TO_ACT] + (meta[t, CURRENT] - me) % n] = 1.0
        out[i, offsets[O_OPENER] + (meta[t, OPENER] - me) % n] = 1.0
        out[i, offsets[O_DRAWS]] = sizes[t, 0] / 36
        out[i, offsets[O_DRAWS] + 1] = sizes[t, 1] / 36
        for kind in range(2, 4):
            for j in range(sizes[t, kind]):
                out[i, offsets[O_DISCARDS] + piles[t, kind, j]] = 1.0
        limit = cfg[MAX_RESHUFFLES] if cfg[MAX_RESHUFFLES] > 0 else 10
        out[i, offsets[O_RESHUFFLES]] = min(1.0, meta[t, RESHUFFLES] / limit)
        rounds = cfg[MAX_ROUNDS] if cfg[MAX_ROUNDS] > 0 else 50
        out[i, offsets[O_ROUND]] = min(1.0, meta[t, ROUND] / rounds)
        if meta[t, TWIST] >= 0:
            out[i, offsets[O_TWIST] + meta[t, TWIST]] = 1.0
            if meta[t, SUIT] >= 0:
                out[i, offsets[O_SUIT] + meta[t, SUIT]] = 1.0
            out[i, offsets[O_MUST]] = 1.0 if meta[t, MUST] else 0.0


@njit(cache=True)
def all_scores(out, owner, force, cfg) -> None:  # pragma: no cover - compiled
    """Every seat's score at every table: ``out`` (tables, seats)."""
    values = np.empty((out.shape[1], 3), dtype=np.int64)
    for t in range(out.shape[0]):
        lot_values(t, owner, force, cfg[PRESUM], values)
        for s in range(out.shape[1]):
            out[t, s] = score(values[s, 0], values[s, 1], values[s, 2])
