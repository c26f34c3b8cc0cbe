"""One person's game against the bots, as the browser game plays it: no HTTP here.

A table holds the engine, the bots and the person's seat. :meth:`WebTable.state` is all the
page is sent: the person's own view of the table (the engine's ``observe``, which holds no card
the seat may not see), the legal actions as labelled choices, the public log (worded as the
terminal game words it: ``lith_env.words``, ``gendeneia_env.words``), for each finished hand
its public result and the bots' action probabilities at their decisions, and the name of the
session's folder (not its path on the server).
:meth:`WebTable.act` takes a choice by its index (and an amount where the person types one),
plays the bots until the person is to act again, and saves every finished hand or game in
the session's folder (``tournaments.sessions``): records the engine replays, which
``decktet report FOLDER --html`` opens in the report's replayer.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from games import game_config, game_info
from tablegame.terminal import make_bots, seat_bots
from tournaments.sessions import SessionFolder

__all__ = [
    "GendeneiaTable",
    "LithTable",
    "NotNowError",
    "StaleError",
    "WebTable",
    "default_bots",
    "jsonable",
    "new_table",
]

LOG_LIMIT = 200  # public log lines kept for the page


def jsonable(value: Any) -> Any:
    """Named tuples, tuples, numpy numbers and dicts with int keys, as JSON values."""
    if hasattr(value, "_asdict"):
        return {k: jsonable(v) for k, v in value._asdict().items()}
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


class WebTable:
    """What both games' tables share: the seats, the bots, the lock, the version counter."""

    game = ""

    def __init__(
        self, players: int, seat: int, bots: str, rules: Mapping[str, Any], seed: int | None,
        history: Path,
    ) -> None:  # fmt: skip
        if not 0 <= seat < players:
            raise ValueError(f"seat: must be 0-{players - 1} at a {players}-player table")
        self.config = game_config(self.game, players, dict(rules))
        self.me, self.seed, self.history = seat, seed, history
        try:
            self.specs = seat_bots(bots, players, seat)
            self.bots = make_bots(self.specs, self.game, self.config, seed, *self.spaces())
        except ValueError as error:
            raise ValueError(str(error).replace("--bots: ", "bots: ", 1)) from None
        self.session = SessionFolder(history, self.game, self.config, self.labels())
        self.lock = threading.Lock()  # one request at a time changes a table
        self.version = 0  # bumped by every change: a stale request is refused
        self.log: list[str] = []
        self.finished: list[dict] = []  # per finished hand (Lith) or game: result, decisions
        self.decisions: list[dict] = []  # the bots' decisions since the last finished hand

    # each game fills these in
    def spaces(self) -> tuple[int, int]: ...
    def choices(self) -> list[dict]: ...
    def view(self) -> dict: ...
    def apply_choice(self, index: int, amount: int | None) -> None: ...
    def bot_step(self, seat: int) -> None: ...
    def to_act(self) -> int | None: ...
    def over(self) -> bool: ...

    def labels(self) -> list[str]:
        return [self.specs.get(s, "you") for s in range(self.config.num_players)]

    def state(self) -> dict:
        """Everything the page shows, from the person's seat."""
        mine = self.to_act() == self.me and not self.over()
        return {
            "game": self.game,
            "version": self.version,
            "seat": self.me,
            "players": self.labels(),
            "over": self.over(),
            "to_act": self.to_act(),
            "view": self.view(),
            "choices": self.choices() if mine else [],
            "log": self.log[-LOG_LIMIT:],
            "finished": self.finished[-5:],
            "history": self.history.name,  # the folder under the server's --history-dir
        }

    def act(self, choice: Any, amount: Any, version: Any) -> dict:
        """The person's choice (its index in ``choices``), then the bots until the person is
        to act again; ``ValueError`` naming what is wrong leaves the table as it was."""
        if version != self.version:
            raise StaleError(f"version: the table is at {self.version}, the request at {version}")
        if self.over():
            raise NotNowError("the game is over; start a new one")
        if self.to_act() != self.me:
            raise NotNowError("it is not your turn")
        choices = self.choices()
        if not (isinstance(choice, int) and not isinstance(choice, bool)):
            raise ValueError(f"choice: a whole number, got {choice!r}")
        if not 0 <= choice < len(choices):
            raise ValueError(f"choice: must be 0-{len(choices) - 1}, got {choice}")
        wanted = choices[choice].get("amount")
        if wanted is not None:
            low, high = wanted
            if not (isinstance(amount, int) and not isinstance(amount, bool)):
                raise ValueError(f"amount: a whole number from {low} to {high}, got {amount!r}")
            if not low <= amount <= high:
                raise ValueError(f"amount: must be {low}-{high}, got {amount}")
        elif amount is not None:
            raise ValueError("amount: this choice takes none")
        self.apply_choice(choice, amount)
        self.run_bots()
        return self.state()

    def run_bots(self) -> None:
        """The bots act until the person is to act or the game is over."""
        while not self.over() and self.to_act() != self.me:
            self.bot_step(self.to_act())
        self.version += 1

    def decide(self, seat: int, observation: Any, mask: np.ndarray, names: dict) -> int:
        """The bot's action id, with its decision noted for the hand's summary: what it played
        and, if it can say (``last_probabilities`` after its move, else ``action_probabilities``),
        its probability of each legal action.
        ``names`` labels the action ids in public words; actions one label covers (a discard
        of any card) have their probabilities added."""
        bot = self.bots[seat]
        action_id = int(bot.act(observation, mask))
        p = getattr(bot, "last_probabilities", None)  # what a searching bot drew from
        if p is None and hasattr(bot, "action_probabilities"):
            p = np.asarray(bot.action_probabilities(np.asarray(observation)[None], mask[None]))[0]
        probabilities: dict[str, float] = {}
        if p is not None:
            for a, name in names.items():
                probabilities[name] = probabilities.get(name, 0.0) + float(p[a])
        self.decisions.append({
            "seat": seat, "bot": self.specs[seat], "played": names.get(action_id, "?"),
            "probabilities": [{"action": k, "p": round(v, 4)} for k, v in probabilities.items()],
        })  # fmt: skip
        return action_id


