"""The compact text form of recorded hands and games that ``report.html`` carries.

One line per Lith hand or Gendeneía game, fields separated by ``|``, about 100 bytes a
heads-up hand: a page holding 100,000 of them opens and filters in well under two seconds,
and decodes a hand only when it is shown. Cards and seats are single characters of
:data:`ALPHABET` (the character at index ``i`` is card or seat ``i``); ``.`` is "none".
The JavaScript side (``report.js``) reads exactly what is written here; the layout of each
line is in ``docs/report.md``.

Every record is replayed through its engine first (``lith_env.history.replay_hand``,
``gendeneia_env.history.replay_game``): a corrupt record is a ``ValueError`` naming the line
and the field, never a broken page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gendeneia_env.cards import NUM_CARDS as GENDENEIA_CARDS
from gendeneia_env.cards import SUIT_NAMES, card_name, value
from lith_env.cards import CARDS, card_id
from lith_env.hands import CATEGORIES, category_of, hand_strength

__all__ = [
    "ALPHABET",
    "GENDENEIA_KINDS",
    "LITH_KINDS",
    "gendeneia_cards",
    "gendeneia_line",
    "lith_cards",
    "lith_line",
]

# 83 characters, none of them a separator (| , ; : > newline), a JSON escape (" \) or '<'
# (the data sits inside a <script> element).
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&()*+-/=?@[]^_{}~"
NONE = "."
LITH_KINDS = {
    "fold": "f",
    "check": "k",
    "call": "c",
    "bet": "b",
    "raise": "r",
    "keep": "x",
    "discard": "d",
}
GENDENEIA_KINDS = {"keep": "k", "discard": "d", "play": "p", "remove": "r", "pass": "s"}
assert len(ALPHABET) == len(set(ALPHABET)) >= GENDENEIA_CARDS


def _c(index: int | None) -> str:
    return NONE if index is None else ALPHABET[index]


# ------------------------------------------------------------------------------------ Lith


def lith_cards() -> list[list[Any]]:
    """Per Lith card id: [name, rank name, suit names high to low] (the page draws them)."""
    return [[c.name, c.rank_name, [s.label for s in c.suits]] for c in CARDS]


def _categories(hand, config) -> list[int]:
    """Each dealt seat's hand category at the end (index into CATEGORIES); -1 not dealt."""
    excuse = config.excuse
    if excuse == "demon":  # the Excuse's role is the hand's coin, as at its showdown
        excuse = "imposter" if hand.demon_heads else "beggar"
    out = []
    for seat in range(hand.n):
        if not hand.dealt_in[seat]:
            out.append(-1)
            continue
        strength, _ = hand_strength(
            hand.cards[seat], pawns_and_courts=config.pawns_and_courts, excuse=excuse
        )
        out.append(int(category_of(strength)))
    return out


def lith_line(record: dict[str, Any], hand, agents: Sequence[int], bluffers: set[int]) -> str:
    """One replayed Lith hand (``hand``, from ``replay_hand(record)``) as a line:

    ``id|agents|dealer|dealt|actions|exchanges|showdown|pots|net|categories|bluffers|demon``

    ``demon``: under ``excuse="demon"``, the coin that gave the Excuse its role at this hand's
    showdown (``h`` heads: imposter, ``t`` tails: beggar), else empty.
    """
    config = hand.config
    dealt = "".join(
        "".join(_c(card_id(name)) for name in cards) if cards else NONE * 3
        for cards in record["cards"]
    )
    actions = []
    for a in record["actions"]:
        token = _c(a["seat"]) + LITH_KINDS[a["kind"]]
        if a["kind"] == "discard":
            token += _c(card_id(a["card"]))
        elif "chips" in a:
            token += str(a["chips"])
            if a.get("amount") is not None and a["amount"] != a["chips"]:
                token += f"/{a['amount']}"
        actions.append(token)
    exchanges = []
    for log in record["exchanges"]:
        moves = [
            _c(int(to))
            + _c(card_id(got["card"]))
            + (NONE if got["from"] == "deck" else _c(int(got["from"])))
            for to, got in log["received"].items()
        ]
        if log["to_bottom"]:
            moves.append("_" + "".join(_c(card_id(n)) for n in log["to_bottom"]))
        exchanges.append(",".join(moves))
    categories = _categories(hand, config)
    showdown = ",".join(
        _c(int(seat)) + "".join(_c(card_id(n)) for n in cards) + _c(categories[int(seat)])
        for seat, cards in record["showdown"].items()
    )
    pots = ",".join(
        f"{p['amount']}>" + "".join(_c(w) for w in p["winners"]) for p in record["pots"]
    )
    return "|".join(
        (
            str(record.get("id", "")),
            "".join(_c(a) for a in agents),
            _c(record["dealer"]),
            dealt,
            ",".join(actions),
            ";".join(exchanges),
            showdown,
            pots,
            ",".join(str(x) for x in record["net"]),
            "".join(NONE if c < 0 else _c(c) for c in categories),
            "".join(_c(s) for s in sorted(bluffers)),
            {"heads": "h", "tails": "t"}.get(record.get("demon") or "", ""),
        )
    )


