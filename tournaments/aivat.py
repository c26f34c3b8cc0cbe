"""Head-to-head results with less luck: an unbiased control variate in the spirit of AIVAT.

    decktet aivat AGENT OPPONENT --hands N [--rule key=value ...] [--seed S]

Burch et al. (AAAI 2018), *AIVAT: A New Variance Reduction Technique for Agent Evaluation in
Imperfect Information Games*. Heads-up limit Lith, duplicate deals (each played from both
seats). After each hand, with every card known, AGENT's result is corrected by terms of
zero mean, each ``E[V(next)] - V(next taken)`` at a step whose odds are known:

- the deal and every card drawn from the deck (chance: each remaining card equally likely);
- every decision of AGENT, whose action probabilities it exposes (``action_probabilities``,
  or a deterministic agent, whose term is then zero).

``V`` is AGENT's result if the hand were checked down from there, the bet called: the
level of the pot either player has put in, times AGENT's showdown share against the other's
hand now (+1, -1, 0; a fold is what it is). Any ``V`` keeps the estimate unbiased; a good one
removes luck. The opponent's decisions get no term (its odds are not known).

Three figures on the same hands: plain; corrected by the chance terms; and corrected by the
terms of AGENT's decisions too. With duplicate deals the deal's terms cancel (the two seats'
are opposite), so the chance terms are the draws'. The decision terms help only as far as
``V`` prices the actions: the command reports each figure's interval against the plain one.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lith_env.game import LithConfig
from lith_env.hands import showdown_result
from lith_env.table import LithTable
from lith_solver.agent_strategy import agent_probabilities
from tablegame.agent import Agent

__all__ = ["Aivat", "aivat_match", "main", "make_judge"]

FOLD, CHECK_CALL, RAISE = 0, 1, 2


class Aivat:
    """Plays ``agent`` against ``opponent`` hand by hand, returning each hand's plain and
    corrected result for ``agent`` (``oracle``: a copy of ``agent`` asked for probabilities)."""

    def __init__(
        self, agent: Agent, oracle: Agent, opponent: Agent, config: LithConfig, name: str = "agent"
    ) -> None:
        if config.num_players != 2 or config.betting != "limit":
            raise ValueError(
                "rules: the control variate is for heads-up limit Lith (2 players, limit "
                f"betting), got {config.num_players} players and {config.betting!r} betting"
            )
        self.agent, self.oracle, self.opponent, self.name = agent, oracle, opponent, name
        self.config = config
        self.table = LithTable(config, episode="hand")
        self.deck = np.array(sorted(config.deck), dtype=np.int64)

    def _share(self, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        """+1 / -1 / 0 showdown result of ``mine`` against ``theirs`` (roles averaged)."""
        mine, theirs = np.broadcast_arrays(mine, theirs)
        config = self.config
        return showdown_result(
            mine, theirs, pawns_and_courts=config.pawns_and_courts, excuse=config.excuse
        )

    def _value(self, seat: int, hands: list[np.ndarray]) -> float:
        """V: ``seat``'s result if the hand were checked down now, the bet called."""
        view = self.table.observe(seat)
        level = max(view.committed)
        return float(level * self._share(hands[seat][None], hands[1 - seat][None])[0])

    def _action_term(
        self, seat: int, hands: list[np.ndarray], probabilities: np.ndarray
    ) -> np.ndarray:
        """Each legal betting action's V (against the hands now), for the term of a decision."""
        view = self.table.observe(seat)
        share = float(self._share(hands[seat][None], hands[1 - seat][None])[0])
        mine, theirs = view.committed[seat], view.committed[1 - seat]
        values = np.zeros(len(probabilities))
        values[FOLD] = -mine
        values[CHECK_CALL] = max(mine + min(view.to_call, view.stacks[seat]), theirs) * share
        if view.raise_range is not None:
            level = mine + view.raise_range[0] - view.bets[seat]
            values[RAISE] = level * share
        return values

    def play(self, seed: int, seat: int) -> tuple[float, float, float]:
        """The deal of ``seed``, ``agent`` in ``seat``: its chips, and the sums of the chance
        terms and of its decisions' terms."""
        table = self.table
        table.reset(seed)
        self.agent.reset(seed=2 * seed + seat)
        self.opponent.reset(seed=2 * seed + 1 - seat)
        hands = [np.array(table.observe(s).cards) for s in (0, 1)]
        held = set(hands[0].tolist()) | set(hands[1].tolist())  # dealt or drawn so far
        # the deal: E[V] is zero (the two hands are exchangeable), V the antes' showdown
        correction = -self._value(seat, hands)
        decisions = 0.0  # the terms of the agent's decisions, apart: they may not help
        exchanges = 0
        while not table.is_over:
            current, mask = table.current_player, table.action_mask()
            betting = table.observe(current).phase == "bet"
            if current == seat:
                observation = table.encode(seat)
                action = self.agent.act(observation, mask)
                if betting:
                    probabilities = agent_probabilities(
                        self.oracle, observation[None], mask[None], self.name
                    )[0]
                    values = self._action_term(seat, hands, probabilities)
                    decisions += float(probabilities @ values) - values[action]
            else:
                action = self.opponent.act(table.encode(current), mask)
            table.apply_id(action)
            if betting:  # only an exchange decision can resolve an exchange
                continue
            views = [table.observe(s) for s in (0, 1)]
            if len(views[0].exchanges) > exchanges and views[0].exchanges[-1].resolved:
                exchanges += 1
                new = [np.array(v.cards) for v in views]
                for s in (0, 1):
                    log = views[s].exchanges[-1]
                    if log.received is not None and log.received_from is None:  # from the deck
                        correction += self._draw_term(seat, s, new, log.received, held)
                        held.add(log.received)
                hands = new
        return float(table.returns()[seat]), correction, decisions

    def _draw_term(
        self, seat: int, drawer: int, hands: list[np.ndarray], drawn: int, held: set[int]
    ) -> float:
        """E[V] - V over the card ``drawer`` drew: any card of the deck nobody has held."""
        others = np.array([c for c in self.deck if c not in held and c not in hands[drawer]])
        options = np.concatenate([[drawn], others])
        alternatives = np.repeat(hands[drawer][None], len(options), axis=0)
        alternatives[alternatives == drawn] = options
        mine = alternatives if drawer == seat else np.broadcast_to(hands[seat], alternatives.shape)
        theirs = (
            alternatives if drawer != seat else np.broadcast_to(hands[1 - seat], alternatives.shape)
        )
        level = max(self.table.observe(seat).committed)
        values = level * self._share(mine, theirs)
        return float(values.mean() - values[0])


