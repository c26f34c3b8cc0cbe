"""The games' terminal programs, once: the options, the session loop, and asking a person.

A game's program (``decktet play``, ``decktet play --game gendeneia``) builds its
options with :func:`play_parser` (the seats, the bots, the seed, its rules, where to save) and
subclasses :class:`PlaySession` with its engine, its words and how it saves; :func:`run_session`
runs it. The session checks every option before any card is dealt, deals, shows the person's
table and menu at their turns, plays the bots' turns, prints what happened in public words and
the screen that closes each hand, and saves as it goes.

Answers are read with :class:`Prompter`: numbered menus that re-ask on bad input. Typing ``q``
or closing the input (Ctrl-D) raises :class:`Quit`; the session then leaves the table, saves
and says where.

Rule options are built with :class:`RuleOptions` (a flag for some rules, ``--rule key=value``
for every rule, one rule set twice is an error), the bots with :func:`make_bots` (an unknown
agent, or a trained model that does not fit the table, is an error), and :func:`run_session`
turns any bad option into argparse's error: a message naming the option, exit code 2, no
traceback, nothing of the table shown.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TextIO

from rich.console import Console, RenderableType

from tablegame.agent import Agent
from tablegame.cli import int_at_least
from tablegame.registry import agent_names, make_agent
from tablegame.rules import make_config, parse_rules, rule_names

__all__ = [
    "PlaySession",
    "Played",
    "Prompter",
    "Quit",
    "RuleOptions",
    "bots_help",
    "history_path",
    "make_bots",
    "play_parser",
    "run_session",
    "seat_bots",
    "seating",
]

QUIT_WORDS = ("q", "quit", "exit")
BACK_WORDS = ("", "b", "back")


class Quit(Exception):  # noqa: N818 - a request, not an error
    """The person asked to leave (``q``, or end of input)."""


class Prompter:
    """Reads answers from ``stream`` (standard input by default) and writes to ``console``."""

    def __init__(self, console: Console, stream: TextIO | None = None) -> None:
        self.console = console
        self.stream = stream if stream is not None else sys.stdin

    def _read(self, prompt: str) -> str:
        self.console.print(prompt, end="")
        try:
            line = self.stream.readline()
        except KeyboardInterrupt:
            raise Quit from None
        if not line:  # end of input
            self.console.print()
            raise Quit
        answer = line.strip()
        if not (self.stream.isatty() if hasattr(self.stream, "isatty") else False):
            self.console.print(answer)  # echo scripted answers so the transcript reads well
        if answer.lower() in QUIT_WORDS:
            raise Quit
        return answer

    def choose(self, options: Sequence[str], title: str = "Your move") -> int:
        """Show ``options`` numbered from 1 and return the index (from 0) of the one chosen."""
        self.console.print(f"[bold]{title}:[/bold]")
        for number, text in enumerate(options, start=1):
            self.console.print(f"  [cyan]{number}[/cyan]  {text}")
        while True:
            answer = self._read(f"choose 1-{len(options)} (q to quit): ")
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return int(answer) - 1
            self.console.print(
                f"[red]{answer!r} is not one of the choices[/red]; the legal choices are "
                + ", ".join(f"{i} ({text})" for i, text in enumerate(options, start=1))
            )

    def number(self, what: str, low: int, high: int, back: bool = False) -> int | None:
        """An integer from ``low`` to ``high``. With ``back``, an empty answer or ``b`` returns
        ``None``: the person wants the previous menu again."""
        way_back = "; Enter or b: back to the menu" if back else ""
        while True:
            answer = self._read(f"{what} ({low}-{high}{way_back}; q to quit): ")
            if back and answer.lower() in BACK_WORDS:
                return None
            try:
                value = int(answer)
            except ValueError:
                value = None
            if value is not None and low <= value <= high:
                return value
            self.console.print(f"[red]{answer!r} is not a whole number from {low} to {high}[/red]")

    def pause(self, prompt: str = "press Enter to go on (q to quit) ") -> None:
        self._read(prompt)


# ---------------------------------------------------------------------------------------------
# Options


def _shown(value: Any) -> str:
    """A config default as a person would type it on the command line."""
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value) or "none"
    return str(value)


def _rule_default(name: str, value: Any) -> str:
    """A rule's default as ``--rule`` help lists it (``ante=1``, ``excuse unset``)."""
    if value is None:
        return f"{name} unset"
    if value == ():
        return f"{name} empty"
    return f"{name}={_shown(value)}"


