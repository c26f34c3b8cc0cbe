"""Hand histories: every hand as one JSON record, and its replay through the engine.

A record holds the table rules, the hand's seed, dealer, starting stacks, the whole deck order
(top first), the cards dealt, every action and exchange, the showdown, the pots and their
winners, and each seat's net result. :func:`replay_hand` plays the recorded actions on a fresh
engine and checks that it reaches the recorded result; a malformed or inconsistent record
raises ``ValueError`` naming the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lith_env.cards import CARDS, card_id
from lith_env.game import NUM_ROUNDS

if TYPE_CHECKING:
    from lith_env.game import LithConfig, LithHand

__all__ = ["FORMAT", "config_json", "hand_record", "load_records", "replay_hand", "save_records"]

FORMAT = "lith-hand/1"
_CONFIG_FIELDS = (
    "num_players",
    "betting",
    "bet_sizes",
    "max_raises",
    "pawns_and_courts",
    "excuse",
    "ante",
)


def _names(cards: Iterable[int]) -> list[str]:
    return [CARDS[c].name for c in cards]


def config_json(config: LithConfig) -> dict[str, Any]:
    """The rules as a record's ``config``. ``rounds`` and ``cards`` (as card names) are written
    only when they differ from the defaults (3 rounds, the whole deck), so a record of the
    standard game reads as before and a record without them is one of the standard game."""
    out = {name: getattr(config, name) for name in _CONFIG_FIELDS}
    out["bet_sizes"] = list(out["bet_sizes"])
    if config.rounds != NUM_ROUNDS:
        out["rounds"] = config.rounds
    if config.cards is not None:
        out["cards"] = _names(config.cards)
    return out


def hand_record(hand: LithHand, seed: int | None = None, index: int = 0) -> dict[str, Any]:
    """The JSON-ready record of a finished hand."""
    if not hand.is_over:
        raise ValueError("hand_record: the hand is not over yet")
    config = config_json(hand.config)
    dealt = [
        _names(hand_cards) if hand.dealt_in[s] else None
        for s, hand_cards in enumerate(_initial_cards(hand))
    ]
    return {
        "format": FORMAT,
        "hand": index,
        "seed": seed,
        "config": config,
        "dealer": hand.dealer,
        "stacks": list(hand.start_stacks),
        "deck": _names(hand.deck_order),
        "demon_heads": hand.demon_heads,
        "cards": dealt,
        "actions": [dict(a) for a in hand.actions],
        "exchanges": [
            {
                "discards": {
                    str(s): (CARDS[c].name if c is not None else None)
                    for s, c in log.discards.items()
                },
                "received": {
                    str(s): {"card": CARDS[c].name, "from": "deck" if src is None else src}
                    for s, (c, src) in log.received.items()
                },
                "to_bottom": _names(log.to_bottom),
            }
            for log in hand.exchanges
        ],
        "showdown": {str(s): _names(c) for s, c in hand.showdown.items()},
        "demon": hand.demon_used,
        "pots": [
            {"amount": p.amount, "eligible": list(p.eligible), "winners": list(w)}
            for p, w in zip(hand.pots, hand.pot_winners, strict=True)
        ],
        "net": hand.net(),
        "stacks_after": list(hand.stacks),
    }


def _initial_cards(hand: LithHand) -> list[list[int]]:
    """The three cards each seat was dealt: one at a time from the top, left of dealer first."""
    cards: list[list[int]] = [[] for _ in range(hand.n)]
    order = hand.seats_from_left_of_dealer()
    top = iter(hand.deck_order)
    for _ in range(3):
        for seat in order:
            cards[seat].append(next(top))
    return cards


def replay_hand(record: dict[str, Any]) -> LithHand:
    """Play a record's actions on a fresh engine; check it reaches the recorded result.

    Returns the replayed hand. Raises ``ValueError`` naming the field of a malformed record or
    the first point where the replay departs from it: every field of the format is checked
    (the action log entry by entry); fields the format does not have (a tournament's
    ``agents``) are left alone. The deal is replayed from the recorded deck order; ``seed``
    says where that deal came from and is not checked against it (matches and tournaments
    derive their decks from seeds in different ways).
    """
    from lith_env.game import Action, IllegalActionError, LithConfig, LithHand

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
            recorded_config["cards"] = _names(config.cards)
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
