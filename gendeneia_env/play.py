"""Play Gendeneía against the bots in the terminal.

    python -m gendeneia_env.play --players 3 --bots greedy,spoiler

You sit at one seat (``--seat``, default 0); the bots fill the others in order (the list is
repeated if it is shorter). Each of your turns shows every player's lots as written pairs, the
lot values and scores (lowest wins), your pair, the piles and any removal owed, and a numbered
menu of your legal actions with what each would do to the scores. The game is saved after every
turn as a game record (``gendeneia_env.history`` format: ``replay_game`` replays it); ``q`` or
Ctrl-D leaves and says where it is.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.table import Table

from gendeneia_env.cards import (
    CHOICE_SUITS,
    FORCE_SUITS,
    SUIT_NAMES,
    TWIST_NAMES,
    card_name,
    pair_name,
)
from gendeneia_env.encoding import (
    action_from_id,
    action_mask,
    encode,
    layout,
    num_actions,
    observation_size,
)
from gendeneia_env.game import GAction, GendeneiaConfig, GendeneiaGame
from gendeneia_env.history import game_record
from gendeneia_env.lookahead import play_delta, removal_delta
from gendeneia_env.scoring import LOT_NAMES, PRESUMS
from tablegame.cli import int_at_least
from tablegame.engine import as_action_id
from tablegame.terminal import (
    Prompter,
    Quit,
    RuleOptions,
    bots_help,
    history_path,
    make_bots,
    run_session,
    seat_bots,
)

__all__ = ["GendeneiaScreen", "main", "menu", "play_and_describe", "public_label"]


def _limit(text: str) -> int | None:
    """argparse type of ``--rounds`` and ``--reshuffles``: a whole number, or none."""
    if text.strip().lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number or none, got {text!r}") from None


def _twists(text: str) -> tuple[str | int, ...]:
    """argparse type of the Twist lists: names or numbers, comma-separated."""
    names = (t.strip() for t in text.split(",") if t.strip())
    return tuple(int(t) if t.isdigit() else t for t in names)


def build_parser() -> tuple[argparse.ArgumentParser, RuleOptions]:
    """The program's options, and the part of them that sets the rules."""
    parser = argparse.ArgumentParser(
        prog="python -m gendeneia_env.play",
        description=__doc__.split("\n\n")[0],
        epilog="Twists by name or number: "
        + ", ".join(f"{i} {n}" for i, n in enumerate(TWIST_NAMES))
        + ". Type the number of a choice; q (or Ctrl-D) leaves and saves the game.",
    )
    parser.add_argument(
        "--players", type=int, default=3, help="seats at the table, 2-6 (default: 3)"
    )
    parser.add_argument("--bots", default="greedy", help=bots_help("gendeneia", "greedy"))
    parser.add_argument(
        "--seat", type=int, default=0, help="your seat, from 0 to players-1 (default: 0)"
    )
    parser.add_argument(
        "--seed",
        type=int_at_least(0),
        default=None,
        help="seed of the shuffles and the bots, to play the same game again (default: a new "
        "game every time)",
    )
    rules = _rule_options(parser)
    parser.add_argument(
        "--history",
        type=Path,
        default=None,
        help="where to save the game record, one JSON object on one line "
        "(default: runs/play/gendeneia-DATE-TIME.json)",
    )
    return parser, rules


def _rule_options(parser: argparse.ArgumentParser) -> RuleOptions:
    """The options that set the rules: a flag for the ones people change, --rule for any."""
    rules = RuleOptions(parser, "gendeneia", GendeneiaConfig())
    rules.add(
        "--rounds", "max_rounds", "end after this many rounds; none for no limit", type=_limit
    )
    rules.add(
        "--reshuffles",
        "max_reshuffles",
        "end after the turn of this reshuffle of a draw pile; 0 for no reshuffle at all (the "
        "game ends when a pile first runs out), none for no limit",
        type=_limit,
    )
    rules.add(
        "--discard-ends-turn",
        "discard_ends_turn",
        "variant: discarding your pair ends your turn",
        shown="off",
        action="store_true",
    )
    rules.add(
        "--presum",
        "presum",
        "pre-summing variant: how Quill and Wind pairs of a lot count",
        choices=[p for p in PRESUMS if p],
    )
    rules.add(
        "--twist-any",
        "twist_any",
        "Twists (names or numbers, comma-separated) whose pair removes a pair from any lot",
        type=_twists,
        metavar="TWISTS",
    )
    rules.add(
        "--twist-any-rule",
        "twist_any_rule",
        "whether a --twist-any Twist may or must remove",
        choices=("may", "must"),
    )
    rules.add(
        "--twist-suit",
        "twist_suit",
        "Twists whose pair removes a pair of its Choice suit",
        type=_twists,
        metavar="TWISTS",
    )
    rules.add(
        "--twist-suit-rule",
        "twist_suit_rule",
        "whether a --twist-suit Twist may or must remove",
        choices=("may", "must"),
    )
    rules.add(
        "--round-lots",
        "round_lots",
        "variant: pairs go onto temporary round lots, then onto the round leader's lots",
        shown="off",
        action="store_true",
    )
    rules.add_rule_option()
    return rules


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