class RuleOptions:
    """The options of a play program that set the game's rules.

    A rule flag stores under its config field and has no default in the parsed options, so
    only the flags given appear there; its help shows the config's default. ``--rule
    key=value`` sets any rule of the game. :meth:`config` builds the game's config and turns
    every problem into a ``ValueError`` naming the option.
    """

    def __init__(self, parser: argparse.ArgumentParser, game: str, defaults: Any) -> None:
        self.parser, self.game, self.defaults = parser, game, defaults
        self.flags: dict[str, str] = {"num_players": "--players"}  # config field -> its flag

    def add(
        self, flag: str, field: str, text: str, shown: str | None = None, **kwargs: Any
    ) -> None:
        """A flag for the rule ``field``; ``shown``: its default in words, if not the config's."""
        default = _shown(getattr(self.defaults, field)) if shown is None else shown
        self.flags[field] = flag
        if "action" not in kwargs and "choices" not in kwargs:
            kwargs.setdefault("metavar", flag.lstrip("-").upper().replace("-", "_"))
        self.parser.add_argument(
            flag,
            dest=field,
            default=argparse.SUPPRESS,
            help=f"{text} (default: {default})",
            **kwargs,
        )

    def add_rule_option(self) -> None:
        """``--rule key=value``, repeatable; call after the rule flags."""
        defaults = ", ".join(
            _rule_default(name, getattr(self.defaults, name))
            for name in rule_names(type(self.defaults))
        )
        self.parser.add_argument(
            "--rule",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="set a rule of the game; repeat for several. A rule set by its own flag "
            f"cannot be set again here. The rules and their defaults: {defaults}",
        )

    def config(self, args: argparse.Namespace, num_players: int) -> Any:
        """The game's config from the rule flags given and the ``--rule`` options."""
        given = {field: getattr(args, field) for field in self.flags if hasattr(args, field)}
        rules = parse_rules(args.rule, type(self.defaults))
        keys = [text.partition("=")[0].strip() for text in args.rule]
        for key in rules:
            if keys.count(key) > 1:
                raise ValueError(f"--rule {key}: given {keys.count(key)} times; give it once")
            if key in given:
                raise ValueError(f"{self.flags[key]} and --rule {key} both set {key}; give it once")
        try:
            return make_config(type(self.defaults), num_players, {**given, **rules})
        except ValueError as error:
            raise ValueError(self._name_option(str(error), args)) from None

    def set_by(self, args: argparse.Namespace) -> dict[str, str]:
        """The rules the person set, each with the option that set it (``--chips``,
        ``--rule ante``); rules left at their defaults are not in it."""
        options = {field: flag for field, flag in self.flags.items() if hasattr(args, field)}
        for text in args.rule:
            key = text.partition("=")[0].strip()
            options[key] = f"--rule {key}"
        return options

    def _name_option(self, message: str, args: argparse.Namespace) -> str:
        """A config error (``"field: why"``) as the option that set the field says it."""
        field, sep, why = message.partition(":")
        option = self.set_by(args).get(field) or self.flags.get(field)
        return f"{option}:{why}" if sep and option else message


def bots_help(game: str, default: str) -> str:
    """The help text of ``--bots``, listing the built-in agents."""
    return (
        "comma-separated agent specs for the other seats, in seat order, the list repeated if "
        f"it is short. Built-in agents: {', '.join(agent_names(game))}; name:key=value sets a "
        f"parameter, ppo:PATH plays a trained model, solved:PATH a solved strategy (default: "
        f"{default})"
    )


def seat_bots(specs: str, players: int, me: int) -> dict[int, str]:
    """The agent spec at every seat but ``me``: the list in seat order, repeated if short."""
    names = [s.strip() for s in specs.split(",") if s.strip()]
    if not names:
        raise ValueError("--bots: give at least one agent spec, e.g. --bots tag,bluffer")
    if len(names) > players - 1:
        raise ValueError(f"--bots: {len(names)} given for {players - 1} seats: {specs!r}")
    others = [s for s in range(players) if s != me]
    return {seat: names[i % len(names)] for i, seat in enumerate(others)}


