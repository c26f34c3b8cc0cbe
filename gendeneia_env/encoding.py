"""Gendeneía for learners: action ids, masks and the flat observation (``docs/gendeneia_env.md``).

Action ids (``Discrete(num_players + 39)``):

=========================  ======================================================
0, 1                       keep the hand, discard it (and draw a new one)
2 .. 1+n                   play the pair onto the lots of the seat k places to my
                           left (0 = my own lots)
2+n .. 37+n                remove the pair holding Choice card c (ids 0-35: 0-11
                           Collars, 12-23 Hope, 24-35 Blood), when a Twist owes a
                           removal
38+n                       remove nothing (when the removal is "may", or nothing
                           can be removed)
=========================  ======================================================
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from gendeneia_env.cards import suit, value
from gendeneia_env.game import (
    DISCARD,
    KEEP,
    PASS,
    GAction,
    GendeneiaConfig,
    GendeneiaGame,
    GendeneiaView,
)
from gendeneia_env.lookahead import play_delta, removal_delta
from gendeneia_env.scoring import lot_value
from tablegame.engine import illegal_id_error

__all__ = [
    "action_from_id",
    "action_id",
    "action_mask",
    "action_names",
    "encode",
    "layout",
    "num_actions",
    "observation_size",
    "read",
    "read_lot",
    "shape_for_size",
]

PHASES = ("discard", "play", "remove", "over")
PAIR_FEATURES = ("present", "Quill", "Wind", "Twist", "force value")
LOT_SLOTS = 12 * len(PAIR_FEATURES)  # one slot per Choice card of the lot's suit
MAX_LOT = 78  # all twelve Choices of a suit: 1 + ... + 11 + 12
MAX_SCORE = 2 * 2 * MAX_LOT
EFFECT_SCALE = 24  # score changes and gaps are divided by this and clipped to [-1, 1]


def num_actions(config: GendeneiaConfig) -> int:
    return config.num_players + 39


def action_names(config: GendeneiaConfig) -> list[str]:
    n = config.num_players
    names = ["keep", "discard"]
    names += ["play on my lots" if k == 0 else f"play on seat +{k}" for k in range(n)]
    names += [f"remove {c % 12}{suit(c)}" for c in range(36)]
    return [*names, "remove nothing"]


def action_from_id(game: GendeneiaGame, action_id: int) -> GAction:
    """The engine action an id stands for; one that stands for nothing legal raises
    :class:`IllegalActionError` listing the legal ids."""
    n = game.config.num_players
    action: GAction | None = None
    is_int = isinstance(action_id, int | np.integer) and not isinstance(action_id, bool)
    if is_int and 0 <= action_id < num_actions(game.config):
        if action_id == 0:
            action = KEEP
        elif action_id == 1:
            action = DISCARD
        elif action_id < 2 + n and game.current is not None:
            action = GAction("play", target=(game.current + action_id - 2) % n)
        elif action_id < 38 + n:
            action = GAction("remove", card=int(action_id) - 2 - n)
        else:
            action = PASS
    if action is None or action not in game.legal_actions():
        raise illegal_id_error(action_id, action, action_names(game.config), action_mask(game))
    return action


def action_id(action: GAction, seat: int, num_players: int) -> int:
    """The id ``seat`` gives an engine action (a play's target counted from the seat)."""
    if action.kind == "keep":
        return 0
    if action.kind == "discard":
        return 1
    if action.kind == "play":
        return 2 + (action.target - seat) % num_players  # type: ignore[operator]
    if action.kind == "remove":
        return 2 + num_players + action.card  # type: ignore[operator]
    return 38 + num_players


def action_mask(game: GendeneiaGame) -> np.ndarray:
    """int8 mask over action ids: 1 where the id is a legal action now."""
    n = game.config.num_players
    mask = np.zeros(num_actions(game.config), dtype=np.int8)
    for action in game.legal_actions():
        mask[action_id(action, game.current, n)] = 1  # type: ignore[arg-type]
    return mask


@functools.cache
def layout(num_players: int, round_lots: bool) -> dict[str, tuple[int, int]]:
    """Where each field of the observation starts and how long it is."""
    n = num_players
    fields = [
        ("hand choice", 36),
        ("hand force", 36),
        ("phase", len(PHASES)),
        ("lots", n * 3 * LOT_SLOTS),
        ("lot values", n * 3),
        ("scores", n),
        ("score gaps", n),
        ("play effects", n),
        ("removal effects", 36),
        ("round lots", 3 * LOT_SLOTS if round_lots else 0),
        ("round lot values", 3 if round_lots else 0),
        ("to act", n),
        ("opener", n),
        ("draw piles", 2),
        ("discards", 72),
        ("reshuffles", 1),
        ("round", 1),
        ("owed twist", 12),
        ("owed suit", 3),
        ("owed must", 1),
    ]
    out, start = {}, 0
    for name, size in fields:
        out[name] = (start, size)
        start += size
    out["size"] = (start, 0)
    return out


def observation_size(config: GendeneiaConfig) -> int:
    return layout(config.num_players, config.round_lots)["size"][0]


def _write_lot(obs: np.ndarray, start: int, lot) -> None:
    for choice, force in lot:
        at = start + (choice % 12) * len(PAIR_FEATURES)
        obs[at] = 1.0
        obs[at + 1 + "QWT".index(suit(force))] = 1.0
        obs[at + 4] = value(force) / 12


def _effect(change: float) -> float:
    return max(-1.0, min(1.0, change / EFFECT_SCALE))


def _write_effects(obs, where, view: GendeneiaView, config: GendeneiaConfig, order) -> None:
    """Score gaps to every seat, what playing my pair onto each seat would do to its score,
    and, while a removal is owed, what removing each pair would do to its holder's score."""
    presum, me = config.presum, view.seat
    gaps, plays = where["score gaps"][0], where["play effects"][0]
    choice, force = view.hand
    for i, s in enumerate(order):
        obs[gaps + i] = _effect(view.scores[s] - view.scores[me])
        if choice is not None and force is not None and not config.round_lots:
            obs[plays + i] = _effect(play_delta(view.lots[s], choice, force, presum))
    if view.phase == "remove":
        removals = where["removal effects"][0]
        for lots in view.lots:
            for lot in lots:
                for card, pair_force in lot:
                    if suit(pair_force) != "T":  # Twist pairs are never removed
                        obs[removals + card] = _effect(removal_delta(lots, card, presum))


def encode(view: GendeneiaView, config: GendeneiaConfig) -> np.ndarray:
    """The flat float32 observation of one seat. Entries lie in [-1, 1]: score gaps and
    effects are signed, lot values are signed under ``presum="subtract"``, the rest lie in
    [0, 1]."""
    n = view.num_players
    me = view.seat
    where = layout(n, config.round_lots)
    obs = np.zeros(where["size"][0], dtype=np.float32)
    order = [(me + i) % n for i in range(n)]  # seats from me

    choice, force = view.hand
    if choice is not None:
        obs[where["hand choice"][0] + choice] = 1.0
    if force is not None:
        obs[where["hand force"][0] + force - 36] = 1.0
    obs[where["phase"][0] + PHASES.index(view.phase)] = 1.0

    lots, values, scores = where["lots"][0], where["lot values"][0], where["scores"][0]
    for i, s in enumerate(order):
        for k, lot in enumerate(view.lots[s]):
            _write_lot(obs, lots + (3 * i + k) * LOT_SLOTS, lot)
            obs[values + 3 * i + k] = lot_value(lot, config.presum) / MAX_LOT
        obs[scores + i] = min(1.0, view.scores[s] / MAX_SCORE)
    _write_effects(obs, where, view, config, order)
    if view.round_lots is not None:
        start, values = where["round lots"][0], where["round lot values"][0]
        for k, lot in enumerate(view.round_lots):
            _write_lot(obs, start + k * LOT_SLOTS, lot)
            obs[values + k] = lot_value(lot, config.presum) / MAX_LOT

    if view.current_player is not None:
        obs[where["to act"][0] + (view.current_player - me) % n] = 1.0
    obs[where["opener"][0] + (view.opener - me) % n] = 1.0  # the leader under round_lots
    start = where["draw piles"][0]
    obs[start : start + 2] = (view.draw_sizes[0] / 36, view.draw_sizes[1] / 36)
    start = where["discards"][0]
    for pile in view.discards:
        for c in pile:
            obs[start + c] = 1.0
    limit = config.max_reshuffles or 10
    obs[where["reshuffles"][0]] = min(1.0, view.reshuffles / limit)
    obs[where["round"][0]] = min(1.0, view.round / (config.max_rounds or 50))
    if view.pending is not None:
        twist, suit_index, rule = view.pending
        obs[where["owed twist"][0] + twist] = 1.0
        if suit_index >= 0:
            obs[where["owed suit"][0] + suit_index] = 1.0
        obs[where["owed must"][0]] = rule == "must"
    return obs


class GendeneiaObservation(NamedTuple):
    """The fields of an encoded observation that built-in agents read (see :func:`read`)."""

    num_players: int
    hand: tuple[int | None, int | None]
    phase: str
    lots: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]  # [seat from me][lot] -> pairs
    discards: tuple[int, ...]  # the face-up discard piles
    owed_suit: int | None  # a pending removal limited to this Choice suit index, if any


