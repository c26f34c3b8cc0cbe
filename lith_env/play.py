"""Play Lith against the bots in the terminal.

    python -m lith_env.play --players 4 --bots tag,bluffer,ppo:runs/NAME/model.zip

You sit at one seat (``--seat``, default 0); the bots fill the others in order (the list is
repeated if it is shorter). Each of your turns shows the table — your cards, the pot, every
stack and bet, who discarded and who drew — and a numbered menu of your legal actions. Bots'
cards appear only when the rules show them, at showdown. Every finished hand is saved at once
to the history file (``lith_env.history`` format: ``replay_hand`` replays each record); ``q``
or Ctrl-D leaves and says where it is.
"""

from __future__ import annotations

import argparse
import datetime
import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table

from lith_env.betting import STRUCTURES
from lith_env.cards import CARDS, card_id
from lith_env.encoding import (
    action_from_id,
    action_mask,
    encode,
    layout,
    num_actions,
    observation_size,
)
from lith_env.game import EXCUSE_VARIANTS, Action, LithConfig, LithGame, PlayerView
from lith_env.hands import classify, hand_strength, tie_order
from lith_env.history import save_records
from lith_env.table import seat_status
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

__all__ = ["LithScreen", "main", "menu", "public_label", "read_hand"]

PHASE_NAMES = {"bet": "betting round", "exchange": "exchange"}
QUALIFIER_NOTE = (
    "qualifier, the first tie-break between hands of one category: kindred (all three cards "
    "share a type: Personality, Location or Event) beats fortune (one card of each type) beats "
    "neither (no shared type, and not one of each)"
)


def _name(card: int) -> str:
    return CARDS[card].name


def _bet_sizes(text: str) -> tuple[int, ...]:
    """argparse type of ``--bet-sizes``: whole numbers separated by commas."""
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"three whole numbers separated by commas, such as 2,2,4, got {text!r}"
        ) from None


def build_parser() -> tuple[argparse.ArgumentParser, RuleOptions]:
    """The program's options, and the part of them that sets the rules."""
    parser = argparse.ArgumentParser(
        prog="python -m lith_env.play",
        description=__doc__.split("\n\n")[0],
        epilog="Type the number of a choice; q (or Ctrl-D) leaves and saves the hands played.",
    )
    parser.add_argument(
        "--players", type=int, default=2, help="seats at the table, 2-10 (default: 2)"
    )
    parser.add_argument("--bots", default="tag", help=bots_help("lith", "tag"))
    parser.add_argument(
        "--seat", type=int, default=0, help="your seat, from 0 to players-1 (default: 0)"
    )
    parser.add_argument(
        "--seed",
        type=int_at_least(0),
        default=None,
        help="seed of the deals and the bots, to play the same match again (default: a new "
        "match every time)",
    )
    rules = _rule_options(parser)
    parser.add_argument(
        "--history",
        type=Path,
        default=None,
        help="where to save the finished hands, as JSON Lines "
        "(default: runs/play/lith-DATE-TIME.jsonl)",
    )
    return parser, rules


def _rule_options(parser: argparse.ArgumentParser) -> RuleOptions:
    """The options that set the rules: a flag for the ones people change, --rule for any."""
    rules = RuleOptions(parser, "lith", LithConfig())
    rules.add("--chips", "starting_chips", "starting stack of every seat", type=int)
    rules.add("--ante", "ante", "chips every seat puts in before the deal", type=int)
    rules.add("--betting", "betting", "betting structure", choices=STRUCTURES)
    rules.add(
        "--bet-sizes",
        "bet_sizes",
        "the bet size of each of the three betting rounds: under limit the fixed size, under "
        "pot-limit and no-limit the smallest bet (a game of fewer rounds, --rule rounds=N, "
        "uses the first N)",
        type=_bet_sizes,
        metavar="A,B,C",
    )
    rules.add(
        "--max-raises",
        "max_raises",
        "raises allowed per betting round after the bet (limit betting only)",
        type=int,
    )
    rules.add(
        "--basic",
        "pawns_and_courts",
        "play the basic deck, without the Pawns and Courts",
        shown="off: the extended deck",
        action="store_false",
    )
    rules.add("--excuse", "excuse", "add the Excuse as this variant", choices=EXCUSE_VARIANTS)
    rules.add(
        "--hands",
        "max_hands",
        "stop after this many hands",
        shown="none: until one player holds every chip",
        type=int,
    )
    rules.add_rule_option()
    return rules


