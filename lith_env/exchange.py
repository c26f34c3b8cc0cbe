"""Exact expected hand strength after each possible discard, from the vectorized evaluator.

A discarder receives either their left neighbour's discard or the top card of the deck: a card
they have not seen. Assuming every unseen card is equally likely, the expected strength after
discarding card *i* is the mean, over the unseen cards, of the strength percentile of the hand
with card *i* replaced. Agents, environments and analytics share this one function.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from lith_env.cards import deck
from lith_env.hands import percentile

__all__ = ["best_discard", "discard_values", "role_percentile", "unseen_cards"]


def unseen_cards(
    cards: Sequence[int],
    seen: Sequence[int] = (),
    *,
    pawns_and_courts: bool = True,
    excuse: bool = False,
    in_play: Sequence[int] | None = None,
) -> list[int]:
    """Cards of the deck in play that are neither in ``cards`` nor in ``seen``: ``in_play``
    (a table's ``LithConfig.deck``, which may be a subset), or else the whole deck that
    ``pawns_and_courts`` and ``excuse`` select."""
    known = set(cards) | set(seen)
    pool = deck(pawns_and_courts, excuse) if in_play is None else in_play
    return [c for c in pool if c not in known]


def role_percentile(hands: np.ndarray, pawns_and_courts: bool, excuse: str | None) -> np.ndarray:
    """:func:`~lith_env.hands.percentile` of hands (..., 3), averaged over the Excuse's two
    roles under ``excuse="demon"``."""
    if excuse == "demon":  # the coin is flipped at the showdown: average the two roles
        return 0.5 * (
            percentile(hands, pawns_and_courts=pawns_and_courts, excuse="imposter")
            + percentile(hands, pawns_and_courts=pawns_and_courts, excuse="beggar")
        )
    return percentile(hands, pawns_and_courts=pawns_and_courts, excuse=excuse)


def discard_values(
    cards: Sequence[int],
    unseen: Sequence[int],
    *,
    pawns_and_courts: bool = True,
    excuse: str | None = None,
) -> np.ndarray:
    """Expected strength percentile of the hand after discarding each card of ``cards`` (in
    the given order) and receiving a uniformly random card of ``unseen``; the last entry is the
    percentile of keeping the hand. Shape (4,)."""
    cards = [int(c) for c in cards]
    unseen = np.asarray([c for c in unseen if c not in cards], dtype=np.int64)
    if len(cards) != 3 or len(unseen) == 0:
        raise ValueError(
            f"need three cards and at least one unseen card, got {cards} and {len(unseen)}"
        )
    hands = np.empty((3, len(unseen), 3), dtype=np.int64)
    for i in range(3):
        kept = [c for j, c in enumerate(cards) if j != i]
        hands[i, :, 0], hands[i, :, 1], hands[i, :, 2] = kept[0], kept[1], unseen
    values = role_percentile(hands, pawns_and_courts, excuse).mean(axis=1)
    keep = role_percentile(np.array([cards]), pawns_and_courts, excuse)[0]
    return np.append(values, keep)


def best_discard(
    cards: Sequence[int],
    unseen: Sequence[int],
    *,
    pawns_and_courts: bool = True,
    excuse: str | None = None,
) -> int | None:
    """The card whose discard maximizes the expected strength, or ``None`` when no discard
    improves on keeping."""
    values = discard_values(cards, unseen, pawns_and_courts=pawns_and_courts, excuse=excuse)
    best = int(np.argmax(values[:3]))
    return int(cards[best]) if values[best] > values[3] else None