class StaleError(ValueError):
    """A request made against an older state of the table (a replay or a second tab)."""


class NotNowError(ValueError):
    """A move the table cannot take now: the game is over, or it is not the person's turn."""


class LithTable(WebTable):
    """Lith: hands follow one another until one seat holds every chip or ``max_hands``."""

    game = "lith"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from lith_env.game import LithGame
        from lith_env.words import LithWords

        self.engine = LithGame(self.config, seed=self.seed, first_dealer=None)
        self.words = LithWords(self.config, self.me, self.labels())
        self.shown = 0  # public actions of this hand already in the log
        self.run_bots()

    def spaces(self) -> tuple[int, int]:
        from lith_env.encoding import num_actions, observation_size

        return observation_size(self.config), num_actions(self.config)

    def to_act(self) -> int | None:
        return self.engine.current_player

    def over(self) -> bool:
        """The match is over, or the person is out of it: the bots alone would play on for
        thousands of hands in one request."""
        return self.engine.is_over or not self.engine.hand.dealt_in[self.me]

    def _menu(self) -> list:
        from lith_env.words import menu

        return menu(self.engine, self.config)

    def choices(self) -> list[dict]:
        out = []
        legal = self.engine.hand.legal_actions()
        for label, action in self._menu():
            entry: dict[str, Any] = {"label": label}
            if action is None:
                entry["amount"] = [legal.min_to, legal.max_to]
            out.append(entry)
        return out

    def view(self) -> dict:
        from lith_env.cards import CARDS
        from lith_env.words import read_hand

        seen = self.engine.observe(self.me)
        view = jsonable(seen)
        view["structure"] = self.config.betting
        view["rounds"] = self.config.rounds
        if seen.cards:
            reading = read_hand(seen.cards, self.config)
            view["hand"] = {**reading, "percentile": round(reading["percentile"], 3)}
        view["card_names"] = {str(c): CARDS[c].name for c in seen.cards}
        return view

    def apply_choice(self, index: int, amount: int | None) -> None:
        from lith_env.game import Action

        legal = self.engine.hand.legal_actions()
        action = self._menu()[index][1]
        if action is None:
            action = Action(legal.raise_kind, amount=amount)
        self._apply(self.me, action)

    def bot_step(self, seat: int) -> None:
        from lith_env.encoding import action_from_id, action_mask, encode
        from lith_env.words import public_label

        hand = self.engine.hand
        observation = encode(self.engine.observe(seat), self.config)
        mask = action_mask(hand)
        names = {int(a): public_label(hand, int(a)) for a in np.flatnonzero(mask)}
        self._apply(seat, action_from_id(hand, self.decide(seat, observation, mask, names)))

    def _apply(self, seat: int, action: Any) -> None:
        before, words = self.engine.hands_played, self.words
        self.session.decision(self.engine.hand, seat, action)
        self.engine.apply(action)
        if self.engine.hands_played > before:  # the hand ended; the next one is dealt
            record = self.engine.records[-1]
            self.log += [words.describe(a) for a in record["actions"][self.shown :]]
            self.log.append(f"hand {self.engine.hands_played} is over")
            self.finished.append(
                {"hand": self.engine.hands_played, **_public_result(record),
                 "decisions": self.decisions}
            )  # fmt: skip
            self.decisions, self.shown = [], 0
            self.session.finished(record)
        else:
            actions = self.engine.observe(self.me).actions
            self.log += [words.describe(a) for a in actions[self.shown :]]
            self.shown = len(actions)