@functools.cache
def shape_for_size(size: int) -> tuple[int, bool]:
    """The player count and round-lots variant of an observation of length ``size``."""
    for n in range(2, 7):
        for round_lots in (False, True):
            if layout(n, round_lots)["size"][0] == size:
                return n, round_lots
    raise ValueError(f"not a Gendeneia observation: length {size}")


def read_lot(obs: np.ndarray, start: int, index: int) -> tuple[tuple[int, int], ...]:
    """The pairs of a lot written at ``start`` (lot ``index``: 0 Collars, 1 Hope, 2 Blood),
    in Choice order."""
    pairs = []
    for m in range(12):
        at = start + m * len(PAIR_FEATURES)
        if obs[at] > 0.5:
            suit_index = int(np.argmax(obs[at + 1 : at + 4]))
            number = round(float(obs[at + 4]) * 12) % 12
            pairs.append((index * 12 + m, (3 + suit_index) * 12 + number))
    return tuple(pairs)


def read(obs: np.ndarray) -> GendeneiaObservation:
    """Decode a seat's observation vector back into hand, lots (pairs as card ids) and the
    face-up discards; the player count follows from its length."""
    n, round_lots = shape_for_size(len(obs))
    where = layout(n, round_lots)
    start = where["hand choice"][0]
    choice = np.flatnonzero(obs[start : start + 36])
    force = np.flatnonzero(obs[where["hand force"][0] : where["hand force"][0] + 36])
    phase = PHASES[int(np.argmax(obs[where["phase"][0] : where["phase"][0] + len(PHASES)]))]
    lots = []
    for i in range(n):
        base = where["lots"][0] + 3 * i * LOT_SLOTS
        lots.append(tuple(read_lot(obs, base + k * LOT_SLOTS, k) for k in range(3)))
    start = where["discards"][0]
    owed = obs[where["owed suit"][0] : where["owed suit"][0] + 3]
    return GendeneiaObservation(
        num_players=n,
        hand=(int(choice[0]) if len(choice) else None, int(force[0]) + 36 if len(force) else None),
        phase=phase,
        lots=tuple(lots),
        discards=tuple(int(c) for c in np.flatnonzero(obs[start : start + 72])),
        owed_suit=int(np.argmax(owed)) if owed.any() else None,
    )
