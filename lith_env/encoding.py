"""Lith for learners: action ids, legal-action masks and the flat observation vector.

Documented field by field in ``docs/lith_env.md``. Numpy only, no RL imports.

Action ids (``Discrete(num_actions(config))``), S = 1 size for ``limit``, 4 otherwise:

====================  =====================================================================
0                     fold (only when facing a bet)
1                     check, or call
2 .. 1+S              bet or raise: ``limit`` the fixed size; ``pot-limit``/``no-limit``
                      the menu min, half pot, pot, max (max = all-in in no-limit, the pot
                      limit in pot-limit), each clipped to the legal range
2+S                   keep (exchange)
3+S, 4+S, 5+S         discard own card 1, 2 or 3, own cards sorted by card id
====================  =====================================================================
"""

from __future__ import annotations

import functools
import itertools
from typing import NamedTuple

import numpy as np

from lith_env.cards import NUM_CARDS
from lith_env.game import (
    BETTING_STATS,
    DISCARDS,
    Action,
    LegalActions,
    LithConfig,
    LithHand,
    PlayerView,
)
from lith_env.game import (
    CALL as CALL_ACTION,
)
from lith_env.game import (
    CHECK as CHECK_ACTION,
)
from lith_env.game import (
    FOLD as FOLD_ACTION,
)
from lith_env.game import (
    KEEP as KEEP_ACTION,
)
from lith_env.hands import (
    CATEGORIES,
    QUALIFIERS,
    category_of,
    hand_index,
    percentile_table,
    qualifier_of,
    strength_table,
)
from tablegame.engine import illegal_id_error

__all__ = [
    "RAISE_MENU",
    "action_from_id",
    "action_mask",
    "action_names",
    "encode",
    "hand_features",
    "layout",
    "num_actions",
    "observation_size",
    "read",
]

FOLD, CHECK_CALL, FIRST_RAISE = 0, 1, 2
RAISE_MENU = ("min", "half pot", "pot", "max")
PHASES = ("bet 1", "exchange 1", "bet 2", "exchange 2", "bet 3", "over")


def num_raise_sizes(config: LithConfig) -> int:
    return 1 if config.betting == "limit" else len(RAISE_MENU)


def num_actions(config: LithConfig) -> int:
    """Size of the ``Discrete`` action space: fold, check/call, S raise sizes, keep, 3 discards."""
    return 2 + num_raise_sizes(config) + 4


def keep_id(config: LithConfig) -> int:
    return 2 + num_raise_sizes(config)


def action_names(config: LithConfig) -> list[str]:
    """A short name for every action id."""
    if config.betting == "limit":
        raises = ["bet/raise"]
    else:
        raises = [f"bet/raise {size}" for size in RAISE_MENU]
    return ["fold", "check/call", *raises, "keep", "discard 1", "discard 2", "discard 3"]


def _raise_target(menu_index: int, hand: LithHand, legal: LegalActions, config: LithConfig) -> int:
    assert legal.min_to is not None and legal.max_to is not None
    if config.betting == "limit":
        return legal.min_to
    seat = hand.current
    assert seat is not None
    call = min(hand.highest - hand.bets[seat], hand.stacks[seat])
    pot_after_call = hand.pot + call
    target = (
        legal.min_to,  # min
        hand.highest + pot_after_call // 2,  # half pot
        hand.highest + pot_after_call,  # pot
        legal.max_to,  # max
    )[menu_index]
    return int(min(max(target, legal.min_to), legal.max_to))


def action_from_id(hand: LithHand, action_id: int) -> Action:
    """The engine action an id stands for now. An id that stands for nothing legal raises
    :class:`IllegalActionError` listing the legal ids."""
    legal = hand.legal_actions()
    actions = legal.actions  # betting: ([fold,] check or call); exchange: (keep, discards)
    keep = keep_id(hand.config)
    action: Action | None = None
    if (type(action_id) is int or isinstance(action_id, np.integer)) and 0 <= action_id < keep + 4:
        if hand.phase == "exchange":
            if action_id >= keep and hand.current is not None:
                action = actions[action_id - keep]  # discards follow the sorted cards
        elif action_id == CHECK_CALL:
            action = actions[-1] if actions else None
        elif action_id == FOLD:
            action = FOLD_ACTION if actions and actions[0] is FOLD_ACTION else None
        elif action_id < keep and legal.raise_kind is not None:
            target = _raise_target(action_id - FIRST_RAISE, hand, legal, hand.config)
            action = Action(legal.raise_kind, amount=target)
    if action is None:
        names, mask = action_names(hand.config), action_mask(hand)
        meaning = _meaning(hand, action_id, keep)
        raise illegal_id_error(action_id, meaning, names, mask, f"; legal actions: {legal}")
    return action


