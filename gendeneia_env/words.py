"""Gendeneía in words: what the terminal game prints and the browser game shows.

The lots as one seat sees them, with the legend of their letters and the score, every action
described in public words, the menu of the seat's legal actions with what each does to the
scores, and the lines that open and close a game. Nothing here writes anywhere: the terminal
game (``gendeneia_env.play``) prints these lines, the browser game (``webplay``) sends them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.console import RenderableType
from rich.table import Table

from gendeneia_env.cards import (
    CHOICE_SUITS,
    FORCE_SUITS,
    SUIT_NAMES,
    TWIST_NAMES,
    card_name,
    pair_name,
)
from gendeneia_env.encoding import action_from_id, action_mask
from gendeneia_env.game import GAction, GendeneiaGame
from gendeneia_env.lookahead import play_delta, removal_delta
from gendeneia_env.scoring import LOT_NAMES

__all__ = [
    "GendeneiaWords",
    "legend",
    "menu",
    "play_and_describe",
    "public_label",
    "saved_in_words",
]


def legend(presum: str | None) -> list[str]:
    """What the screen's letters and numbers mean: suits, zeros, lot values, the score."""
    suits = "; ".join(
        f"{kind} {', '.join(f'{letter} {SUIT_NAMES[letter]}' for letter in letters)}"
        for kind, letters in (("Choices", CHOICE_SUITS), ("Forces", FORCE_SUITS))
    )
    value = {
        None: "the sum of its Choices",
        "ignore": "the sum of its Choices, those paired with Quills and those paired with Winds "
        "totalled apart and the smaller total dropped (Twist-paired Choices always count)",
        "subtract": "its Choices paired with Quills, minus those paired with Winds, plus those "
        "paired with Twists",
    }[presum]
    return [
        f"Cards are written number then suit letter: {suits}. A pair is Choice/Force "
        "(3B/5Q: 3 of Blood with 5 of Quills). A zero counts as 12.",
        f"Each lot shows its value in brackets, then its pairs. A lot's value is {value}; "
        "score = |Collars - Blood| + |Hope - Blood|. The lowest score wins.",
    ]


def _lot_cell(lot: Sequence[tuple[int, int]], value: int) -> str:
    """A lot as its value, then its written pairs (``(10) 3B/5Q 7B/2W``)."""
    return " ".join([f"({value})", *(pair_name(*p) for p in lot)])


class GendeneiaWords:
    """The lots of ``game`` as seat ``me`` sees them, and its actions, in words; ``labels``
    names the player at every seat ("you" and the bots' specs)."""

    def __init__(self, game: GendeneiaGame, me: int, labels: Sequence[str]) -> None:
        self.game, self.me, self.labels = game, me, list(labels)

    def who(self, seat: int) -> str:
        return "you" if seat == self.me else f"seat {seat} ({self.labels[seat]})"

    def whose(self, seat: int) -> str:
        return "your" if seat == self.me else f"seat {seat}'s"

    def table(self) -> list[RenderableType]:
        """The lots, the scores, the legend, this seat's pair, a removal owed, the discards."""
        game, view = self.game, self.game.observe(self.me)
        limit = f"/{game.config.max_rounds}" if game.config.max_rounds else ""
        title = (
            f"Gendeneía — round {view.round + 1}{limit} — reshuffles {view.reshuffles} — "
            f"draw piles {view.draw_sizes[0]} Choices, {view.draw_sizes[1]} Forces"
        )
        grid = Table(title=title, title_justify="left")
        for column in ("seat", "player", "turn", *LOT_NAMES, "score"):
            grid.add_column(column, justify="right" if column == "score" else "left")
        for s in range(view.num_players):
            turn = ["leads the round"] if s == view.leader else []
            if s == view.current_player:
                turn.append("to play")
            grid.add_row(
                str(s),
                "you" if s == self.me else self.labels[s],
                ", ".join(turn),
                *map(_lot_cell, view.lots[s], game.lot_values(s)),
                str(view.scores[s]),
                style="bold" if s == self.me else None,
            )
        if view.round_lots is not None:
            grid.add_row(
                "round lots",
                "",
                "",
                *(" ".join(pair_name(*p) for p in lot) or "-" for lot in view.round_lots),
                "",
            )
        lines: list[RenderableType] = [grid]
        lines += [f"[dim]{line}[/dim]" for line in legend(game.config.presum)]
        choice, force = view.hand
        if choice is not None and force is not None and not game.is_over:
            lines.append(f"Your pair: [bold]{pair_name(choice, force)}[/bold]")
        if view.pending is not None:
            twist, suit_index, rule = view.pending
            where = "any lot" if suit_index < 0 else f"a {LOT_NAMES[suit_index]} lot"
            lines.append(
                f"{TWIST_NAMES[twist]} owes a removal: you {rule} remove a pair "
                f"(not a Twist pair) from {where}"
            )
        piles = [" ".join(card_name(c) for c in pile[-8:]) or "-" for pile in view.discards]
        lines.append(f"Face-up discards (last 8): Choices {piles[0]}; Forces {piles[1]}")
        return lines

    def describe(
        self,
        seat: int,
        action: GAction,
        pair: tuple[int, int] | None,
        removed: tuple[int | None, str] | None,
    ) -> str:
        """One action in public words: what was played, discarded or removed, and where."""
        if action.kind == "keep":
            return f"{self.who(seat)}: keeps the pair"
        if action.kind == "discard":
            return f"{self.who(seat)}: discards {pair_name(*pair)} face up and draws"
        if action.kind == "play":
            target = (
                "the round lots" if action.target is None else f"{self.whose(action.target)} lots"
            )
            return f"{self.who(seat)}: plays {pair_name(*pair)} onto {target}"
        if action.kind == "remove":
            holder, text = removed
            lots = "the round lots" if holder is None else f"{self.whose(holder)} lots"
            return f"{self.who(seat)}: removes {text} from {lots}"
        return f"{self.who(seat)}: removes nothing"

    def intro(self, seating: str) -> list[str]:
        """The line that opens a game: its seats, then ``seating`` (who sits where)."""
        return [f"Gendeneía, {self.game.config.num_players} players; {seating}"]

    def game_over(self) -> list[RenderableType]:
        """The screen that closes a game: the lots at its end, why it ended, who won."""
        winners = ", ".join(self.who(s) for s in self.game.winners())
        return [
            *self.table(),
            f"[bold]The game is over[/bold] ({self.game.end_reason}); lowest score: {winners}",
        ]


