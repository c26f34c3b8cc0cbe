"""Local best response: a lower bound on a heads-up limit Lith bot's exploitability, untrained.

    decktet lbr AGENT --hands N [--rule key=value ...] [--particles P] [--seed S]

Lisý & Bowling (AAAI 2017 workshop, *Equilibrium Approximation Quality of Current No-Limit
Poker Bots*). The local best response (LBR) plays the bot hand after hand. It keeps the bot's
*range*, a weighted set of the private histories the bot may hold (its dealt hand, and at each
exchange what it gave and drew), and reweights it by the bot's own action probabilities at
every action the bot takes, its exchanges included. At each of its decisions it takes the
action of best expected value against that range, assuming that from there on the bot checks
or calls (or folds to a raise, as often as it would) and that both players keep their cards:

- fold: lose what it has put in;
- check or call: show down against the range at the pot as it stands;
- raise: the bot folds with its own probability at the raised node, else calls and shows
  down;
- at an exchange: keep, or discard the card whose replacement (a card from the deck, or the
  bot's discard in a swap) shows down best.

LBR is a strategy of the responder, so whatever it wins is a lower bound on the bot's
exploitability (the exact figure on the games ``lith_solver`` solves; tests check it stays at
or below). It needs no training, only the bot's ``action_probabilities`` (or a deterministic
bot). Each deal is played twice, LBR in each seat; the gain is chips/100 hands with its 95%
interval over deals.

The range is sampled: ``--particles`` private histories. The bot's dealt hands are drawn
from the cards LBR does not hold (every one, some twice, when they are fewer). At each
exchange where the bot draws from the deck, its discard is drawn by its own probabilities and
its card uniformly from those its world leaves; weights carry the rest (sequential
importance sampling). The bot is queried on the batched engine, one table per particle,
replayed from the deal.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lith_env.batched import BatchedLith
from lith_env.cards import NUM_CARDS
from lith_env.encoding import keep_id
from lith_env.game import LithConfig
from lith_env.hands import showdown_result
from lith_env.table import LithTable
from lith_solver.agent_strategy import agent_probabilities
from tablegame.agent import Agent

__all__ = ["LocalBestResponse", "check_config", "lbr_gain", "local_best_response", "main"]

FOLD, CHECK_CALL, RAISE = 0, 1, 2


@dataclass
class _Range:
    """The bot's private histories (one row a particle) and their weights."""

    dealt: np.ndarray  # (P, 3) the bot's dealt hand
    hand: np.ndarray  # (P, 3) its hand now, sorted
    weight: np.ndarray  # (P,)
    script: list[np.ndarray] = field(default_factory=list)  # action ids a step, (P,) each
    draws: list[np.ndarray] = field(default_factory=list)  # deck draws in order, (P,) each
    pending: np.ndarray | None = None  # the bot's discard probabilities of the exchange (P, 3)
    pending_step: int = -1  # its exchange action's place in the script

    def total(self) -> float:
        return float(self.weight.sum())