def make_bots(
    specs: Mapping[int, str],
    game: str,
    config: Any,
    seed: int | None,
    observation_size: int,
    num_actions: int,
    table_for_size: Callable[[int], str | None] = lambda size: None,
) -> dict[int, Agent]:
    """The bot at every seat of ``specs``, reset with its seed. An unknown agent, or a model
    whose observation or action space is not this table's, is a ``ValueError`` naming the
    seat; ``table_for_size`` names the table an observation size belongs to, for the message."""
    bots: dict[int, Agent] = {}
    for seat, spec in specs.items():
        try:
            bot = make_agent(spec, game, config=config)
        except ValueError as error:
            raise ValueError(f"--bots: seat {seat}: {error}") from None
        misfits = getattr(bot, "misfits", None)  # model-backed bots (ppo) say what differs
        problems = misfits(observation_size, num_actions) if misfits else []
        if problems:
            size = problems[0][1]
            trained = table_for_size(size) if problems[0][0] == "observation" else None
            raise ValueError(
                f"--bots: seat {seat}: the model of {spec!r} does not fit this table: it takes "
                + " and ".join(
                    f"{what}s of size {theirs} where this table has {ours}"
                    for what, theirs, ours in problems
                )
                + (f" (its observations are those of {trained})" if trained else "")
                + "; a trained model plays only the player count and rules it was trained for"
            )
        bot.reset(seed=None if seed is None else seed * 100 + seat)
        bots[seat] = bot
    return bots


def history_path(given: Path | None, default: Path) -> Path:
    """Where the session is saved: ``--history`` or ``default``. Its folder is made now, so a
    path that cannot be written is an error before the game rather than after a hand."""
    path = given if given is not None else default
    if path.is_dir():
        raise ValueError(f"--history: {str(path)!r} is a folder; give a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"--history: cannot make the folder of {str(path)!r}: {error}") from None
    if not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"--history: {str(path)!r} cannot be written")
    return path


def play_parser(
    game: str,
    *,
    prog: str,
    description: str,
    epilog: str,
    players: tuple[int, int],
    bots: str,
    seed_help: str,
    rule_options: Callable[[argparse.ArgumentParser], RuleOptions],
    history_help: str,
) -> tuple[argparse.ArgumentParser, RuleOptions]:
    """A play program's options: ``--players`` (``players``: the default and the most),
    ``--bots``, ``--seat``, ``--seed``, the rules ``rule_options`` adds, then ``--history``.
    Returns the parser and the part of it that sets the rules."""
    parser = argparse.ArgumentParser(prog=prog, description=description, epilog=epilog)
    default, most = players
    parser.add_argument(
        "--players", type=int, default=default,
        help=f"seats at the table, 2-{most} (default: {default})",
    )  # fmt: skip
    parser.add_argument("--bots", default=bots, help=bots_help(game, bots))
    parser.add_argument(
        "--seat", type=int, default=0, help="your seat, from 0 to players-1 (default: 0)"
    )
    parser.add_argument("--seed", type=int_at_least(0), default=None, help=seed_help)
    rules = rule_options(parser)
    parser.add_argument("--history", type=Path, default=None, help=history_help)
    return parser, rules


def seating(me: int, specs: Mapping[int, str]) -> str:
    """Who sits where, as a session's first line says it."""
    return f"you are seat {me}; bots: " + ", ".join(f"seat {s} {spec}" for s, spec in specs.items())


# ---------------------------------------------------------------------------------------------
# The session


@dataclass
class Played:
    """What a move did: the lines saying it in public words, whether the game's file is to be
    saved now, and whether it ended a hand (the person then asks for the next one)."""

    lines: Sequence[RenderableType] = ()
    save: bool = False
    hand_over: bool = False