def _meaning(hand: LithHand, action_id: object, keep: int) -> Action | None:
    """What an illegal id would have stood for, for the error message (None: nothing)."""
    if not isinstance(action_id, int | np.integer) or not 0 <= action_id < keep + 4:
        return None
    if action_id == FOLD:
        return FOLD_ACTION
    if action_id == CHECK_CALL:
        return CALL_ACTION if hand.phase == "bet" and hand.highest else CHECK_ACTION
    if action_id < keep:
        return None
    if action_id == keep:
        return KEEP_ACTION
    if hand.current is not None and hand.phase == "exchange":
        return DISCARDS[sorted(hand.cards[hand.current])[action_id - keep - 1]]
    return Action("discard")


def action_mask(hand: LithHand) -> np.ndarray:
    """int8 mask over action ids: 1 where the id is a legal action now."""
    return legal_mask(hand).copy()


def legal_mask(hand: LithHand) -> np.ndarray:
    """:func:`action_mask` as a shared read-only array (one per pattern of legal actions)."""
    keep = keep_id(hand.config)
    if hand.current is None:
        return _mask_of(keep + 4, keep, None, None)
    if hand.phase == "exchange":
        return _mask_of(keep + 4, keep, "exchange", None)
    legal = hand.legal_actions()
    return _mask_of(keep + 4, keep, legal.actions[0] is FOLD_ACTION, legal.raise_kind)


@functools.cache
def _mask_of(size: int, keep: int, fold: bool | str | None, raise_kind: str | None) -> np.ndarray:
    """The mask of one pattern: nobody to act (None), an exchange, or a betting decision with
    or without fold and raise; built once, read-only (callers copy)."""
    if fold is None:
        mask = [0] * size
    elif fold == "exchange":
        mask = [0] * keep + [1] * (size - keep)
    else:
        mask = [int(fold), 1] + [int(raise_kind is not None)] * (keep - 2) + [0] * 4
    out = np.array(mask, dtype=np.int8)
    out.flags.writeable = False
    return out


# ---------------------------------------------------------------------------------------------
# Observation vector

HAND_FEATURES = len(CATEGORIES) + len(QUALIFIERS) + 1
_EXCHANGE_FLAGS = ("discarded", "kept", "drew from the deck", "took the left neighbour's discard")
_HISTORY = BETTING_STATS


@functools.cache
def layout(num_players: int) -> dict[str, tuple[int, int]]:
    """Where each field of the observation vector starts and how long it is."""
    n = num_players
    fields = [
        ("own cards", NUM_CARDS),
        ("hand", HAND_FEATURES),
        ("phase", len(PHASES)),
        ("chips", 5),
        ("seats", 9 * n),
    ]
    for e in (1, 2):
        fields += [
            (f"exchange {e} seats", 4 * n),
            (f"exchange {e} gave", NUM_CARDS),
            (f"exchange {e} taken by", n + 1),
            (f"exchange {e} got", NUM_CARDS),
            (f"exchange {e} got from", 2),
        ]
    fields += [("history", 3 * n * len(_HISTORY)), ("raises", 3)]
    out, start = {}, 0
    for name, size in fields:
        out[name] = (start, size)
        start += size
    out["size"] = (start, 0)
    return out


def observation_size(config: LithConfig) -> int:
    return layout(config.num_players)["size"][0]


@functools.cache
def features_table(pawns_and_courts: bool, excuse: str | None) -> np.ndarray:
    """:func:`hand_features` of every hand, by combinatorial index (built once, vectorized)."""
    roles = ("imposter", "beggar") if excuse == "demon" else (excuse,)
    keys = strength_table(pawns_and_courts, roles[0])
    table = np.zeros((len(keys), HAND_FEATURES), dtype=np.float32)
    for role in roles:
        keys = strength_table(pawns_and_courts, role)
        rows = np.flatnonzero(keys >= 0)
        weight = 1.0 / len(roles)
        table[rows, category_of(keys[rows])] += weight
        table[rows, len(CATEGORIES) + qualifier_of(keys[rows])] += weight
        table[rows, -1] += weight * percentile_table(pawns_and_courts, role)[rows]
    table.flags.writeable = False
    return table


def hand_features(cards: tuple[int, ...], config: LithConfig) -> np.ndarray:
    """Category one-hot, qualifier one-hot and strength percentile of a 3-card hand.

    Under the demon Excuse (its role unknown until the showdown) this averages the imposter
    and beggar readings. A seat out of the match (no cards) gets zeros."""
    if len(cards) != 3:
        return np.zeros(HAND_FEATURES, dtype=np.float32)
    return features_table(config.pawns_and_courts, config.excuse)[hand_index(cards)]