class LocalBestResponse:
    """LBR against one bot on heads-up limit Lith (``config``): :meth:`play` plays a hand;
    ``range`` is then the bot's range as LBR kept it (its particles and their weights)."""

    def __init__(
        self,
        bot: Agent,
        oracle: Agent,
        config: LithConfig,
        particles: int = 1000,
        seed: int = 0,
        name: str = "bot",
    ) -> None:
        """``bot`` plays; ``oracle`` (another copy) is asked for its action probabilities."""
        check_config(config)
        self.bot, self.oracle, self.config, self.name = bot, oracle, config, name
        self.particles = particles
        self.rng = np.random.default_rng(seed)
        self.deck = np.array(sorted(config.deck), dtype=np.int64)
        self.keep = keep_id(config)
        self.engine = BatchedLith(config, particles, episode="hand")
        self.table = LithTable(config, episode="hand")

    # ---------------------------------------------------------------- the range

    def _start_range(self, own: Sequence[int]) -> _Range:
        rest = np.setdiff1d(self.deck, own)
        hands = np.array(np.meshgrid(rest, rest, rest, indexing="ij")).reshape(3, -1).T
        hands = hands[(hands[:, 0] < hands[:, 1]) & (hands[:, 1] < hands[:, 2])]
        if self.particles >= len(hands):  # every hand, the first ones again to fill up
            rows = np.arange(self.particles) % len(hands)
        else:
            rows = np.sort(self.rng.choice(len(hands), self.particles, replace=False))
        dealt = hands[rows]
        return _Range(dealt, dealt.copy(), np.ones(self.particles))

    def _orders(self, rng_: _Range, own_dealt: Sequence[int], lbr_first: bool) -> np.ndarray:
        """Each particle's deck order: the deal (one card at a time from the dealer's left),
        the draws in order, then every other card."""
        p = self.particles
        first, second = (own_dealt, rng_.dealt) if lbr_first else (rng_.dealt, own_dealt)
        first = np.broadcast_to(np.asarray(first), (p, 3))
        second = np.broadcast_to(np.asarray(second), (p, 3))
        top = np.stack([first, second], axis=2).reshape(p, 6)
        if rng_.draws:
            top = np.concatenate([top, np.stack(rng_.draws, axis=1)], axis=1)
        used = np.zeros((p, NUM_CARDS), dtype=bool)
        np.put_along_axis(used, top, True, axis=1)
        rest_key = used[:, self.deck]  # False first, in card order
        order = np.argsort(rest_key, axis=1, kind="stable")[:, : len(self.deck) - top.shape[1]]
        return np.concatenate([top, self.deck[order]], axis=1)

    def _query(self, rng_: _Range, extra: int | None, bot_seat: int) -> np.ndarray:
        """The bot's action probabilities (P, actions) at the node the script (and ``extra``,
        an action id of LBR's) reaches, in every particle's world."""
        view = self._view
        orders = self._orders(rng_, self._own_dealt, lbr_first=self._lbr_first)
        p = self.particles
        self.engine.reset_to_decks(
            orders, np.full(p, view.dealer, dtype=np.int64), np.zeros(p, dtype=bool)
        )
        for column in rng_.script:
            self.engine.step(column)
        if extra is not None:
            self.engine.step(np.full(p, extra, dtype=np.int64))
        observations = self.engine.encode(np.full(p, bot_seat))
        masks = self.engine.action_masks()
        # A particle ruled out (weight 0) may hold a card twice in its replayed world: only
        # the live ones are asked (a bot may refuse an impossible hand).
        live = np.flatnonzero(rng_.weight > 0)
        out = np.zeros(masks.shape)
        if len(live):
            out[live] = agent_probabilities(self.oracle, observations[live], masks[live], self.name)
        return out

    def _results(self, own: np.ndarray, others: np.ndarray) -> np.ndarray:
        """LBR's showdown result per particle: +1 win, -1 loss, 0 tie (roles averaged)."""
        config = self.config
        own, others = np.broadcast_arrays(own, others)
        return showdown_result(
            own, others, pawns_and_courts=config.pawns_and_courts, excuse=config.excuse
        )

    # ---------------------------------------------------------------- decisions

    def _bet(self, rng_: _Range, mask: np.ndarray, bot_seat: int) -> int:
        view = self._view
        me = view.seat
        if rng_.total() <= 0:  # no history of the sample explains the bot: check or call
            return CHECK_CALL
        w = rng_.weight / rng_.total()
        results = self._results(np.asarray(view.cards), rng_.hand)
        mine, theirs = view.committed[me], view.committed[1 - me]
        call_level = min(theirs, mine + view.stacks[me])
        values = {CHECK_CALL: call_level * float(w @ results)}
        if mask[FOLD]:
            values[FOLD] = -float(mine)
        if mask[RAISE] and view.raise_range is not None:
            level = mine + view.raise_range[0] - view.bets[me]
            level = min(level, theirs + view.stacks[1 - me])
            folds = self._query(rng_, RAISE, bot_seat)[:, FOLD]
            values[RAISE] = float(w @ (folds * theirs + (1 - folds) * level * results))
        return max(values, key=lambda a: (values[a], -a))  # ties: the least aggressive

    def _exchange(self, rng_: _Range) -> int:
        view = self._view
        if rng_.total() <= 0:
            return self.keep
        w = rng_.weight / rng_.total()
        own = np.asarray(view.cards)
        level = view.committed[view.seat]
        values = [level * float(w @ self._results(own, rng_.hand))]
        for slot in range(3):
            if rng_.pending is not None:  # the bot discarded: a discard now swaps with it
                total = 0.0
                for k in range(3):
                    got = rng_.hand[:, k]
                    new_own = np.broadcast_to(own, rng_.hand.shape).copy()
                    new_own[:, slot] = got
                    new_bot = rng_.hand.copy()
                    new_bot[:, k] = own[slot]
                    total += float((w * rng_.pending[:, k]) @ self._results(new_own, new_bot))
                values.append(level * total / max(float(w @ rng_.pending.sum(axis=1)), 1e-12))
                continue
            unseen = np.setdiff1d(self.deck, np.concatenate([own, self._seen]))
            expected = np.zeros(self.particles)
            counts = np.zeros(self.particles)
            for card in unseen:
                possible = ~(rng_.hand == card).any(axis=1)
                new_own = own.copy()
                new_own[slot] = card
                outcome = self._results(np.broadcast_to(new_own, rng_.hand.shape), rng_.hand)
                expected += possible * outcome
                counts += possible
            values.append(level * float(w @ (expected / np.maximum(counts, 1))))
        best = int(np.argmax(values))  # ties: keep, then the lowest card
        return self.keep + best

    # ---------------------------------------------------------------- a hand

    def play(self, seed: int, lbr_seat: int) -> float:
        """Play the deal of ``seed`` with LBR in ``lbr_seat``; LBR's net chips."""
        table = self.table
        table.reset(seed)
        bot_seat = 1 - lbr_seat
        self.bot.reset(seed=seed * 2 + lbr_seat)
        self._view = view = table.observe(lbr_seat)
        self._own_dealt = np.array(view.cards)
        self._lbr_first = (view.dealer + 1) % 2 == lbr_seat
        self._seen = np.zeros(0, dtype=np.int64)  # cards LBR gave, discarded or drew
        rng_ = self.range = self._start_range(view.cards)
        decisions = 0  # exchange decisions taken in the current exchange
        while not table.is_over:
            seat, mask = table.current_player, table.action_mask()
            exchange = view.phase == "exchange"
            if seat == bot_seat:
                action = self.bot.act(table.encode(bot_seat), mask)
                probs = self._query(rng_, None, bot_seat)
                if not exchange or action == self.keep:
                    rng_.weight *= probs[:, action]
                    rng_.script.append(np.full(self.particles, action, dtype=np.int64))
                else:
                    rng_.pending = probs[:, self.keep + 1 : self.keep + 4].copy()
                    rng_.pending_step = len(rng_.script)
                    rng_.script.append(np.full(self.particles, -1, dtype=np.int64))
            else:
                action = self._exchange(rng_) if exchange else self._bet(rng_, mask, bot_seat)
                if not mask[action]:
                    action = CHECK_CALL if not exchange else self.keep
                rng_.script.append(np.full(self.particles, action, dtype=np.int64))
            table.apply_id(action)
            view = self._view = table.observe(lbr_seat)
            if exchange:
                decisions += 1
                if decisions == 2:
                    self._resolve(rng_, view)
                    decisions = 0
        return float(table.returns()[lbr_seat])

    def _resolve(self, rng_: _Range, view: Any) -> None:
        """After an exchange: the bot's discard and draw in every particle's world."""
        log = view.exchanges[-1]
        p, rows = self.particles, np.arange(self.particles)
        gave, got = log.my_discard, log.received
        if gave is not None:
            self._seen = np.append(self._seen, gave)
        if rng_.pending is None:  # the bot kept
            if gave is not None:  # LBR drew from the deck: no particle may have held that card
                held = np.concatenate([rng_.hand, rng_.dealt, *(d[:, None] for d in rng_.draws)], 1)
                rng_.weight *= ~(held == got).any(axis=1)
                rng_.draws.append(np.full(p, got, dtype=np.int64))
                self._seen = np.append(self._seen, got)
            return
        pending, step = rng_.pending, rng_.pending_step
        rng_.pending, rng_.pending_step = None, -1
        if gave is not None:  # both discarded: they swapped, and LBR got the bot's card
            slot = np.argmax(rng_.hand == got, axis=1)
            holds = (rng_.hand == got).any(axis=1)
            rng_.weight *= holds * pending[rows, slot]
            rng_.script[step] = self.keep + 1 + slot
            rng_.hand[rows, slot] = gave
            rng_.hand.sort(axis=1)
            return
        # The bot discarded alone: a card of its hand by its probabilities, and a draw.
        total = pending.sum(axis=1)
        rng_.weight *= total
        share = pending / np.where(total > 0, total, 1.0)[:, None]
        share[total <= 0] = 1.0 / 3
        slot = (self.rng.random(p)[:, None] > np.cumsum(share, axis=1)).sum(axis=1)
        slot = np.minimum(slot, 2)
        rng_.script[step] = self.keep + 1 + slot
        orders = self._orders(rng_, self._own_dealt, self._lbr_first)
        # Drawable: every card of the particle's deck not dealt, drawn or discarded so far.
        known = np.concatenate([self._seen, np.asarray(view.cards)])
        in_hand = (orders[:, :, None] == rng_.hand[:, None, :]).any(axis=2)
        drawable = ~np.isin(orders, known) & ~in_hand
        drawable[:, : 6 + len(rng_.draws)] = False
        pick = np.argmax(
            np.where(drawable, self.rng.random(orders.shape), -1.0), axis=1
        )  # uniform among the drawable places
        drawn = orders[rows, pick]
        rng_.draws.append(drawn)
        rng_.hand[rows, slot] = drawn
        rng_.hand.sort(axis=1)


