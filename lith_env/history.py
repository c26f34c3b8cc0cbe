"""Hand histories: every hand as one JSON record, and its replay through the engine.

A record holds the table rules, the hand's seed, dealer, starting stacks, the whole deck order
(top first), the cards dealt, every action and exchange, the showdown, the pots and their
winners, and each seat's net result. :func:`replay_hand` plays the recorded actions on a fresh
engine and checks that it reaches the recorded result; a malformed or inconsistent record
raises ``ValueError`` naming the field.

The engine writes the records (``lith_env.game.hand_record``: a match keeps those of its
finished hands), so they come from there; this module saves, loads and replays them, and
names the whole format.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lith_env.cards import card_id
from lith_env.game import (
    NUM_ROUNDS,
    Action,
    IllegalActionError,
    LithConfig,
    LithHand,
    config_json,
    hand_record,
)
from lith_env.game import RECORD_FORMAT as FORMAT

__all__ = ["FORMAT", "config_json", "hand_record", "load_records", "replay_hand", "save_records"]


def replay_hand(record: dict[str, Any]) -> LithHand:
    """Play a record's actions on a fresh engine; check it reaches the recorded result.

    Returns the replayed hand. Raises ``ValueError`` naming the field of a malformed record or
    the first point where the replay departs from it: every field of the format is checked
    (the action log entry by entry); fields the format does not have (a tournament's
    ``agents``) are left alone. The deal is replayed from the recorded deck order; ``seed``
    says where that deal came from and is not checked against it (matches and tournaments
    derive their decks from seeds in different ways).
    """
    if not isinstance(record, dict):
        raise ValueError(f"record: must be a JSON object, got {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise ValueError(f"format: expected {FORMAT!r}, got {record.get('format')!r}")
    for key in ("config", "dealer", "stacks", "deck", "actions"):
        if key not in record:
            raise ValueError(f"{key}: missing from the record")
    try:
        config = LithConfig(**record["config"], starting_chips=1)
    except TypeError as error:
        raise ValueError(f"config: {error}") from None
    # Written only when not the default; given as names or ids, in any order.
    recorded_config = dict(record["config"])
    if recorded_config.get("rounds") == NUM_ROUNDS:
        del recorded_config["rounds"]
    if "cards" in recorded_config:
        if config.cards is None:
            del recorded_config["cards"]
        else:
            recorded_config["cards"] = config_json(config)["cards"]
    try:
        deck_order = [card_id(name) for name in record["deck"]]
    except (ValueError, TypeError) as error:
        raise ValueError(f"deck: {error}") from None
    demon_heads = record.get("demon_heads", False)
    if not isinstance(demon_heads, bool):
        raise ValueError(f"demon_heads: must be true or false, got {demon_heads!r}")
    if not isinstance(record["actions"], list):
        raise ValueError(f"actions: must be a list, got {type(record['actions']).__name__}")
    index, seed = record.get("hand", 0), record.get("seed")
    if not (type(index) is int and index >= 0):
        raise ValueError(f"hand: must be the hand's number (0, 1, ...), got {index!r}")
    if not (seed is None or type(seed) is int):
        raise ValueError(f"seed: must be an integer or null, got {seed!r}")
    hand = LithHand(config, record["stacks"], record["dealer"], deck_order, demon_heads)
    for i, entry in enumerate(record["actions"]):
        if not isinstance(entry, dict):
            raise ValueError(f"actions[{i}]: must be an object, got {entry!r}")
        try:
            action = Action(
                entry["kind"],
                amount=entry.get("amount"),
                card=card_id(entry["card"]) if entry.get("card") is not None else None,
            )
            if entry["seat"] != hand.current:
                raise ValueError(f"seat {entry['seat']} acts but seat {hand.current} is to act")
            hand.apply(action)
        except (KeyError, TypeError, ValueError, IllegalActionError) as error:
            raise ValueError(f"actions[{i}]: {error}") from None
    if not hand.is_over:
        raise ValueError("actions: the hand is not over after the recorded actions")
    replayed = hand_record(hand, seed=seed, index=index)
    for key, value in replayed.items():  # every field of the format; extra fields are kept
        if key not in record:
            raise ValueError(f"{key}: missing from the record")
        if key == "actions":  # the log as the engine writes it: chips, phases and rounds too
            for i, (recorded, logged) in enumerate(zip(record[key], value, strict=True)):
                if not _same_json(recorded, logged):
                    raise ValueError(
                        f"actions[{i}]: the replay logs {logged!r}, the record says {recorded!r}"
                    )
        elif key == "config":
            if not _same_json(recorded_config, value):
                raise ValueError(
                    f"config: the replay gives {value!r}, the record says {record[key]!r}"
                )
        elif not _same_json(record[key], value):
            raise ValueError(f"{key}: the replay gives {value!r}, the record says {record[key]!r}")
    return hand


def _same_json(recorded: Any, replayed: Any) -> bool:
    """Equal as JSON: the same values of the same JSON types (``true`` is not ``1``)."""
    try:
        return json.dumps(recorded, sort_keys=True) == json.dumps(replayed, sort_keys=True)
    except (TypeError, ValueError):  # not JSON at all
        return False


def save_records(records: Iterable[dict[str, Any]], path: str | Path) -> None:
    """Write records as JSON Lines, one hand a line."""
    with open(path, "w") as f:
        for record in records:
            f.write(json.dumps(record) + "\n")


def load_records(path: str | Path) -> list[dict[str, Any]]:
    """Read records written by :func:`save_records`."""
    records = []
    with open(path) as f:
        for line_number, line in enumerate(f, 1):
            if line.strip():
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError as error:
                    raise ValueError(f"{path}:{line_number}: not a JSON record ({error})") from None
    return records