# ---------------------------------------------------------------------------------------------
# What the person sees


class LithScreen:
    """Draws the table as one seat sees it, and describes actions in words."""

    def __init__(self, console: Console, config: LithConfig, me: int, labels: list[str]) -> None:
        self.console, self.config, self.me, self.labels = console, config, me, labels

    def who(self, seat: int) -> str:
        return "you" if seat == self.me else f"seat {seat} ({self.labels[seat]})"

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

    def table(self, view: PlayerView, hand_number: int) -> None:
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
        self.console.print(grid)
        self.console.print("Your hand: " + self.hand_line(view.cards))
        self.console.print(f"[dim]{QUALIFIER_NOTE}[/dim]")
        for i, ex in enumerate(view.exchanges):
            if ex.my_discard is None or not ex.resolved:
                continue
            taker = (
                "nobody (to the bottom of the deck)"
                if ex.taken_by is None
                else self.who(ex.taken_by)
            )
            source = "the deck" if ex.received_from is None else self.who(ex.received_from)
            self.console.print(
                f"Exchange {i + 1}: you gave away {_name(ex.my_discard)} (taken by {taker}) "
                f"and received {_name(ex.received)} from {source}"
            )
        if view.phase == "bet" and view.current_player == self.me:
            self.console.print(f"To call: {view.to_call}")

    def result(self, record: dict) -> None:
        """A finished hand: showdown cards (only those the rules show), pots, net chips."""
        if record["showdown"]:
            self.console.print(f"  [dim]{QUALIFIER_NOTE}[/dim]")
        for seat, cards in sorted(record["showdown"].items(), key=lambda kv: int(kv[0])):
            ids = [card_id(name) for name in cards]
            self.console.print(f"  {self.who(int(seat))} shows " + self.hand_line(ids))
        if record["demon"]:
            self.console.print("  the demon coin was flipped")
        for pot in record["pots"]:
            winners = ", ".join(self.who(w) for w in pot["winners"])
            self.console.print(f"  pot of {pot['amount']} to {winners}")
        net = ", ".join(f"{self.who(s)} {v:+d}" for s, v in enumerate(record["net"]) if v)
        self.console.print(f"  result: {net or 'no chips moved'}")
        stacks = ", ".join(f"{self.who(s)} {c}" for s, c in enumerate(record["stacks_after"]))
        self.console.print(f"  stacks: {stacks}")


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


# ---------------------------------------------------------------------------------------------
# Choosing an action


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


def ask_action(prompter: Prompter, game: LithGame, config: LithConfig) -> Action:
    """The person's action from the menu; a custom amount can go back to the menu."""
    options = menu(game, config)
    while True:
        _, action = options[prompter.choose([label for label, _ in options])]
        if action is not None:
            return action
        legal = game.hand.legal_actions()
        amount = prompter.number(f"{legal.raise_kind} to", legal.min_to, legal.max_to, back=True)
        if amount is not None:
            return Action(legal.raise_kind, amount=amount)


# ---------------------------------------------------------------------------------------------
# The session


