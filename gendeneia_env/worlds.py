"""Worlds a seat cannot tell apart: the table read back from a seat's observation vector, and
games dealt from it with the hidden cards placed at random (the determinizations a search
samples).

Everything but the other seats' hands and the draw piles' order is public (``observe``), and
the belief over the hidden cards is uniform: a seat draws its hand at the end of its turn and
shows it (a discard face up, a kept pair played) before anything depends on it. So a world
is the unseen cards shuffled, one Choice and one Force to every other seat, the rest the draw
piles. Seats are relative: the observing seat is seat 0, seat ``k`` sits ``k`` places to its
left, as in the action ids.
"""

from __future__ import annotations

import random

import numpy as np

from gendeneia_env.encoding import LOT_SLOTS, PHASES, layout, read, read_lot
from gendeneia_env.game import CHOICE_IDS, FORCE_IDS, GendeneiaConfig, GendeneiaGame, GendeneiaView
from gendeneia_env.lookahead import score_of

__all__ = ["sample_world", "unseen_cards", "view_from_observation"]


def view_from_observation(obs: np.ndarray, config: GendeneiaConfig) -> GendeneiaView:
    """The view a seat's observation vector encodes, the seat as seat 0. ``ValueError`` if the
    vector is not one of ``config``'s tables."""
    obs = np.asarray(obs)
    n = config.num_players
    where = layout(n, config.round_lots)
    if len(obs) != where["size"][0]:
        variant = " round_lots" if config.round_lots else ""
        raise ValueError(
            f"obs: not a {n}-player{variant} Gendeneia observation (length {len(obs)})"
        )
    seen = read(obs)

    def at(name: str) -> np.ndarray:
        start, size = where[name]
        return obs[start : start + size]

    phase = PHASES[int(np.argmax(at("phase")))]
    to_act = np.flatnonzero(at("to act") > 0.5)
    current = int(to_act[0]) if len(to_act) else None
    opener = int(np.argmax(at("opener")))
    pending = None
    if at("owed twist").any():
        twist = int(np.argmax(at("owed twist")))
        suit_index = int(np.argmax(at("owed suit"))) if at("owed suit").any() else -1
        pending = (twist, suit_index, "must" if at("owed must")[0] > 0.5 else "may")
    discards = seen.discards
    lots = seen.lots
    round_lots = None
    if config.round_lots:
        start = where["round lots"][0]
        round_lots = tuple(read_lot(obs, start + k * LOT_SLOTS, k) for k in range(3))
    return GendeneiaView(
        seat=0,
        num_players=n,
        phase=phase,
        current_player=current,
        leader=opener if config.round_lots else None,
        opener=opener,
        round=round(float(at("round")[0]) * (config.max_rounds or 50)),
        reshuffles=round(float(at("reshuffles")[0]) * (config.max_reshuffles or 10)),
        hand=seen.hand,
        lots=lots,
        round_lots=round_lots,
        draw_sizes=(round(float(at("draw piles")[0]) * 36), round(float(at("draw piles")[1]) * 36)),
        discards=(
            tuple(c for c in discards if c < 36),
            tuple(c for c in discards if c >= 36),
        ),
        pending=pending,
        scores=tuple(score_of(seat_lots, config.presum) for seat_lots in lots),
    )


def unseen_cards(view: GendeneiaView) -> tuple[list[int], list[int]]:
    """The Choice and the Force cards the view's seat cannot see, in card order: the other
    seats' hands and the draw piles."""
    seen = {c for pile in view.discards for c in pile}
    seen |= {c for c in view.hand if c is not None}
    for seat_lots in (*view.lots, view.round_lots or ()):
        for lot in seat_lots:
            for pair in lot:
                seen |= set(pair)
    return [c for c in CHOICE_IDS if c not in seen], [c for c in FORCE_IDS if c not in seen]


def sample_world(view: GendeneiaView, config: GendeneiaConfig, rng: random.Random) -> GendeneiaGame:
    """A game consistent with ``view`` (the observing seat's), its hidden cards dealt at
    random by ``rng``, which also seeds the world's later reshuffles."""
    choices, forces = unseen_cards(view)
    others = [s for s in range(view.num_players) if s != view.seat]
    for kind, cards, drawn in (("Choice", choices, 0), ("Force", forces, 1)):
        if len(cards) != view.draw_sizes[drawn] + len(others):
            raise ValueError(
                f"view: {len(cards)} unseen {kind} cards, but {view.draw_sizes[drawn]} in the "
                f"draw pile and {len(others)} in other hands"
            )
    rng.shuffle(choices)
    rng.shuffle(forces)
    hands: list[tuple[int, int] | None] = [None] * view.num_players
    for i, seat in enumerate(others):
        hands[seat] = (choices[i], forces[i])
    draws = (choices[len(others) :], forces[len(others) :])
    return GendeneiaGame.from_view(view, config, hands, draws, rng.getrandbits(63))
