"""One-play look-ahead on a seat's lots: what a play or a removal would do to its score.

The built-in agents decide with these, and the learners' observation carries the same numbers
(``play effects``, ``removal effects``), so a network does not have to learn the scoring rule
from raw lots before it can reason about it.
"""

from __future__ import annotations

from collections.abc import Sequence

from gendeneia_env.game import trump_lot
from gendeneia_env.scoring import lot_value, score

__all__ = ["after_play", "play_delta", "removal_delta", "score_of"]

Pair = tuple[int, int]
Lots = Sequence[Sequence[Pair]]  # a seat's Collars, Hope and Blood lots


def score_of(lots: Lots, presum: str | None = None) -> int:
    """A seat's score from its three lots."""
    return score(*[lot_value(lot, presum) for lot in lots])


def after_play(lots: Lots, choice: int, force: int) -> list[list[Pair]]:
    """A copy of a seat's lots after the pair lands on its matching lot (trumping included)."""
    out = [list(lot) for lot in lots]
    lot = out[choice // 12]
    lot.append((choice, force))
    trump_lot(lot, force)
    return out


def play_delta(lots: Lots, choice: int, force: int, presum: str | None = None) -> int:
    """How much a seat's score changes if the pair is played onto its lots (negative is good
    for that seat: the lowest score wins)."""
    values = [lot_value(lot, presum) for lot in lots]
    before = score(*values)
    index = choice // 12  # only the pair's own lot changes
    lot = [*lots[index], (choice, force)]
    trump_lot(lot, force)
    values[index] = lot_value(lot, presum)
    return score(*values) - before


def removal_delta(lots: Lots, choice: int, presum: str | None = None) -> int:
    """How much a seat's score changes if the pair holding Choice card ``choice`` is removed
    from its lots (0 if it holds no such pair)."""
    rest = [[p for p in lot if p[0] != choice] for lot in lots]
    return score_of(rest, presum) - score_of(lots, presum)