class PlaySession(ABC):
    """One sitting at the terminal against the bots. Building it checks every option (a
    ``ValueError`` naming the bad one) before any card is dealt; :meth:`run` plays until the
    game ends or the person leaves, and saves.

    A game fills in the hooks: its checks of the options, its spaces (for the bots' models),
    its engine, what the person sees and is asked, a bot's move, a move played and said in
    words, the closing screen, and how and where the game is saved."""

    game: ClassVar[str]  # the game's name for agents ("lith")
    history_name: ClassVar[str]  # the default file under runs/play, a strftime pattern

    def __init__(
        self, args: argparse.Namespace, prompter: Prompter, console: Console, rules: RuleOptions
    ) -> None:
        config = rules.config(args, args.players)
        self.check(config, rules.set_by(args))
        n = config.num_players
        if not 0 <= args.seat < n:
            raise ValueError(f"--seat: must be 0-{n - 1} at a {n}-player table, got {args.seat}")
        self.specs = seat_bots(args.bots, n, args.seat)
        self.bots = make_bots(
            self.specs, self.game, config, args.seed, *self.spaces(config), self.table_for_size
        )
        self.path = history_path(
            args.history,
            Path("runs/play") / datetime.datetime.now().strftime(self.history_name),
        )
        self.config, self.me, self.prompter, self.console = config, args.seat, prompter, console
        self.labels = [self.specs.get(s, "you") for s in range(n)]
        self.deal(args.seed)

    # --------------------------------------------------------------------- the game's hooks

    def check(self, config: Any, set_by: Mapping[str, str]) -> None:  # noqa: B027 - optional
        """Refuse options that would change nothing (``set_by``: rule -> the option that set
        it) with a ``ValueError`` naming the option; none by default."""

    @abstractmethod
    def spaces(self, config: Any) -> tuple[int, int]:
        """The table's observation size and number of actions."""

    def table_for_size(self, size: int) -> str | None:
        """The table whose observations have ``size`` entries, in words, if any."""
        return None

    @abstractmethod
    def deal(self, seed: int | None) -> None:
        """Build the engine (and the words) from ``self.config`` and ``seed``."""

    @abstractmethod
    def intro(self) -> Sequence[RenderableType]:
        """The lines that open the session."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def to_act(self) -> int: ...

    @abstractmethod
    def table(self) -> Sequence[RenderableType]:
        """The table as the person sees it at their turn."""

    @abstractmethod
    def ask(self) -> Any:
        """The person's move, asked with ``self.prompter``."""

    @abstractmethod
    def bot_move(self, seat: int, bot: Agent) -> Any:
        """The move of the bot at ``seat``, from what that seat observes."""

    @abstractmethod
    def play(self, seat: int, move: Any) -> Played:
        """Apply ``seat``'s move and say what happened."""

    @abstractmethod
    def closing(self) -> Sequence[RenderableType]:
        """The screen of a game played to its end."""

    @abstractmethod
    def save(self) -> None:
        """Write what there is to keep to ``self.path``."""

    @abstractmethod
    def saved(self) -> str:
        """The last line: what was saved, and where."""

    # --------------------------------------------------------------------- the loop

    def show(self, lines: Sequence[RenderableType]) -> None:
        """Print ``lines`` (text with rich markup, or tables) one after another."""
        for line in lines:
            self.console.print(line)

    def run(self) -> None:
        """Play until the game ends or the person leaves; save as the game asks, and at the
        end whatever happens."""
        self.show(self.intro())
        try:
            while not self.is_over():
                seat = self.to_act()
                if seat == self.me:
                    self.show(self.table())
                    move = self.ask()
                else:
                    move = self.bot_move(seat, self.bots[seat])
                played = self.play(seat, move)
                self.show(played.lines)
                if played.save:
                    self.save()
                if played.hand_over and not self.is_over():
                    self.prompter.pause("press Enter for the next hand (q to quit) ")
            self.show(self.closing())
        except (Quit, KeyboardInterrupt):  # q, end of input, or Ctrl-C while a bot thinks
            self.console.print("Leaving the table.")
        finally:
            self.save()
        self.console.print(self.saved())


def run_session(
    session_type: Callable[[argparse.Namespace, Prompter, Console], PlaySession],
    parser: argparse.ArgumentParser,
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
) -> int:
    """Parse the options, build a play session and run it. A bad option (argparse's own, or
    a ``ValueError`` while building, before any deal) is ``parser.error``: the message on
    standard error, exit code 2."""
    args = parser.parse_args(argv)
    console = Console(highlight=False, soft_wrap=True)  # long lines wrap in the terminal
    try:
        session = session_type(args, Prompter(console, stdin), console)
    except ValueError as error:
        parser.error(str(error))
    session.run()
    return 0
