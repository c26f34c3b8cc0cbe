"""Asking a person at the terminal: numbered menus that re-ask on bad input, and a clean way out.

The games' ``play`` programs (``python -m lith_env.play``, ``python -m gendeneia_env.play``)
read answers with :class:`Prompter`. Typing ``q`` or closing the input (Ctrl-D) raises
:class:`Quit`, which the programs catch to save the session and say where.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TextIO

from rich.console import Console

__all__ = ["Prompter", "Quit", "run_session", "seat_bots"]

QUIT_WORDS = ("q", "quit", "exit")


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

    def number(self, what: str, low: int, high: int) -> int:
        """An integer from ``low`` to ``high``."""
        while True:
            answer = self._read(f"{what} ({low}-{high}, q to quit): ")
            try:
                value = int(answer)
            except ValueError:
                value = None
            if value is not None and low <= value <= high:
                return value
            self.console.print(f"[red]{answer!r} is not a whole number from {low} to {high}[/red]")

    def pause(self, prompt: str = "press Enter to go on (q to quit) ") -> None:
        self._read(prompt)


def seat_bots(specs: str, players: int, me: int) -> dict[int, str]:
    """The agent spec at every seat but ``me``: the list in seat order, repeated if short."""
    names = [s.strip() for s in specs.split(",") if s.strip()]
    if not names:
        raise ValueError("bots: give at least one agent spec, e.g. --bots tag,bluffer")
    if len(names) > players - 1:
        raise ValueError(f"bots: {len(names)} given for {players - 1} seats: {specs!r}")
    others = [s for s in range(players) if s != me]
    return {seat: names[i % len(names)] for i, seat in enumerate(others)}


def run_session(session_type: type, args: Any, stdin: TextIO | None = None) -> int:
    """Build a play session from parsed options and run it; a bad option (``ValueError``
    while building, before any deal) is printed and gives exit code 2."""
    console = Console(highlight=False, soft_wrap=True)  # long lines wrap in the terminal
    try:
        session = session_type(args, Prompter(console, stdin), console)
    except ValueError as error:
        console.print(f"[red]error:[/red] {error}")
        return 2
    session.run()
    return 0