def check_config(config: LithConfig) -> None:
    """LBR plays heads-up limit Lith: ``ValueError`` naming the rule that is not."""
    if config.num_players != 2:
        raise ValueError(f"players: LBR is heads-up (2 players), got {config.num_players}")
    if config.betting != "limit":
        raise ValueError(f"--rule betting: LBR plays limit betting, got {config.betting!r}")


def local_best_response(
    spec: str, rules: dict[str, Any], particles: int = 1000, seed: int = 0
) -> LocalBestResponse:
    """LBR against the agent ``spec`` on heads-up limit Lith with ``rules``; ``ValueError``
    naming a rule or agent that does not fit."""
    from games import game_config
    from tablegame.registry import make_agent

    config = game_config("lith", 2, rules)
    check_config(config)
    bot = make_agent(spec, "lith", seed=seed, config=config)
    oracle = make_agent(spec, "lith", seed=seed, config=config)
    return LocalBestResponse(bot, oracle, config, particles, seed, spec)


def lbr_gain(
    lbr: LocalBestResponse, hands: int, seed: int = 0, progress: bool = False
) -> dict[str, Any]:
    """LBR's gain: ``hands`` hands (each deal played from both seats), in chips/100 hands,
    with its 95% interval over deals."""
    from tournaments.stats import mean_interval

    deals = hands // 2
    started = time.perf_counter()
    per_deal = []
    iterator: Any = range(deals)
    if progress:
        from tqdm import tqdm

        iterator = tqdm(iterator, desc=f"LBR against {lbr.name}", unit="deal")
    for d in iterator:
        deal = seed * 1_000_003 + d
        per_deal.append(50.0 * (lbr.play(deal, 0) + lbr.play(deal, 1)))  # chips/100 hands
    interval = mean_interval(per_deal)
    return {
        "agent": lbr.name,
        "hands": 2 * deals,
        "particles": lbr.particles,
        "seed": seed,
        "mean": interval.mean,
        "low": interval.low,
        "high": interval.high,
        "seconds": round(time.perf_counter() - started, 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``decktet lbr``; a bad option exits with status 2, naming it."""
    from games import parse_rules
    from tablegame.cli import duplicate_hands, output_file, positive_int, seed_value

    parser = argparse.ArgumentParser(
        prog="decktet lbr",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("agent", help="the bot to measure (an agent spec)")
    parser.add_argument(
        "--hands", type=duplicate_hands, default=2000, help="hands, an even number (default: 2000)"
    )
    parser.add_argument(
        "--particles",
        type=positive_int,
        default=1000,
        help="private histories in LBR's sample of the bot's range (default: 1000)",
    )
    parser.add_argument("--rule", action="append", default=[], help="a rule key=value")
    parser.add_argument("--seed", type=seed_value, default=0, help="deals and sampling seed")
    parser.add_argument("--out", default=None, help="write the figures to this JSON file")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an --out file that exists already (default: off)",
    )
    args = parser.parse_args(argv)
    try:
        rules = parse_rules(args.rule, "lith")
        lbr = local_best_response(args.agent, rules, args.particles, args.seed)
        if args.overwrite and args.out is None:
            raise ValueError("--overwrite: only with --out (a file to replace)")
        if args.out is not None:
            output_file(args.out, overwrite=args.overwrite)
    except ValueError as error:
        parser.error(str(error))
    result = {"rules": rules, **lbr_gain(lbr, args.hands, args.seed, sys.stderr.isatty())}
    print(
        f"LBR gain over {args.agent}: {result['mean']:+.1f} [{result['low']:+.1f}, "
        f"{result['high']:+.1f}] chips/100 hands ({result['hands']:,} hands, "
        f"{result['seconds']:.0f} s)"
    )
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