def make_judge(agent: str, opponent: str, rules: dict[str, Any], seed: int = 0) -> Aivat:
    """An :class:`Aivat` of the agent specs on heads-up limit Lith with ``rules``;
    ``ValueError`` naming a rule or spec that does not fit."""
    from games import game_config
    from tablegame.registry import make_agent

    config = game_config("lith", 2, rules)
    return Aivat(
        make_agent(agent, "lith", seed=seed, config=config),
        make_agent(agent, "lith", seed=seed, config=config),
        make_agent(opponent, "lith", seed=seed + 1, config=config),
        config,
        agent,
    )


def aivat_match(judge: Aivat, hands: int, seed: int = 0) -> dict[str, Any]:
    """The judge's agent against its opponent over ``hands`` duplicate hands: its plain and
    corrected chips/100 hands, each with its 95% interval over deals."""
    from tournaments.stats import mean_interval

    figures: dict[str, list[float]] = {"plain": [], "chance": [], "all": []}
    for d in range(hands // 2):
        deal = seed * 1_000_003 + d
        (chips0, chance0, mine0), (chips1, chance1, mine1) = (judge.play(deal, s) for s in (0, 1))
        plain = chips0 + chips1
        figures["plain"].append(50.0 * plain)  # chips/100 hands: the deal's two hands
        figures["chance"].append(50.0 * (plain + chance0 + chance1))
        figures["all"].append(50.0 * (plain + chance0 + chance1 + mine0 + mine1))
    out: dict[str, Any] = {"agent": judge.name, "hands": 2 * (hands // 2), "seed": seed}
    for name, values in figures.items():
        interval = mean_interval(values)
        out[name] = {"mean": interval.mean, "low": interval.low, "high": interval.high}
        out[name]["narrower"] = (out["plain"]["high"] - out["plain"]["low"]) / (
            interval.high - interval.low
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``decktet aivat``; a bad option exits with status 2, naming it."""
    from games import parse_rules
    from tablegame.cli import duplicate_hands, output_file, seed_value

    parser = argparse.ArgumentParser(
        prog="decktet aivat",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("agent", help="the agent measured (its probabilities are used)")
    parser.add_argument("opponent", help="the agent it plays")
    parser.add_argument(
        "--hands", type=duplicate_hands, default=2000, help="hands, even (default: 2000)"
    )
    parser.add_argument("--rule", action="append", default=[], help="a rule key=value")
    parser.add_argument("--seed", type=seed_value, default=0, help="the deals' seed")
    parser.add_argument("--out", default=None, help="write the figures to this JSON file")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an --out file that exists already (default: off)",
    )
    args = parser.parse_args(argv)
    try:
        rules = parse_rules(args.rule, "lith")
        judge = make_judge(args.agent, args.opponent, rules, args.seed)
        if args.overwrite and args.out is None:
            raise ValueError("--overwrite: only with --out (a file to replace)")
        if args.out is not None:
            output_file(args.out, overwrite=args.overwrite)
    except ValueError as error:
        parser.error(str(error))
    result = {
        "opponent": args.opponent,
        "rules": rules,
        **aivat_match(judge, args.hands, args.seed),
    }
    print(f"{args.agent} against {args.opponent}, {result['hands']:,} duplicate hands:")
    labels = {"plain": "plain", "chance": "chance terms", "all": "and its decisions"}
    for name, label in labels.items():
        figure = result[name]
        print(
            f"{label:>17}: {figure['mean']:+.1f} [{figure['low']:+.1f}, {figure['high']:+.1f}] "
            f"chips/100 hands, interval {figure['narrower']:.2f}x narrower"
        )
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