class FieldOffsets(NamedTuple):
    own: int
    hand: int
    phase: int
    chips: int
    seats: int
    exchanges: tuple[tuple[int, int, int, int, int], ...]  # seats, gave, taken by, got, got from
    history: int
    raises: int
    size: int


@functools.cache
def field_offsets(num_players: int) -> FieldOffsets:
    where = layout(num_players)
    names = ("seats", "gave", "taken by", "got", "got from")
    return FieldOffsets(
        where["own cards"][0],
        where["hand"][0],
        where["phase"][0],
        where["chips"][0],
        where["seats"][0],
        tuple(tuple(where[f"exchange {e} {name}"][0] for name in names) for e in (1, 2)),
        where["history"][0],
        where["raises"][0],
        where["size"][0],
    )


class _Seen(NamedTuple):
    """What one seat's encoding precomputes: seats in order from it, and where each entry of
    the betting summary goes in its observation."""

    order: tuple[int, ...]  # seats in order from me
    relative: tuple[int, ...]  # seat -> position from me
    history: tuple[int, ...]  # betting summary entry i -> its observation cell


@functools.cache
def _seen_from(num_players: int, me: int) -> _Seen:
    n, width = num_players, len(BETTING_STATS)
    start = field_offsets(n).history
    relative = tuple((s - me) % n for s in range(n))
    history = tuple(
        start + (r * n + relative[seat]) * width + stat
        for r in range(3)
        for seat in range(n)
        for stat in range(width)
    )
    return _Seen(tuple((me + i) % n for i in range(n)), relative, history)


@functools.cache
def feature_entries(pawns_and_courts: bool, excuse: str | None) -> tuple[list, list, list]:
    """The nonzero entries of :func:`hand_features` of every hand, flat: those of the hand with
    combinatorial index i are ``offsets[j]``, ``values[j]`` for j in ``starts[i]:starts[i+1]``."""
    table = features_table(pawns_and_courts, excuse)
    rows, offsets = np.nonzero(table)  # row-major: grouped by hand
    starts = np.searchsorted(rows, np.arange(len(table) + 1))
    return offsets.tolist(), table[rows, offsets].tolist(), starts.tolist()


@functools.cache
def history_scale(total: float, num_players: int) -> np.ndarray:
    """Checks and folds as flags, calls and bets/raises in quarters (a round allows at most
    four), chips as a share of all chips at the table; tiled over rounds and seats."""
    per_seat = np.array([1.0, 0.25, 0.25, 1.0, 1.0 / total], dtype=np.float32)
    return np.tile(per_seat, 3 * num_players)


@functools.cache
def stat_scales(total: float) -> tuple[float, ...]:
    """The float32 scale of each betting statistic (:func:`history_scale`), as Python floats.

    For counts below 2**24 the float64 product ``count * scale`` is exact, so rounding it to
    float32 when it is stored gives the float32 product bit for bit."""
    return tuple(float(x) for x in history_scale(total, 1)[: len(BETTING_STATS)])