def saved_in_words(path: Path) -> str:
    """Where the game record went."""
    return f"the game record is saved to {path}"


def menu(game: GendeneiaGame, words: GendeneiaWords) -> list[tuple[str, int]]:
    """The legal action ids with labels that say what each does to the scores."""
    me, presum = words.me, game.config.presum
    view = game.observe(me)
    choice, force = view.hand
    options = []
    for action_id in action_mask(game).nonzero()[0]:
        action = action_from_id(game, int(action_id))
        if action.kind == "keep":
            label = f"keep {pair_name(choice, force)}"
        elif action.kind == "discard":
            label = f"discard {pair_name(choice, force)} and draw a new pair"
        elif action.kind == "play":
            target = action.target
            change = play_delta(view.lots[target], choice, force, presum)
            score = view.scores[target]
            label = (
                f"play {pair_name(choice, force)} onto {words.whose(target)} lots "
                f"(score {score} -> {score + change})"
            )
        elif action.kind == "remove":
            holder, pair = _holder(game, action.card)
            if holder is None:
                label = f"remove {pair_name(*pair)} from the round lots"
            else:
                change = removal_delta(view.lots[holder], action.card, presum)
                score = view.scores[holder]
                label = (
                    f"remove {pair_name(*pair)} from {words.whose(holder)} lots "
                    f"(score {score} -> {score + change})"
                )
        else:
            label = "remove nothing"
        options.append((label, int(action_id)))
    return options


def play_and_describe(
    game: GendeneiaGame, words: GendeneiaWords, seat: int, action_id: int
) -> list[str]:
    """Apply ``seat``'s action and say what it did in public words: the play, discard or
    removal, then any cards a play trumped to the discard piles. (It applies the action
    because the words need the pair and the piles from before it.)"""
    action = action_from_id(game, action_id)
    pair = tuple(game.hands[seat]) if action.kind in ("discard", "play") else None
    removed = None
    if action.kind == "remove":
        holder, held = _holder(game, action.card)
        removed = (holder, pair_name(*held))
    before = [list(p.discard) for p in game.piles.values()]
    game.apply(action)
    lines = [words.describe(seat, action, pair, removed)]
    after = [list(p.discard) for p in game.piles.values()]
    trumped = [
        card_name(c)
        for old, new in zip(before, after, strict=True)
        for c in new[len(old) :]
        if pair is None or c not in pair
    ]
    if action.kind == "play" and trumped:
        lines.append(f"  trumped to the discard piles: {' '.join(trumped)}")
    return lines


def public_label(game: GendeneiaGame, action_id: int) -> str:
    """A legal action of the seat to act in words that show nothing of its hand: "keep",
    "discard and draw", "play onto seat 2's lots", "remove 3B/5Q from seat 1's lots"."""
    action = action_from_id(game, action_id)
    if action.kind in ("keep", "discard"):
        return "keep its pair" if action.kind == "keep" else "discard its pair and draw"
    if action.kind == "play":
        return "play onto " + (
            "the round lots" if action.target is None else f"seat {action.target}'s lots"
        )
    if action.kind == "remove":
        holder, pair = _holder(game, action.card)
        where = "the round lots" if holder is None else f"seat {holder}'s lots"
        return f"remove {pair_name(*pair)} from {where}"
    return "remove nothing"


def _holder(game: GendeneiaGame, card: int) -> tuple[int | None, tuple[int, int]]:
    """The seat holding the pair of Choice ``card`` (None: the round lots) and the pair."""
    for seat, lots in enumerate(game.lots):
        for lot in lots:
            for pair in lot:
                if pair[0] == card:
                    return seat, pair
    for lot in game.temp_lots or []:
        for pair in lot:
            if pair[0] == card:
                return None, pair
    raise ValueError(f"no pair holds Choice {card_name(card)}")
