"""Play Lith against the bots in the terminal.

    decktet play --players 4 --bots tag,bluffer,ppo:runs/NAME/model.zip

You sit at one seat (``--seat``, default 0); the bots fill the others in order (the list is
repeated if it is shorter). Each of your turns shows the table — your cards, the pot, every
stack and bet, who discarded and who drew — and a numbered menu of your legal actions. Bots'
cards appear only when the rules show them, at showdown. Every finished hand is saved at once
to the history file (``lith_env.history`` format: ``replay_hand`` replays each record); ``q``
or Ctrl-D leaves and says where it is.

The session loop is ``tablegame.terminal``'s; the words are ``lith_env.words``.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Mapping, Sequence
from typing import TextIO

from rich.console import RenderableType

from lith_env.betting import STRUCTURES
from lith_env.encoding import (
    action_from_id,
    action_mask,
    encode,
    layout,
    num_actions,
    observation_size,
)
from lith_env.game import EXCUSE_VARIANTS, Action, LithConfig, LithGame
from lith_env.history import save_records
from lith_env.words import LithWords, menu, saved_in_words
from tablegame.agent import Agent
from tablegame.engine import as_action_id
from tablegame.terminal import (
    Played,
    PlaySession,
    Prompter,
    RuleOptions,
    play_parser,
    run_session,
    seating,
)

__all__ = ["LithSession", "build_parser", "main"]


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
    return play_parser(
        "lith",
        prog="decktet play",
        description=__doc__.split("\n\n")[0],
        epilog="Type the number of a choice; q (or Ctrl-D) leaves and saves the hands played.",
        players=(2, 10),
        bots="tag",
        seed_help="seed of the deals and the bots, to play the same match again (default: a "
        "new match every time)",
        rule_options=_rule_options,
        history_help="where to save the finished hands, as JSON Lines "
        "(default: runs/play/lith-DATE-TIME.jsonl)",
    )


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


class LithSession(PlaySession):
    """A match: hands follow one another, each saved as soon as it ends."""

    game = "lith"
    history_name = "lith-%Y%m%d-%H%M%S.jsonl"

    def check(self, config: LithConfig, set_by: Mapping[str, str]) -> None:
        option = set_by.get("max_raises")
        if option and config.betting != "limit":
            raise ValueError(
                f"{option}: counts raises under limit betting only, and the betting is "
                f"{config.betting}"
            )

    def spaces(self, config: LithConfig) -> tuple[int, int]:
        return observation_size(config), num_actions(config)

    def table_for_size(self, size: int) -> str | None:
        players = [n for n in range(2, 11) if layout(n)["size"][0] == size]
        return f"a {players[0]}-player table" if players else None

    def deal(self, seed: int | None) -> None:
        self.engine = LithGame(self.config, seed=seed, first_dealer=None)
        self.words = LithWords(self.config, self.me, self.labels)
        self.shown = 0  # public actions of this hand printed

    def intro(self) -> Sequence[RenderableType]:
        return self.words.intro(seating(self.me, self.specs))

    def is_over(self) -> bool:
        return self.engine.is_over

    def to_act(self) -> int:
        return self.engine.current_player

    def table(self) -> Sequence[RenderableType]:
        return self.words.table(self.engine.observe(self.me), self.engine.hands_played + 1)

    def ask(self) -> Action:
        return ask_action(self.prompter, self.engine, self.config)

    def bot_move(self, seat: int, bot: Agent) -> Action:
        game = self.engine
        observation = encode(game.observe(seat), self.config)
        action_id = as_action_id(bot.act(observation, action_mask(game.hand)))
        return action_from_id(game.hand, action_id)

    def play(self, seat: int, move: Action) -> Played:
        game, words, before = self.engine, self.words, self.engine.hands_played
        game.apply(move)
        if game.hands_played > before:  # that ended the hand; the next is dealt
            record = game.records[-1]
            lines = [words.describe(action) for action in record["actions"][self.shown :]]
            self.shown = 0
            return Played(
                [*lines, *words.hand_over(record, game.hands_played)], save=True, hand_over=True
            )
        actions = game.observe(self.me).actions
        lines = [words.describe(action) for action in actions[self.shown :]]
        self.shown = len(actions)
        return Played(lines)

    def closing(self) -> Sequence[RenderableType]:
        return self.words.match_over(self.engine)

    def save(self) -> None:
        if self.engine.records:
            save_records(self.engine.records, self.path)

    def saved(self) -> str:
        return saved_in_words(len(self.engine.records), self.path)


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    """Run the program; the exit code (2 for a bad option, via argparse)."""
    parser, rules = build_parser()
    return run_session(functools.partial(LithSession, rules=rules), parser, argv, stdin)


if __name__ == "__main__":
    raise SystemExit(main())
