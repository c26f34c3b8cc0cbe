"""Game records: a whole game of Gendeneía as one JSON object, and its replay.

A record holds the rules, the seed and first player (which fix every shuffle), every action,
and the result (each seat's lots as written pairs, scores, winners, reshuffles, rounds, why it
ended). :func:`replay_game` plays the actions on a fresh engine and checks it reaches the
recorded result; a malformed record raises ``ValueError`` naming the field. Every record has
a seed: a game started without one draws it (see :class:`~gendeneia_env.game.GendeneiaGame`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from gendeneia_env.cards import parse_card
from gendeneia_env.game import GAction, GendeneiaConfig, GendeneiaGame
from tablegame.engine import IllegalActionError

__all__ = ["FORMAT", "game_record", "replay_game"]

FORMAT = "gendeneia-game/1"


def game_record(game: GendeneiaGame) -> dict[str, Any]:
    """The JSON-ready record of a game (finished or not)."""
    config = dataclasses.asdict(game.config)
    config["twist_any"] = list(config["twist_any"])
    config["twist_suit"] = list(config["twist_suit"])
    n = game.config.num_players
    return {
        "format": FORMAT,
        "seed": game.seed,
        "first_player": game.first_player,
        "config": config,
        "actions": [dict(a) for a in game.actions],
        "over": game.is_over,
        "end": game.end_reason,
        "rounds": game.round,
        "reshuffles": game.reshuffles,
        "lots": [game.written_lots(s) for s in range(n)],
        "scores": game.scores(),
        "winners": game.winners() if game.is_over else None,
    }


def start_game(record: dict[str, Any]) -> GendeneiaGame:
    """The game a record starts from (its seed's deal), its header checked."""
    if not isinstance(record, dict):
        raise ValueError(f"record: must be a JSON object, got {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise ValueError(f"format: expected {FORMAT!r}, got {record.get('format')!r}")
    for key in ("seed", "first_player", "config", "actions"):
        if key not in record:
            raise ValueError(f"{key}: missing from the record")
    seed = record["seed"]
    if type(seed) is not int:  # a null seed would draw a new one: the shuffles would differ
        raise ValueError(f"seed: must be an integer to replay the game, got {seed!r}")
    try:
        config = GendeneiaConfig(**record["config"])
    except TypeError as error:
        raise ValueError(f"config: {error}") from None
    return GendeneiaGame(config, seed=seed, first_player=record["first_player"])


def replay_game(
    record: dict[str, Any],
    after_step: Callable[[GendeneiaGame, GAction, dict[str, Any]], None] | None = None,
) -> GendeneiaGame:
    """Replay a record's actions from its seed; check the result. Returns the replayed game.
    ``after_step(game, action, entry)``, if given, sees the game after each action."""
    game = start_game(record)
    for i, entry in enumerate(record["actions"]):
        try:
            action = GAction(
                entry["kind"],
                target=entry.get("target"),
                card=parse_card(entry["card"]) if entry.get("card") is not None else None,
            )
            if entry["seat"] != game.current:
                raise ValueError(f"seat {entry['seat']} acts but seat {game.current} is to act")
            game.apply(action)
        except (KeyError, TypeError, ValueError, IllegalActionError) as error:
            raise ValueError(f"actions[{i}]: {error}") from None
        if after_step is not None:
            after_step(game, action, entry)
    replayed = game_record(game)
    for key in ("over", "end", "rounds", "reshuffles", "lots", "scores", "winners"):
        if key in record and record[key] != replayed[key]:
            raise ValueError(
                f"{key}: the replay gives {replayed[key]!r}, the record says {record[key]!r}"
            )
    return game