def encode(view: PlayerView, config: LithConfig) -> np.ndarray:
    """The flat float32 observation of one seat, every entry in [0, 1] (``docs/lith_env.md``).

    Only the nonzero entries are written, one by one: a scalar write into a numpy array is
    cheap, while turning a Python sequence into an array costs more than all of them."""
    n = view.num_players
    me = view.seat
    at = field_offsets(n)
    seen = _seen_from(n, me)
    relative = seen.relative
    total = float(config.total_chips)
    obs = np.zeros(at.size, dtype=np.float32)

    cards = view.cards
    if cards:
        own = at.own
        obs[own + cards[0]] = obs[own + cards[1]] = obs[own + cards[2]] = 1.0
        hand = at.hand
        offsets, values, starts = feature_entries(config.pawns_and_courts, config.excuse)
        index = hand_index(cards)
        for j in range(starts[index], starts[index + 1]):
            obs[hand + offsets[j]] = values[j]

    phase = view.phase
    chips = at.chips
    obs[chips] = view.pot / total
    if phase == "bet":
        obs[at.phase + 2 * view.round] = 1.0
        obs[chips + 1] = view.to_call / total
        obs[chips + 2] = view.highest / total
        if view.raise_range and view.current_player == me:
            low, high = view.raise_range
            obs[chips + 3] = low / total
            obs[chips + 4] = high / total
    else:
        obs[at.phase + (len(PHASES) - 1 if phase == "over" else 2 * view.round + 1)] = 1.0

    # Seats in order from me: stack, bet, chips in; live, folded, all-in, out, dealer, to act.
    stacks, bets, committed = view.stacks, view.bets, view.committed
    dealt_in, folded = view.dealt_in, view.folded
    dealer, current = view.dealer, view.current_player
    cell = at.seats
    for s in seen.order:
        if stacks[s]:
            obs[cell] = stacks[s] / total
        if bets[s]:
            obs[cell + 1] = bets[s] / total
        if committed[s]:
            obs[cell + 2] = committed[s] / total
        if not dealt_in[s]:
            obs[cell + 6] = 1.0
        elif folded[s]:
            obs[cell + 4] = 1.0
        else:
            obs[cell + 3] = 1.0
            if not stacks[s]:
                obs[cell + 5] = 1.0
        if s == dealer:
            obs[cell + 7] = 1.0
        if s == current:
            obs[cell + 8] = 1.0
        cell += 9

    for ex, (block, gave, taken_by, got, got_from) in zip(
        view.exchanges, at.exchanges, strict=False
    ):
        for s, (discarded, drew) in enumerate(zip(ex.discarded, ex.drew, strict=True)):
            if discarded is not None:
                obs[block + 4 * relative[s] + (0 if discarded else 1)] = 1.0
            if drew is not None:
                obs[block + 4 * relative[s] + (2 if drew else 3)] = 1.0
        if ex.my_discard is not None:
            obs[gave + ex.my_discard] = 1.0
            if ex.resolved:
                obs[taken_by + (n if ex.taken_by is None else relative[ex.taken_by])] = 1.0
        if ex.received is not None:
            obs[got + ex.received] = 1.0
            obs[got_from + (ex.received_from is not None)] = 1.0

    # The betting summary in seat order from me, scaled and capped at 1; per round, the bets
    # and raises in quarters (a round allows four).
    betting = view.betting
    if total >= 2**24:  # chip counts past float32's exact integers: let numpy round them
        counts = np.array(betting, dtype=np.float32)
        scaled = np.minimum(counts * history_scale(total, n), 1.0)
        obs[list(seen.history)] = scaled
        raises = counts.reshape(3, -1)[:, 2 :: len(BETTING_STATS)].sum(axis=1)
        np.minimum(raises * 0.25, 1.0, out=obs[at.raises : at.raises + 3])
        return obs
    scales = stat_scales(total)
    width = len(BETTING_STATS)
    per_round = n * width
    cells = seen.history
    raises = [0, 0, 0]
    # Only the nonzero counts (skipped over in C by compress), and only up to the view's round:
    # later rounds have no betting yet.
    for i in itertools.compress(range((view.round + 1) * per_round), betting):
        count, stat = betting[i], i % width
        value = count * scales[stat]
        obs[cells[i]] = value if value < 1.0 else 1.0
        if stat == 2:
            raises[i // per_round] += count
    for r, count in enumerate(raises):
        if count:
            obs[at.raises + r] = min(0.25 * count, 1.0)
    return obs


class LithObservation(NamedTuple):
    """The fields of an encoded observation that built-in agents read (see :func:`read`)."""

    num_players: int
    cards: tuple[int, ...]  # my cards, sorted by id
    percentile: float  # my hand's strength percentile
    phase: str  # "bet", "exchange" or "over"
    round: int  # betting round 0-2, or exchange 0-1
    to_call: float  # share of all chips
    pot: float  # share of all chips
    live_opponents: int  # other seats still in the hand
    my_discards: tuple[int, ...]  # the cards I gave away in earlier exchanges


@functools.cache
def players_for_size(size: int) -> int:
    for n in range(2, 11):
        if layout(n)["size"][0] == size:
            return n
    raise ValueError(f"not a Lith observation: length {size}")


def read(obs: np.ndarray) -> LithObservation:
    """Decode the parts of a seat's observation vector that agents use (the number of players
    follows from its length)."""
    n = players_for_size(len(obs))
    at = field_offsets(n)
    cards = tuple(int(c) for c in np.flatnonzero(obs[at.own : at.own + NUM_CARDS]))
    phase_index = int(np.argmax(obs[at.phase : at.phase + len(PHASES)]))
    phase = "over" if phase_index == len(PHASES) - 1 else ("exchange" if phase_index % 2 else "bet")
    seats = obs[at.seats : at.seats + 9 * n].reshape(n, 9)
    discards = []
    for _, gave, _, _, _ in at.exchanges:
        discards += [int(c) for c in np.flatnonzero(obs[gave : gave + NUM_CARDS])]
    return LithObservation(
        num_players=n,
        cards=cards,
        percentile=float(obs[at.hand + HAND_FEATURES - 1]),
        phase=phase,
        round=phase_index // 2,
        to_call=float(obs[at.chips + 1]),
        pot=float(obs[at.chips]),
        live_opponents=int(seats[1:, 3].sum()),
        my_discards=tuple(discards),
    )
