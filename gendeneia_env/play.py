"""Play Gendeneía against the bots in the terminal.

    decktet play --game gendeneia --players 3 --bots greedy,spoiler

You sit at one seat (``--seat``, default 0); the bots fill the others in order (the list is
repeated if it is shorter). Each of your turns shows every player's lots as written pairs, the
lot values and scores (lowest wins), your pair, the piles and any removal owed, and a numbered
menu of your legal actions with what each would do to the scores. The game is saved after every
turn as a game record (``gendeneia_env.history`` format: ``replay_game`` replays it); ``q`` or
Ctrl-D leaves and says where it is.

The session loop is ``tablegame.terminal``'s; the words are ``gendeneia_env.words``.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Mapping, Sequence
from typing import TextIO

from rich.console import RenderableType

from gendeneia_env.cards import TWIST_NAMES
from gendeneia_env.encoding import (
    action_mask,
    encode,
    layout,
    num_actions,
    observation_size,
)
from gendeneia_env.game import GendeneiaConfig, GendeneiaGame
from gendeneia_env.history import game_record
from gendeneia_env.scoring import PRESUMS
from gendeneia_env.words import GendeneiaWords, menu, play_and_describe, saved_in_words
from tablegame.agent import Agent
from tablegame.engine import as_action_id
from tablegame.terminal import (
    Played,
    PlaySession,
    RuleOptions,
    play_parser,
    run_session,
    seating,
)

__all__ = ["GendeneiaSession", "build_parser", "main"]


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
    return play_parser(
        "gendeneia",
        prog="decktet play --game gendeneia",
        description=__doc__.split("\n\n")[0],
        epilog="Twists by name or number: "
        + ", ".join(f"{i} {n}" for i, n in enumerate(TWIST_NAMES))
        + ". Type the number of a choice; q (or Ctrl-D) leaves and saves the game.",
        players=(3, 6),
        bots="greedy",
        seed_help="seed of the shuffles and the bots, to play the same game again (default: a "
        "new game every time)",
        rule_options=_rule_options,
        history_help="where to save the game record, one JSON object on one line "
        "(default: runs/play/gendeneia-DATE-TIME.json)",
    )


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


class GendeneiaSession(PlaySession):
    """A game, its record saved after every turn."""

    game = "gendeneia"
    history_name = "gendeneia-%Y%m%d-%H%M%S.json"

    def check(self, config: GendeneiaConfig, set_by: Mapping[str, str]) -> None:
        for twists in ("twist_any", "twist_suit"):
            option = set_by.get(f"{twists}_rule")
            if option and not getattr(config, twists):
                raise ValueError(f"{option}: applies to the {twists} Twists, and none are set")

    def spaces(self, config: GendeneiaConfig) -> tuple[int, int]:
        return observation_size(config), num_actions(config)

    def table_for_size(self, size: int) -> str | None:
        for n in range(2, 7):
            for round_lots in (False, True):
                if layout(n, round_lots)["size"][0] == size:
                    return f"a {n}-player table" + (" with round lots" if round_lots else "")
        return None

    def deal(self, seed: int | None) -> None:
        self.engine = GendeneiaGame(self.config, seed=seed)
        self.words = GendeneiaWords(self.engine, self.me, self.labels)

    def intro(self) -> Sequence[RenderableType]:
        return self.words.intro(seating(self.me, self.specs))

    def is_over(self) -> bool:
        return self.engine.is_over

    def to_act(self) -> int:
        return self.engine.current

    def table(self) -> Sequence[RenderableType]:
        return self.words.table()

    def ask(self) -> int:
        options = menu(self.engine, self.words)
        return options[self.prompter.choose([label for label, _ in options])][1]

    def bot_move(self, seat: int, bot: Agent) -> int:
        observation = encode(self.engine.observe(seat), self.config)
        return as_action_id(bot.act(observation, action_mask(self.engine)))

    def play(self, seat: int, move: int) -> Played:
        lines = play_and_describe(self.engine, self.words, seat, move)
        return Played(lines, save=self.engine.current != seat)

    def closing(self) -> Sequence[RenderableType]:
        return self.words.game_over()

    def save(self) -> None:
        """Write the game record: one JSON object on one line (a one-record JSON Lines file)."""
        self.path.write_text(json.dumps(game_record(self.engine), ensure_ascii=False) + "\n")

    def saved(self) -> str:
        return saved_in_words(self.path)


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    """Run the program; the exit code (2 for a bad option, via argparse)."""
    parser, rules = build_parser()
    return run_session(functools.partial(GendeneiaSession, rules=rules), parser, argv, stdin)


if __name__ == "__main__":
    raise SystemExit(main())