def lith_categories() -> list[str]:
    return list(CATEGORIES)


# ------------------------------------------------------------------------------- Gendeneía


def gendeneia_cards() -> list[list[Any]]:
    """Per Gendeneía card id: [written name, face value, suit name]."""
    return [[card_name(c), value(c), SUIT_NAMES[card_name(c)[-1]]] for c in range(GENDENEIA_CARDS)]


def _table(game) -> dict[tuple[str, int], list[tuple[int, int]]]:
    """Every pair on the table: (owner: a seat's character or "t" for the round's temporary
    lots, lot index) -> its (choice, force) pairs."""
    out = {}
    for seat, lots in enumerate(game.lots):
        for i, lot in enumerate(lots):
            out[(_c(seat), i)] = [tuple(p) for p in lot]
    if game.temp_lots is not None:
        for i, lot in enumerate(game.temp_lots):
            out[("t", i)] = [tuple(p) for p in lot]
    return out


def _pair_changes(before: dict, after: dict) -> list[str]:
    """``+`` or ``-``, owner, lot, choice and force: the pairs a step put down or took away."""
    changes = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key, []), after.get(key, [])
        for pair in old:
            if pair not in new:
                changes.append("-" + key[0] + str(key[1]) + _c(pair[0]) + _c(pair[1]))
        for pair in new:
            if pair not in old:
                changes.append("+" + key[0] + str(key[1]) + _c(pair[0]) + _c(pair[1]))
    return changes


def gendeneia_line(record: dict[str, Any], agents: Sequence[int], game_id: str) -> str:
    """One Gendeneía game as a line, replayed step by step from its seed:

    ``id|agents|first|hands|steps|scores|winners|end``

    ``hands``: each seat's opening (choice, force); ``steps`` are ``;``-separated, each the
    acting seat and kind (with a target seat or a card), ``:``, then ``,``-separated changes:
    ``H`` seat choice force (a seat's new hand) and pairs put down (``+``) or taken away
    (``-``) as owner, lot (0 Collars, 1 Hope, 2 Blood), choice, force.
    """
    from gendeneia_env.history import replay_game, start_game

    start = start_game(record)  # the deal only: the replay below plays the game
    n = start.config.num_players
    hands = "".join(_c(h[0]) + _c(h[1]) for h in start.hands)
    before = {"table": _table(start), "hands": [tuple(h) for h in start.hands]}
    steps = []

    def encode_step(game: Any, action: Any, entry: dict[str, Any]) -> None:
        token = _c(entry["seat"]) + GENDENEIA_KINDS[entry["kind"]]
        if action.target is not None:
            token += _c(action.target)
        if action.card is not None:
            token += _c(action.card)
        after = {"table": _table(game), "hands": [tuple(h) for h in game.hands]}
        changes = [
            "H" + _c(s) + _c(game.hands[s][0]) + _c(game.hands[s][1])
            for s in range(n)
            if after["hands"][s] != before["hands"][s]
        ]
        changes += _pair_changes(before["table"], after["table"])
        steps.append(token + ":" + ",".join(changes))
        before.update(after)

    game = replay_game(record, after_step=encode_step)  # names a bad field of the record
    return "|".join(
        (
            game_id,
            "".join(_c(a) for a in agents),
            _c(record["first_player"]),
            hands,
            ";".join(steps),
            ",".join(str(s) for s in game.scores()),
            "".join(_c(w) for w in (game.winners() if game.is_over else [])),
            str(game.end_reason or ""),
        )
    )
