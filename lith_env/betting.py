"""Betting structures: what a seat may do in a betting round, in exact chip amounts
(docs/rules.md §3).

Amounts for bets and raises are *raise-to* amounts: the seat's total bet in this round after
the action. ``limit`` has a fixed size per round (default 2, 2, 4) and at most one bet and three
raises a round; ``pot-limit`` and ``no-limit`` take any amount from the minimum (the round's
bet size for a bet; the last full raise, at least that size, for a raise) up to the pot-limit
or the whole stack. A seat short of the minimum may always go all-in for less; such an
incomplete raise does not reopen the betting for seats that have already acted. Nobody may bet
or raise when every other seat still in the hand is all-in: there is no one left to answer it
(as in poker; the seat may only call or fold).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["STRUCTURES", "BetOptions", "bet_options"]

STRUCTURES = ("limit", "pot-limit", "no-limit")


class BetOptions(NamedTuple):
    """The legal betting actions of the seat to act (a named tuple: cheap to make once per
    decision).

    ``call`` is the chips needed to call (0 means check); ``min_to``/``max_to`` bound the
    raise-to amount of a bet or raise (``None`` when the seat may not bet or raise).
    """

    can_fold: bool
    call: int
    min_to: int | None
    max_to: int | None
    kind: str  # "bet" when nobody has bet this round, else "raise"

    @property
    def can_check(self) -> bool:
        return self.call == 0

    @property
    def can_raise(self) -> bool:
        return self.min_to is not None


def bet_options(
    *,
    structure: str,
    bet_size: int,
    max_raises: int,
    stack: int,
    my_bet: int,
    highest: int,
    last_raise: int,
    raises: int,
    may_reraise: bool,
    pot: int,
    others_can_bet: bool = True,
) -> BetOptions:
    """Legal options of a seat with ``stack`` chips behind and ``my_bet`` in this round, facing
    ``highest``; ``last_raise`` is the size of the last full bet or raise (0 if none),
    ``raises`` the number of bets and raises so far, ``may_reraise`` whether the betting is open
    to this seat (it has not acted since the last full raise), ``pot`` all chips committed in
    the hand so far, this round's bets included, ``others_can_bet`` whether any other seat
    still in the hand has chips behind."""
    to_call = min(highest - my_bet, stack)
    kind = "raise" if highest > 0 else "bet"
    all_in_to = my_bet + stack
    limit_open = structure != "limit" or raises < 1 + max_raises  # one bet, then raises
    can_raise = may_reraise and stack > to_call and limit_open and others_can_bet
    if not can_raise:
        return BetOptions(highest > my_bet, to_call, None, None, kind)  # positional: cheaper

    if structure == "limit":
        full_to = highest + bet_size
        min_to = max_to = min(full_to, all_in_to)
    else:
        increment = max(last_raise, bet_size)
        min_to = min(highest + increment, all_in_to)
        if structure == "no-limit":
            max_to = all_in_to
        else:
            # Pot-limit: call first, then raise by the size of the pot after the call.
            max_to = min(highest + pot + (highest - my_bet), all_in_to)
            max_to = max(max_to, min_to)
    return BetOptions(highest > my_bet, to_call, min_to, max_to, kind)