class GendeneiaScreen:
    """Draws the lots as one seat sees them, and describes actions in words."""

    def __init__(self, console: Console, game: GendeneiaGame, me: int, labels: list[str]) -> None:
        self.console, self.game, self.me, self.labels = console, game, me, labels

    def who(self, seat: int) -> str:
        return "you" if seat == self.me else f"seat {seat} ({self.labels[seat]})"

    def whose(self, seat: int) -> str:
        return "your" if seat == self.me else f"seat {seat}'s"

    def table(self) -> None:
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
        self.console.print(grid)
        for line in legend(game.config.presum):
            self.console.print(f"[dim]{line}[/dim]")
        choice, force = view.hand
        if choice is not None and force is not None and not game.is_over:
            self.console.print(f"Your pair: [bold]{pair_name(choice, force)}[/bold]")
        if view.pending is not None:
            twist, suit_index, rule = view.pending
            where = "any lot" if suit_index < 0 else f"a {LOT_NAMES[suit_index]} lot"
            self.console.print(
                f"{TWIST_NAMES[twist]} owes a removal: you {rule} remove a pair "
                f"(not a Twist pair) from {where}"
            )
        piles = [" ".join(card_name(c) for c in pile[-8:]) or "-" for pile in view.discards]
        self.console.print(f"Face-up discards (last 8): Choices {piles[0]}; Forces {piles[1]}")

    def describe(self, seat: int, action: GAction, pair: tuple[int, int] | None, removed) -> str:
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


def menu(game: GendeneiaGame, screen: GendeneiaScreen) -> list[tuple[str, int]]:
    """The legal action ids with labels that say what each does to the scores."""
    me, presum = screen.me, game.config.presum
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
                f"play {pair_name(choice, force)} onto {screen.whose(target)} lots "
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
                    f"remove {pair_name(*pair)} from {screen.whose(holder)} lots "
                    f"(score {score} -> {score + change})"
                )
        else:
            label = "remove nothing"
        options.append((label, int(action_id)))
    return options


def play_and_describe(
    game: GendeneiaGame, screen: GendeneiaScreen, seat: int, action_id: int
) -> list[str]:
    """Apply ``seat``'s action and say what it did in public words: the play, discard or
    removal, then any cards a play trumped to the discard piles."""
    action = action_from_id(game, action_id)
    pair = tuple(game.hands[seat]) if action.kind in ("discard", "play") else None
    removed = None
    if action.kind == "remove":
        holder, held = _holder(game, action.card)
        removed = (holder, pair_name(*held))
    before = [list(p.discard) for p in game.piles.values()]
    game.apply(action)
    lines = [screen.describe(seat, action, pair, removed)]
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


class Session:
    """One game: the engine, the bots, the screen and where the record is saved. Building it
    checks every option (``ValueError`` naming the bad one) before any card is dealt."""

    def __init__(
        self, args: argparse.Namespace, prompter: Prompter, console: Console, rules: RuleOptions
    ) -> None:
        config = rules.config(args, args.players)
        set_by = rules.set_by(args)
        for twists in ("twist_any", "twist_suit"):
            option = set_by.get(f"{twists}_rule")
            if option and not getattr(config, twists):
                raise ValueError(f"{option}: applies to the {twists} Twists, and none are set")
        n = config.num_players
        if not 0 <= args.seat < n:
            raise ValueError(f"--seat: must be 0-{n - 1} at a {n}-player table, got {args.seat}")
        self.specs = seat_bots(args.bots, n, args.seat)
        self.bots = make_bots(
            self.specs,
            "gendeneia",
            config,
            args.seed,
            observation_size(config),
            num_actions(config),
            _table_for_size,
        )
        self.path = history_path(
            args.history,
            Path("runs/play") / datetime.datetime.now().strftime("gendeneia-%Y%m%d-%H%M%S.json"),
        )
        self.config, self.me, self.prompter, self.console = config, args.seat, prompter, console
        self.game = GendeneiaGame(config, seed=args.seed)
        labels = [self.specs.get(s, "you") for s in range(n)]
        self.screen = GendeneiaScreen(console, self.game, args.seat, labels)

    def save(self) -> None:
        """Write the game record: one JSON object on one line (a one-record JSON Lines file)."""
        self.path.write_text(json.dumps(game_record(self.game), ensure_ascii=False) + "\n")

    def step(self, seat: int) -> None:
        """One action of the seat to act, then a line saying what it did in public."""
        game = self.game
        if seat == self.me:
            self.screen.table()
            options = menu(game, self.screen)
            action_id = options[self.prompter.choose([label for label, _ in options])][1]
        else:
            observation = encode(game.observe(seat), self.config)
            action_id = as_action_id(self.bots[seat].act(observation, action_mask(game)))
        for line in play_and_describe(game, self.screen, seat, action_id):
            self.console.print(line)

    def run(self) -> None:
        """Play until the game ends or the person leaves; the record is saved every turn."""
        game, console = self.game, self.console
        console.print(
            f"Gendeneía, {self.config.num_players} players; you are seat {self.me}; bots: "
            + ", ".join(f"seat {s} {spec}" for s, spec in self.specs.items())
        )
        try:
            while not game.is_over:
                seat = game.current
                self.step(seat)
                if game.current != seat:
                    self.save()
            self.screen.table()
            winners = ", ".join(self.screen.who(s) for s in game.winners())
            console.print(
                f"[bold]The game is over[/bold] ({game.end_reason}); lowest score: {winners}"
            )
        except (Quit, KeyboardInterrupt):  # q, end of input, or Ctrl-C while a bot thinks
            console.print("Leaving the table.")
        finally:
            self.save()
        console.print(f"the game record is saved to {self.path}")


def _table_for_size(size: int) -> str | None:
    """The table whose observations have ``size`` entries, in words."""
    for n in range(2, 7):
        for round_lots in (False, True):
            if layout(n, round_lots)["size"][0] == size:
                return f"a {n}-player table" + (" with round lots" if round_lots else "")
    return None


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    """Run the program; the exit code (2 for a bad option, via argparse)."""
    parser, rules = build_parser()
    return run_session(functools.partial(Session, rules=rules), parser, argv, stdin)


if __name__ == "__main__":
    raise SystemExit(main())
