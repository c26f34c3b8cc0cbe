"""``decktet play [--game lith|gendeneia] [OPTIONS]``: the terminal game of either game; the
game's own options follow (``decktet play --game gendeneia --help``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]

PROGRAMS = {"lith": "lith_env.play", "gendeneia": "gendeneia_env.play"}


def split_game(argv: Sequence[str]) -> tuple[str, list[str]]:
    """``--game NAME`` (or ``--game=NAME``) taken out of ``argv``: the game (default lith) and
    the rest; ``ValueError`` naming ``--game`` if it is missing its value or is no game."""
    rest, game = [], "lith"
    words = iter(argv)
    for word in words:
        if word == "--game":
            game = next(words, "")
        elif word.startswith("--game="):
            game = word.partition("=")[2]
        else:
            rest.append(word)
    if game not in PROGRAMS:
        raise ValueError(f"--game: must be one of {', '.join(PROGRAMS)}, got {game!r}")
    return game, rest


def main(argv: Sequence[str] | None = None) -> int:
    """Play the game ``--game`` names; a bad ``--game`` exits with status 2."""
    import importlib

    try:
        game, rest = split_game(sys.argv[1:] if argv is None else argv)
    except ValueError as error:
        print(f"usage: decktet play [--game lith|gendeneia] [OPTIONS]\ndecktet play: error: "
              f"{error}", file=sys.stderr)  # fmt: skip
        return 2
    return importlib.import_module(PROGRAMS[game]).main(rest)
