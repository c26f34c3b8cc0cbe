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

import numpy as np

from lith_env.cards import NUM_CARDS
from lith_env.game import Action, IllegalActionError, LegalActions, LithConfig, LithHand, PlayerView
from lith_env.hands import CATEGORIES, QUALIFIERS, category_of, percentile, qualifier_of, strength

__all__ = [
    "RAISE_MENU",
    "action_from_id",
    "action_mask",
    "action_names",
    "encode",
    "hand_features",
    "num_actions",
    "observation_size",
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
    target = {
        "min": legal.min_to,
        "half pot": hand.highest + pot_after_call // 2,
        "pot": hand.highest + pot_after_call,
        "max": legal.max_to,
    }[RAISE_MENU[menu_index]]
    return int(min(max(target, legal.min_to), legal.max_to))


def action_from_id(hand: LithHand, action_id: int) -> Action:
    """The engine action an id stands for now. An id that stands for nothing legal raises
    :class:`IllegalActionError` listing the legal ids."""
    config = hand.config
    legal = hand.legal_actions()
    keep = keep_id(config)
    action: Action | None = None
    if not isinstance(action_id, int | np.integer) or not 0 <= action_id < num_actions(config):
        action = None
    elif action_id == FOLD:
        action = Action("fold")
    elif action_id == CHECK_CALL:
        action = Action("check") if Action("check") in legal.actions else Action("call")
    elif action_id < keep:
        if legal.raise_kind is not None:
            target = _raise_target(action_id - FIRST_RAISE, hand, legal, config)
            action = Action(legal.raise_kind, amount=target)
    elif action_id == keep:
        action = Action("keep")
    elif hand.current is not None:
        cards = sorted(hand.cards[hand.current])
        action = Action("discard", card=cards[action_id - keep - 1])
    if action is None or not legal.contains(action):
        names = action_names(config)
        mask = action_mask(hand)
        legal_ids = ", ".join(f"{i} ({names[i]})" for i in np.flatnonzero(mask))
        raise IllegalActionError(
            f"illegal action id {action_id!r}"
            + (f" ({action})" if action is not None else "")
            + f"; legal ids: {legal_ids or 'none'}; legal actions: {legal}"
        )
    return action


def action_mask(hand: LithHand) -> np.ndarray:
    """int8 mask over action ids: 1 where the id is a legal action now."""
    config = hand.config
    mask = np.zeros(num_actions(config), dtype=np.int8)
    if hand.current is None:
        return mask
    legal = hand.legal_actions()
    keep = keep_id(config)
    if hand.phase == "exchange":
        mask[keep:] = 1
        return mask
    mask[FOLD] = Action("fold") in legal.actions
    mask[CHECK_CALL] = 1
    if legal.raise_kind is not None:
        mask[FIRST_RAISE:keep] = 1
    return mask


# ---------------------------------------------------------------------------------------------
# Observation vector


def observation_size(config: LithConfig) -> int:
    n = config.num_players
    own = NUM_CARDS + len(CATEGORIES) + len(QUALIFIERS) + 1
    exchange = 4 * n + NUM_CARDS + (n + 1) + NUM_CARDS + 2
    return own + len(PHASES) + 5 + 9 * n + 2 * exchange + 15 * n + 3


def hand_features(cards: tuple[int, ...], config: LithConfig) -> np.ndarray:
    """Category one-hot, qualifier one-hot and strength percentile of a 3-card hand.

    Under the demon Excuse (its role unknown until the showdown) this averages the imposter
    and beggar readings."""
    roles = {"demon": ("imposter", "beggar")}.get(config.excuse or "", (config.excuse,))
    out = np.zeros(len(CATEGORIES) + len(QUALIFIERS) + 1, dtype=np.float32)
    if len(cards) != 3:  # a seat out of the match holds no cards
        return out
    for role in roles:
        key = strength([cards], pawns_and_courts=config.pawns_and_courts, excuse=role)
        out[int(category_of(key)[0])] += 1 / len(roles)
        out[len(CATEGORIES) + int(qualifier_of(key)[0])] += 1 / len(roles)
        pct = percentile([cards], pawns_and_courts=config.pawns_and_courts, excuse=role)
        out[-1] += float(pct[0]) / len(roles)
    return out


def encode(view: PlayerView, config: LithConfig) -> np.ndarray:
    """The flat float32 observation of one seat, every entry in [0, 1] (layout: module docs)."""
    n = view.num_players
    me = view.seat
    total = float(sum(config.stacks))
    rel = [(me + i) % n for i in range(n)]  # seats in order from me
    parts: list[np.ndarray] = []

    own = np.zeros(NUM_CARDS, dtype=np.float32)
    own[list(view.cards)] = 1
    parts += [own, hand_features(view.cards, config)]

    phase = np.zeros(len(PHASES), dtype=np.float32)
    if view.phase == "over":
        phase[-1] = 1
    else:
        phase[2 * view.round + (view.phase == "exchange")] = 1
    parts.append(phase)

    low, high = view.raise_range if view.raise_range and view.current_player == me else (0, 0)
    to_call = view.to_call if view.phase == "bet" else 0
    chips = np.array([view.pot, to_call, view.highest, low, high], dtype=np.float32)
    parts.append(chips / total)

    seats = np.zeros((n, 9), dtype=np.float32)
    for i, s in enumerate(rel):
        seats[i] = [
            view.stacks[s] / total,
            view.bets[s] / total,
            view.committed[s] / total,
            view.dealt_in[s] and not view.folded[s],
            view.dealt_in[s] and view.folded[s],
            view.dealt_in[s] and not view.folded[s] and view.stacks[s] == 0,
            not view.dealt_in[s],
            s == view.dealer,
            s == view.current_player,
        ]
    parts.append(seats.ravel())

    for index in range(2):
        ex = view.exchanges[index] if index < len(view.exchanges) else None
        flags = np.zeros((n, 4), dtype=np.float32)
        gave = np.zeros(NUM_CARDS, dtype=np.float32)
        taken_by = np.zeros(n + 1, dtype=np.float32)
        got = np.zeros(NUM_CARDS, dtype=np.float32)
        got_from = np.zeros(2, dtype=np.float32)
        if ex is not None:
            for i, s in enumerate(rel):
                flags[i] = [
                    ex.discarded[s] is True,
                    ex.discarded[s] is False,
                    ex.drew[s] is True,
                    ex.drew[s] is False,
                ]
            if ex.my_discard is not None:
                gave[ex.my_discard] = 1
                if ex.resolved:
                    taken_by[n if ex.taken_by is None else rel.index(ex.taken_by)] = 1
            if ex.received is not None:
                got[ex.received] = 1
                got_from[0 if ex.received_from is None else 1] = 1
        parts += [flags.ravel(), gave, taken_by, got, got_from]

    history = np.zeros((3, n, 5), dtype=np.float32)
    raises = np.zeros(3, dtype=np.float32)
    for a in view.actions:
        if a["phase"] != "bet":
            continue
        r, i = a["round"], rel.index(a["seat"])
        column = {"check": 0, "call": 1, "bet": 2, "raise": 2, "fold": 3}[a["kind"]]
        history[r, i, column] += 0.25 if column in (1, 2) else 1.0
        if column == 2:
            raises[r] += 0.25
        history[r, i, 4] += a["chips"] / total
    parts += [np.minimum(history, 1).ravel(), np.minimum(raises, 1)]
    return np.concatenate(parts).astype(np.float32)
