"""Side pots and their award at showdown (docs/rules.md §3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Pot", "award_pots", "side_pots"]


@dataclass(frozen=True)
class Pot:
    """Chips and the seats still in the hand that may win them."""

    amount: int
    eligible: tuple[int, ...]


def side_pots(committed: Sequence[int], folded: Sequence[bool]) -> list[Pot]:
    """Split what each seat put in this hand into a main pot and side pots.

    "Side pots are settled from the smallest all-in up": each layer between two consecutive
    commitment levels of the seats still in holds everyone's chips in that band, and belongs to
    the seats still in who reached its top. Folded seats' chips count but win nothing. A top
    layer only one seat reached (an uncalled bet) is a pot that seat alone is eligible for.
    """
    live_levels = sorted({c for c, f in zip(committed, folded, strict=True) if not f and c > 0})
    pots: list[Pot] = []
    previous = 0
    for level in live_levels:
        amount = sum(max(0, min(c, level) - previous) for c in committed)
        eligible = tuple(
            seat
            for seat, (c, f) in enumerate(zip(committed, folded, strict=True))
            if not f and c >= level
        )
        if amount:
            pots.append(Pot(amount, eligible))
        previous = level
    # Chips folded seats put in above every live seat's level (possible only when a live
    # seat is all-in below an earlier bet) join the last pot.
    leftover = sum(max(0, c - previous) for c in committed)
    if leftover:
        if pots:
            pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
        else:
            raise ValueError("chips in the pot but no seat left to win them")
    return pots


def award_pots(
    pots: Sequence[Pot], strengths: Sequence[int | None], dealer: int
) -> tuple[list[int], list[tuple[int, ...]]]:
    """Chips each seat wins, and each pot's winners.

    "Each pot goes to the best eligible hand; equal hands split it, odd chips to the first tied
    winner left of the dealer." ``strengths[seat]`` is ``None`` for seats not at the showdown.
    """
    n = len(strengths)
    won = [0] * n
    winners_per_pot: list[tuple[int, ...]] = []
    for pot in pots:
        best = max(strengths[s] for s in pot.eligible)  # type: ignore[type-var]
        # Winners in order from the dealer's left, so the first gets the odd chips.
        winners = tuple(
            sorted(
                (s for s in pot.eligible if strengths[s] == best),
                key=lambda s: (s - dealer - 1) % n,
            )
        )
        share, odd = divmod(pot.amount, len(winners))
        for s in winners:
            won[s] += share
        won[winners[0]] += odd
        winners_per_pot.append(winners)
    return won, winners_per_pot