def _public_result(record: dict) -> dict:
    """What every seat sees of a finished Lith hand: the cards shown at showdown (only those
    the rules show), the pots and who won them, each seat's net and stack."""
    return {
        "showdown": record["showdown"],
        "pots": record["pots"],
        "net": record["net"],
        "stacks": record["stacks_after"],
        "demon": record["demon"],
    }


class GendeneiaTable(WebTable):
    """Gendeneía: one game, saved as one record after every turn."""

    game = "gendeneia"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from gendeneia_env.game import GendeneiaGame
        from gendeneia_env.words import GendeneiaWords

        self.engine = GendeneiaGame(self.config, seed=self.seed)
        self.words = GendeneiaWords(self.engine, self.me, self.labels())
        self.run_bots()

    def spaces(self) -> tuple[int, int]:
        from gendeneia_env.encoding import num_actions, observation_size

        return observation_size(self.config), num_actions(self.config)

    def to_act(self) -> int | None:
        return self.engine.current

    def over(self) -> bool:
        return self.engine.is_over

    def _menu(self) -> list[tuple[str, int]]:
        from gendeneia_env.words import menu

        return menu(self.engine, self.words)

    def choices(self) -> list[dict]:
        return [{"label": label} for label, _ in self._menu()]

    def view(self) -> dict:
        from gendeneia_env.cards import card_name

        seen = self.engine.observe(self.me)
        view = jsonable(seen)
        cards = {c for c in seen.hand if c is not None}
        cards |= {c for pile in seen.discards for c in pile}
        for seat_lots in seen.lots:
            cards |= {c for lot in seat_lots for pair in lot for c in pair}
        view["card_names"] = {str(c): card_name(c) for c in sorted(cards)}
        if self.over():
            view["winners"] = list(self.engine.winners())
            view["end_reason"] = self.engine.end_reason
        return view

    def apply_choice(self, index: int, amount: int | None) -> None:
        self._apply(self.me, self._menu()[index][1])

    def bot_step(self, seat: int) -> None:
        from gendeneia_env.encoding import action_mask, encode
        from gendeneia_env.words import public_label

        observation = encode(self.engine.observe(seat), self.config)
        mask = action_mask(self.engine)
        names = {int(a): public_label(self.engine, int(a)) for a in np.flatnonzero(mask)}
        self._apply(seat, self.decide(seat, observation, mask, names))

    def _apply(self, seat: int, action_id: int) -> None:
        from gendeneia_env.history import game_record
        from gendeneia_env.words import play_and_describe

        self.log += play_and_describe(self.engine, self.words, seat, action_id)
        record = game_record(self.engine)
        # the game so far, after every turn (as the terminal game saves it)
        (self.history / "game.json").write_text(json.dumps(record, ensure_ascii=False) + "\n")
        if self.over():
            self.finished.append(
                {"winners": list(self.engine.winners()), "scores": list(self.engine.scores()),
                 "decisions": self.decisions}
            )  # fmt: skip
            self.decisions = []
            self.session.finished(record)


# Each game's table as the page plays it (its engine, its words).
WEB_TABLES: dict[str, type[WebTable]] = {"lith": LithTable, "gendeneia": GendeneiaTable}


def default_bots(game: str, players: int) -> str:
    """The zoo's bot for this table when it has one (a bot with a file, a network or a
    strategy, plays the seat count it was made for; a search plays any) with the default
    rules, else the game's heuristics."""
    from agents.zoo import entries

    for entry in entries().values():
        fits = entry.players == players or not entry.files()
        if entry.game == game and fits and not entry.rules:
            return f"zoo:{entry.name}"
    return game_info(game).web_bots


def new_table(
    game: str, players: int, seat: int = 0, bots: str | None = None,
    rules: Mapping[str, Any] | None = None, seed: int | None = None, *, history: Path,
) -> WebTable:  # fmt: skip
    """A table of ``game`` whose session is saved in the folder ``history``; ``ValueError``
    naming a bad game, player count, seat, bot or rule."""
    info = game_info(game)  # an unknown game: the error names it
    if not (isinstance(players, int) and info.min_players <= players <= info.max_players):
        raise ValueError(
            f"players: {game} seats {info.min_players}-{info.max_players}, got {players!r}"
        )
    cls = WEB_TABLES[game]
    return cls(players, seat, bots or default_bots(game, players), rules or {}, seed, history)
