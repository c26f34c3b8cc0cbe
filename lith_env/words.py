"""Lith in words: what the terminal game prints and the browser game shows.

The table as one seat sees it, its actions and finished hands described in public words, the
menu of the seat's legal actions, a hand's reading (category, qualifier, percentile) and the
lines that open and close a match. Nothing here writes anywhere: the terminal game
(``lith_env.play``) prints these lines, the browser game (``webplay``) sends them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import RenderableType
from rich.table import Table

from lith_env.cards import CARDS, card_id
from lith_env.encoding import action_from_id, action_mask
from lith_env.game import Action, LithConfig, LithGame, PlayerView
from lith_env.hands import classify, hand_strength, tie_order
from lith_env.table import seat_status

__all__ = [
    "PHASE_NAMES",
    "QUALIFIER_NOTE",
    "LithWords",
    "menu",
    "public_label",
    "read_hand",
    "rules_in_words",
    "saved_in_words",
]

PHASE_NAMES = {"bet": "betting round", "exchange": "exchange"}
QUALIFIER_NOTE = (
    "qualifier, the first tie-break between hands of one category: kindred (all three cards "
    "share a type: Personality, Location or Event) beats fortune (one card of each type) beats "
    "neither (no shared type, and not one of each)"
)


def _name(card: int) -> str:
    return CARDS[card].name


class LithWords:
    """The table as seat ``me`` sees it, and its actions, in words; ``labels`` names the
    player at every seat ("you" and the bots' specs)."""

    def __init__(self, config: LithConfig, me: int, labels: Sequence[str]) -> None:
        self.config, self.me, self.labels = config, me, list(labels)
        self.noted = False  # the qualifier's note is said once a session, at its first use

    def who(self, seat: int) -> str:
        return "you" if seat == self.me else f"seat {seat} ({self.labels[seat]})"

    def shows(self, seat: int) -> str:
        """``you show`` or ``seat 1 (tag) shows``."""
        return f"{self.who(seat)} {'show' if seat == self.me else 'shows'}"

    def qualifier_note(self, indent: str = "") -> list[str]:
        """What a hand's qualifier is, the first time a hand is read; then nothing."""
        if self.noted:
            return []
        self.noted = True
        return [f"{indent}[dim]{QUALIFIER_NOTE}[/dim]"]

    def describe(self, action: dict) -> str:
        """One public action in words; a discarded card is named only for my own discards."""
        kind = action["kind"]
        text = {"check": "checks", "call": "calls", "fold": "folds", "keep": "keeps"}.get(kind)
        if kind in ("bet", "raise"):
            text = f"{kind}s to {action['amount']}"
        elif kind == "call" and action.get("chips"):
            text = f"calls {action['chips']}"
        elif kind == "discard":
            card = action.get("card")
            text = f"discards {card}" if action["seat"] == self.me and card else "discards"
        return f"{self.who(action['seat'])}: {text or kind}"

    def hand_line(self, cards: Sequence[int]) -> str:
        reading = read_hand(cards, self.config)
        return (
            f"[bold]{' · '.join(tie_order(list(cards)))}[/bold] — {reading['category']} "
            f"(qualifier: {reading['qualifier']}), better than "
            f"{100 * reading['percentile']:.0f}% of hands"
        )

    def _exchange_cell(self, view: PlayerView, seat: int) -> str:
        marks = []
        for ex in view.exchanges:
            if ex.discarded[seat] is None:
                continue
            if not ex.discarded[seat]:
                marks.append("kept")
            elif ex.drew[seat] is None:
                marks.append("discarded")
            else:
                marks.append("discarded, drew" if ex.drew[seat] else "discarded, took left's")
        return "; ".join(marks) or "-"

    def table(self, view: PlayerView, hand_number: int) -> list[RenderableType]:
        """The table at this seat's turn: the grid of seats, its hand read, its exchanges."""
        phase = PHASE_NAMES.get(view.phase, view.phase)
        rounds = self.config.rounds
        of = rounds if view.phase == "bet" else rounds - 1  # betting rounds, or exchanges
        title = (
            f"Lith — hand {hand_number} — {phase} {view.round + 1} of {of} — pot {view.pot} — "
            f"{self.config.betting}"
        )
        grid = Table(title=title, title_justify="left")
        # A one-round game has no exchange: no column for it.
        columns = ["seat", "player", "stack", "bet", "in pot", "status", "cards"]
        exchanges = rounds > 1
        if exchanges:
            columns.append("exchanges")
        for column in columns:
            grid.add_column(
                column, justify="right" if column in ("stack", "bet", "in pot") else "left"
            )
        for s in range(view.num_players):
            status = seat_status(view, s)
            if status == "in" and s == view.current_player:
                status = "to act"
            cards = " · ".join(tie_order(list(view.cards))) if s == self.me else "hidden"
            cells = [
                f"{s}{' D' if s == view.dealer else ''}",
                "you" if s == self.me else self.labels[s],
                str(view.stacks[s]),
                str(view.bets[s]),
                str(view.committed[s]),
                status,
                cards,
            ]
            if exchanges:
                cells.append(self._exchange_cell(view, s))
            grid.add_row(*cells, style="bold" if s == self.me else None)
        lines: list[RenderableType] = [grid, "Your hand: " + self.hand_line(view.cards)]
        lines += self.qualifier_note()
        for i, ex in enumerate(view.exchanges):
            if ex.my_discard is None or not ex.resolved:
                continue
            taker = (
                "nobody (to the bottom of the deck)"
                if ex.taken_by is None
                else self.who(ex.taken_by)
            )
            source = "the deck" if ex.received_from is None else self.who(ex.received_from)
            lines.append(
                f"Exchange {i + 1}: you gave away {_name(ex.my_discard)} (taken by {taker}) "
                f"and received {_name(ex.received)} from {source}"
            )
        if view.phase == "bet" and view.current_player == self.me:
            lines.append(f"To call: {view.to_call}")
        return lines

    def result(self, record: dict) -> list[str]:
        """A finished hand: showdown cards (only those the rules show), pots, net chips."""
        lines = []
        if record["showdown"]:
            lines += self.qualifier_note("  ")
        for seat, cards in sorted(record["showdown"].items(), key=lambda kv: int(kv[0])):
            ids = [card_id(name) for name in cards]
            lines.append(f"  {self.shows(int(seat))} " + self.hand_line(ids))
        if record["demon"]:
            lines.append("  the demon coin was flipped")
        for pot in record["pots"]:
            winners = ", ".join(self.who(w) for w in pot["winners"])
            lines.append(f"  pot of {pot['amount']} to {winners}")
        net = ", ".join(f"{self.who(s)} {v:+d}" for s, v in enumerate(record["net"]) if v)
        lines.append(f"  result: {net or 'no chips moved'}")
        stacks = ", ".join(f"{self.who(s)} {c}" for s, c in enumerate(record["stacks_after"]))
        lines.append(f"  stacks: {stacks}")
        return lines

    def hand_over(self, record: dict, hand_number: int) -> list[str]:
        """The screen that closes a hand: its number, then its result."""
        return [f"[bold]Hand {hand_number} is over.[/bold]", *self.result(record)]

    def intro(self, seating: str) -> list[str]:
        """The lines that open a match: the table's rules, then ``seating`` (who sits where)."""
        config = self.config
        lines = [
            f"Lith, {config.num_players} players, {config.betting}, {rules_in_words(config)}; "
            + seating
        ]
        if config.cards is not None:
            names = ", ".join(_name(c) for c in config.cards)
            lines.append(f"The deck holds only these {len(config.cards)} cards: {names}")
        return lines

    def match_over(self, game: LithGame) -> list[str]:
        """The line that closes a match: its length and who holds the most chips."""
        winners = ", ".join(self.who(s) for s in game.winners())
        return [
            f"[bold]The match is over[/bold] after {game.hands_played} hands; most chips: {winners}"
        ]


def saved_in_words(hands: int, path: Path) -> str:
    """Where the finished hands went, or that none was finished."""
    if hands:
        return f"{hands} hand(s) saved to {path}"
    return f"no hand was finished, so nothing was saved (would be {path})"


def read_hand(cards: Sequence[int], config: LithConfig) -> dict:
    """A hand's category, qualifier and strength percentile under the table's rules. Under the
    ``demon`` Excuse the coin flipped at showdown decides the Excuse's role, so a hand holding
    it reads both ways ("Void (as the imposter) / Pair (as the beggar)"), at the percentile
    of the weaker reading."""
    roles = ("imposter", "beggar") if config.excuse == "demon" else (config.excuse,)
    readings = []
    for role in roles:
        kind = classify(tie_order(list(cards)), pawns_and_courts=config.pawns_and_courts,
                        excuse=role)  # fmt: skip
        _, pct = hand_strength(cards, pawns_and_courts=config.pawns_and_courts, excuse=role)
        readings.append((role, kind.category, kind.qualifier, float(pct)))
    lowest = min(r[3] for r in readings)  # the percentile of the weaker reading
    if len({r[1:3] for r in readings}) == 1:
        return {"category": readings[0][1], "qualifier": readings[0][2], "percentile": lowest}
    return {
        "category": " / ".join(f"{r[1]} (as the {r[0]})" for r in readings),
        "qualifier": " / ".join(r[2] for r in readings),
        "percentile": lowest,
    }


def rules_in_words(config: LithConfig) -> str:
    """The number of betting rounds and exchanges, and the deck's size, in words."""
    exchanges = config.rounds - 1
    text = {
        0: "1 betting round (no exchange)",
        1: "2 betting rounds (1 exchange between them)",
        2: "3 betting rounds (2 exchanges between them)",
    }[exchanges]
    return f"{text}, a deck of {len(config.deck)} cards"


def menu(game: LithGame, config: LithConfig) -> list[tuple[str, Action | None]]:
    """The legal actions as (label, action); ``None`` stands for "raise to an amount I type"."""
    hand = game.hand
    mask = action_mask(hand)
    options: list[tuple[str, Action | None]] = []
    seen: set[Action] = set()
    call = min(hand.highest - hand.bets[hand.current], hand.stacks[hand.current])
    for action_id in mask.nonzero()[0]:
        action = action_from_id(hand, int(action_id))
        if action in seen:
            continue
        seen.add(action)
        label = str(action)
        if action.kind == "call":
            label = f"call {call}"
        elif (
            action.kind in ("bet", "raise")
            and action.amount == hand.stacks[hand.current] + hand.bets[hand.current]
        ):
            label += " (all-in)"
        options.append((label, action))
    legal = hand.legal_actions()
    if config.betting != "limit" and legal.raise_kind and legal.min_to < legal.max_to:
        options.append(
            (f"{legal.raise_kind} to an amount you choose ({legal.min_to}-{legal.max_to})", None)
        )
    return options


def public_label(hand: Any, action_id: int) -> str:
    """A legal action of the seat to act in words that name none of its cards: a discard is
    "discard a card" whichever card it is."""
    action = action_from_id(hand, action_id)
    return "discard a card" if action.kind == "discard" else str(action)