class Session:
    """One sitting: the match, the bots, the screen and where the hands are saved. Building
    it checks every option (``ValueError`` naming the bad one) before any card is dealt."""

    def __init__(
        self, args: argparse.Namespace, prompter: Prompter, console: Console, rules: RuleOptions
    ) -> None:
        config = rules.config(args, args.players)
        option = rules.set_by(args).get("max_raises")
        if option and config.betting != "limit":
            raise ValueError(
                f"{option}: counts raises under limit betting only, and the betting is "
                f"{config.betting}"
            )
        n = config.num_players
        if not 0 <= args.seat < n:
            raise ValueError(f"--seat: must be 0-{n - 1} at a {n}-player table, got {args.seat}")
        self.specs = seat_bots(args.bots, n, args.seat)
        self.bots = make_bots(
            self.specs,
            "lith",
            config,
            args.seed,
            observation_size(config),
            num_actions(config),
            _table_for_size,
        )
        self.path = history_path(
            args.history,
            Path("runs/play") / datetime.datetime.now().strftime("lith-%Y%m%d-%H%M%S.jsonl"),
        )
        self.config, self.me, self.prompter, self.console = config, args.seat, prompter, console
        self.game = LithGame(config, seed=args.seed, first_dealer=None)
        labels = [self.specs.get(s, "you") for s in range(n)]
        self.screen = LithScreen(console, config, args.seat, labels)

    def run(self) -> None:
        """Play until the match ends or the person leaves; every finished hand is saved."""
        game, screen, console = self.game, self.screen, self.console
        console.print(
            f"Lith, {self.config.num_players} players, {self.config.betting}, "
            f"{rules_in_words(self.config)}; you are seat {self.me}; bots: "
            + ", ".join(f"seat {s} {spec}" for s, spec in self.specs.items())
        )
        if self.config.cards is not None:
            names = ", ".join(_name(c) for c in self.config.cards)
            console.print(f"The deck holds only these {len(self.config.cards)} cards: {names}")
        shown, hands_seen = 0, 0  # public actions of this hand printed; hands finished
        try:
            while not game.is_over:
                seat = game.current_player
                if seat == self.me:
                    screen.table(game.observe(seat), game.hands_played + 1)
                    game.apply(ask_action(self.prompter, game, self.config))
                else:
                    observation = encode(game.observe(seat), self.config)
                    action_id = as_action_id(
                        self.bots[seat].act(observation, action_mask(game.hand))
                    )
                    game.apply(action_from_id(game.hand, action_id))
                if game.hands_played > hands_seen:  # that ended the hand; the next is dealt
                    record = game.records[-1]
                    for action in record["actions"][shown:]:
                        console.print(screen.describe(action))
                    console.print(f"[bold]Hand {game.hands_played} is over.[/bold]")
                    screen.result(record)
                    save_records(game.records, self.path)
                    hands_seen, shown = game.hands_played, 0
                    if not game.is_over:
                        self.prompter.pause("press Enter for the next hand (q to quit) ")
                else:
                    actions = game.observe(self.me).actions
                    for action in actions[shown:]:
                        console.print(screen.describe(action))
                    shown = len(actions)
            winners = ", ".join(screen.who(s) for s in game.winners())
            console.print(
                f"[bold]The match is over[/bold] after {game.hands_played} hands; "
                f"most chips: {winners}"
            )
        except (Quit, KeyboardInterrupt):  # q, end of input, or Ctrl-C while a bot thinks
            console.print("Leaving the table.")
        finally:
            if game.records:
                save_records(game.records, self.path)
        if game.records:
            console.print(f"{len(game.records)} hand(s) saved to {self.path}")
        else:
            console.print(f"no hand was finished, so nothing was saved (would be {self.path})")


def _table_for_size(size: int) -> str | None:
    """The table whose observations have ``size`` entries, in words."""
    players = [n for n in range(2, 11) if layout(n)["size"][0] == size]
    return f"a {players[0]}-player table" if players else None


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    """Run the program; the exit code (2 for a bad option, via argparse)."""
    parser, rules = build_parser()
    return run_session(functools.partial(Session, rules=rules), parser, argv, stdin)


if __name__ == "__main__":
    raise SystemExit(main())
