"""Duplicate tournaments between agents, for Lith and Gendeneía.

    python -m agents.tournament --game lith --players 2 --agents tag,bluffer,caller,random \\
        --hands 20000 --seed 1 --workers 2 --out results/lith
    python -m agents.tournament --game gendeneia --players 3 --agents greedy,spoiler,random \\
        --games 600 --out results/gendeneia

Tables: heads-up, every pairing of the agents; with more seats, every combination of agents
that fills a table (or, with fewer agents than seats, the agents repeated round the table).

Duplicate dealing (the default): a *block* is one deal (Lith: the shuffled deck, the dealer
seat, the demon coin; Gendeneía: the seed of every shuffle) played once in every rotation of
the seating, so every agent holds every seat's cards; card luck cancels within a block. With
``--plain`` each rotation gets its own deal instead. Blocks are independent, so an agent's
per-block results give a Student-t 95% interval for its mean. Every random choice (deals,
agents' own randomness, reseeded per block) follows from ``--seed`` and the block number, so
any number of worker processes gives the same results.
"""

from __future__ import annotations

import argparse
import csv
import functools
import itertools
import json
import multiprocessing
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import make_agent
from agents.rules import GAMES, game_config, parse_rules
from agents.stats import mean_interval, rate_games
from tablegame.engine import as_action_id

__all__ = ["BlockResult", "TournamentSpec", "main", "run_tournament"]


@dataclass(frozen=True)
class TournamentSpec:
    """What to play. ``units`` is hands (Lith) or games (Gendeneía) per table."""

    game: str
    agents: tuple[str, ...]
    players: int
    units: int
    seed: int = 0
    duplicate: bool = True
    rules: dict = field(default_factory=dict)
    histories: bool = False
    analytics: bool = True
    lineup: tuple[int, ...] | None = None  # one fixed table of agent indices, e.g. (0, 1, 1)

    def config(self):
        return game_config(self.game, self.players, self.rules)

    def tables(self) -> list[tuple[int, ...]]:
        """Agent indices seated at each table, in seat order for rotation 0."""
        m, n = len(self.agents), self.players
        if self.lineup is not None:
            if len(self.lineup) != n or not all(0 <= i < m for i in self.lineup):
                raise ValueError(f"lineup: {n} agent indices below {m}, got {self.lineup!r}")
            return [tuple(self.lineup)]
        if m >= n:
            return list(itertools.combinations(range(m), n))
        return [tuple(i % m for i in range(n))]

    def blocks_per_table(self) -> int:
        return max(1, self.units // self.players)

    def num_blocks(self) -> int:
        return len(self.tables()) * self.blocks_per_table()


@dataclass
class BlockResult:
    """One block: the table, and per agent index its total result and the hands/games played."""

    index: int
    table: tuple[int, ...]
    totals: dict[int, float]  # Lith: chips won; Gendeneía: wins (ties shared)
    scores: dict[int, float]  # Gendeneía: summed scores (Lith: unused)
    plays: dict[int, int]  # hands or games each agent played
    games: list[list[tuple[int, float]]]  # per hand/game: (agent index, result) for ratings
    records: list[dict] = field(default_factory=list)
    decisions: list[dict] = field(default_factory=list)


def _seed(*parts: int) -> int:
    return int(np.random.SeedSequence(list(parts)).generate_state(1)[0])


@functools.cache
def _agents(agent_specs: tuple[str, ...], game: str, config) -> list:
    """One instance per agent spec, made once per process and reseeded every block."""
    return [make_agent(spec, game, config=config) for spec in agent_specs]


def _reset_agents(agents: list, seed: int, block: int) -> None:
    for i, agent in enumerate(agents):
        agent.reset(seed=_seed(seed, block, 1000 + i))


def play_block(spec: TournamentSpec, index: int) -> BlockResult:
    """Play block ``index`` of the tournament (in any process: the result depends only on it)."""
    tables = spec.tables()
    table = tables[index // spec.blocks_per_table()]
    config = spec.config()
    agents = _agents(spec.agents, spec.game, config)
    _reset_agents(agents, spec.seed, index)
    play = _play_lith if spec.game == "lith" else _play_gendeneia
    result = BlockResult(index, table, {}, {}, {}, [])
    n = spec.players
    for rotation in range(n):
        deal = _seed(spec.seed, index) if spec.duplicate else _seed(spec.seed, index, rotation)
        seating = [table[(seat - rotation) % n] for seat in range(n)]  # seat -> agent index
        play(spec, config, agents, seating, deal, result)
    return result


# ---------------------------------------------------------------------------------------------
# Lith


def _play_lith(spec, config, agents, seating, deal, result: BlockResult) -> None:
    from lith_env.encoding import action_from_id, action_mask, encode
    from lith_env.game import LithHand
    from lith_env.history import hand_record

    rng = random.Random(deal)
    order = list(config.deck)
    rng.shuffle(order)
    dealer = rng.randrange(config.num_players)
    hand = LithHand(config, config.stacks, dealer, order, demon_heads=rng.random() < 0.5)
    decisions = []
    while not hand.is_over:
        seat = hand.current
        agent_index = seating[seat]
        observation = encode(hand.observe(seat), config)
        mask = action_mask(hand)
        action = action_from_id(hand, as_action_id(agents[agent_index].act(observation, mask)))
        if spec.analytics:
            decisions.append(_decision(hand, seat, agent_index, action))
        hand.apply(action)
    net = hand.net()
    for seat, agent_index in enumerate(seating):
        result.totals[agent_index] = result.totals.get(agent_index, 0) + net[seat]
        result.plays[agent_index] = result.plays.get(agent_index, 0) + 1
    result.games.append([(a, -net[s]) for s, a in enumerate(seating)])  # lower is better
    if spec.histories:
        record = hand_record(hand, seed=deal)
        record["agents"] = [spec.agents[a] for a in seating]
        result.records.append(record)
    if decisions:
        folded_out = not hand.showdown  # a fold win: everyone but the winner folded
        hand_id = f"{result.index}:{len(result.games) - 1}"
        for d in decisions:
            seat = d.pop("seat")
            d["hand"] = hand_id
            d["won"] = net[seat] > 0
            d["showdown"] = seat in hand.showdown
            d["others_folded"] = folded_out and net[seat] > 0
            result.decisions.append(d)


def _decision(hand, seat: int, agent_index: int, action) -> dict[str, Any]:
    """What the analytics need of one decision, from what the acting seat may know."""
    from agents.analytics import equity, hand_percentile

    cards = hand.cards[seat]
    live = sum(1 for s in range(hand.n) if s != seat and hand.in_hand(s))
    strength = hand_percentile(cards, hand.config)
    return {
        "agent": agent_index,
        "seat": seat,
        "phase": hand.phase,
        "round": hand.round if hand.phase == "bet" else len(hand.exchanges) - 1,
        "kind": action.kind,
        "card": action.card,
        "cards": sorted(cards),
        "facing_bet": hand.phase == "bet" and hand.highest > hand.bets[seat],
        "voluntary": hand.phase == "bet" and action.kind in ("call", "bet", "raise"),
        "percentile": strength,
        "equity": equity(cards, live, hand.config),
        "live_opponents": live,
    }


# ---------------------------------------------------------------------------------------------
# Gendeneía


def _play_gendeneia(spec, config, agents, seating, deal, result: BlockResult) -> None:
    from gendeneia_env.encoding import action_from_id, action_mask, encode
    from gendeneia_env.game import GendeneiaGame
    from gendeneia_env.history import game_record

    game = GendeneiaGame(config, seed=deal, first_player=0)
    while not game.is_over:
        seat = game.current
        agent = agents[seating[seat]]
        action_id = as_action_id(agent.act(encode(game.observe(seat), config), action_mask(game)))
        game.apply(action_from_id(game, action_id))
    scores = game.scores()
    winners = game.winners()
    for seat, agent_index in enumerate(seating):
        win = 1 / len(winners) if seat in winners else 0.0
        result.totals[agent_index] = result.totals.get(agent_index, 0) + win
        result.scores[agent_index] = result.scores.get(agent_index, 0) + scores[seat]
        result.plays[agent_index] = result.plays.get(agent_index, 0) + 1
    result.games.append([(a, scores[s]) for s, a in enumerate(seating)])
    if spec.histories:
        record = game_record(game)
        record["agents"] = [spec.agents[a] for a in seating]
        result.records.append(record)


# ---------------------------------------------------------------------------------------------
# Running and summarizing


def run_tournament(
    spec: TournamentSpec, workers: int = 1, progress: bool = False
) -> dict[str, Any]:
    """Play every block (in ``workers`` processes) and summarize: the same result for any
    number of workers."""
    if spec.game not in GAMES:
        raise ValueError(f"game: must be one of {', '.join(GAMES)}, got {spec.game!r}")
    config = spec.config()  # validates the rules
    # Agents are cached per process for speed, but a model file may have changed since the
    # last tournament (evaluations during training reuse one path): start from fresh agents.
    _agents.cache_clear()
    _agents(spec.agents, spec.game, config)  # validates the agent specs before any work
    indices = range(spec.num_blocks())
    task = functools.partial(play_block, spec)
    blocks: list[BlockResult] = []
    bar = None
    if progress:
        from rich.progress import Progress

        bar = Progress()
        bar.start()
        job = bar.add_task(f"{spec.game} tournament", total=len(indices))
    try:
        if workers > 1:
            context = multiprocessing.get_context("fork")
            with context.Pool(workers) as pool:
                for block in pool.imap(
                    task, indices, chunksize=max(1, len(indices) // (20 * workers))
                ):
                    blocks.append(block)
                    if bar:
                        bar.advance(job)
        else:
            for i in indices:
                blocks.append(task(i))
                if bar:
                    bar.advance(job)
    finally:
        if bar:
            bar.stop()
    return summarize(spec, blocks)


def summarize(spec: TournamentSpec, blocks: Sequence[BlockResult]) -> dict[str, Any]:
    """Per-agent results with intervals, pairwise results (heads-up), ratings (more seats)."""
    names = list(spec.agents)
    lith = spec.game == "lith"
    per_agent = {}
    for i, name in enumerate(names):
        mine = [b for b in blocks if i in b.plays]
        plays = sum(b.plays[i] for b in mine)
        if lith:
            values = [100 * b.totals[i] / b.plays[i] for b in mine]  # chips per 100 hands
            interval = mean_interval(values)
            per_agent[name] = {"hands": plays, "chips_per_100": interval._asdict()}
        else:
            wins = mean_interval([b.totals[i] / b.plays[i] for b in mine])
            scores = mean_interval([b.scores[i] / b.plays[i] for b in mine])
            per_agent[name] = {
                "games": plays,
                "win_rate": wins._asdict(),
                "mean_score": scores._asdict(),
            }
    result: dict[str, Any] = {
        "game": spec.game,
        "players": spec.players,
        "agents": names,
        "seed": spec.seed,
        "dealing": "duplicate" if spec.duplicate else "plain",
        "rules": spec.rules,
        "blocks": len(blocks),
        "method": (
            "95% Student-t intervals over independent blocks; a block is one deal played in "
            f"every rotation of the seating ({spec.players} "
            + ("hands" if lith else "games")
            + (", the same deal each time)" if spec.duplicate else ", a new deal each time)")
        ),
        "agents_results": per_agent,
    }
    if spec.players == 2 and lith:
        pairs = {}
        for a, b in itertools.combinations(range(len(names)), 2):
            mine = [x for x in blocks if set(x.table) == {a, b}]
            values = [100 * x.totals[a] / x.plays[a] for x in mine]
            pairs[f"{names[a]} vs {names[b]}"] = {
                "agent": names[a],
                "opponent": names[b],
                "chips_per_100": mean_interval(values)._asdict(),
                "cumulative": np.cumsum([x.totals[a] for x in mine]).tolist(),
            }
        result["pairings"] = pairs
    copies = any(len(set(b.table)) < len(b.table) for b in blocks)
    if spec.players > 2 and not copies:
        games = [[(names[a], s) for a, s in g] for b in blocks for g in b.games]
        result["ratings"] = rate_games(names, games)
    result["cumulative"] = {
        name: np.cumsum([b.totals.get(i, 0) for b in blocks]).tolist()
        for i, name in enumerate(names)
    }
    result["_records"] = [r for b in blocks for r in b.records]
    result["_decisions"] = [{**d, "agent": names[d["agent"]]} for b in blocks for d in b.decisions]
    return result


# ---------------------------------------------------------------------------------------------
# Output


def write_outputs(result: dict[str, Any], out: Path) -> None:
    """results.json, results.csv, decisions.jsonl (analytics), histories.jsonl, and plots."""
    out.mkdir(parents=True, exist_ok=True)
    records = result.pop("_records")
    decisions = result.pop("_decisions")
    (out / "results.json").write_text(json.dumps(result, indent=2))
    with open(out / "results.csv", "w", newline="") as f:
        writer = csv.writer(f)
        if result["game"] == "lith":
            writer.writerow(["agent", "hands", "chips_per_100", "ci_low", "ci_high"])
            for name, r in result["agents_results"].items():
                c = r["chips_per_100"]
                writer.writerow([name, r["hands"], c["mean"], c["low"], c["high"]])
        else:
            writer.writerow(
                [
                    "agent",
                    "games",
                    "win_rate",
                    "ci_low",
                    "ci_high",
                    "mean_score",
                    "score_low",
                    "score_high",
                ]
            )
            for name, r in result["agents_results"].items():
                w, s = r["win_rate"], r["mean_score"]
                writer.writerow(
                    [
                        name,
                        r["games"],
                        w["mean"],
                        w["low"],
                        w["high"],
                        s["mean"],
                        s["low"],
                        s["high"],
                    ]
                )
    if decisions:
        with open(out / "decisions.jsonl", "w") as f:
            for d in decisions:
                f.write(json.dumps(d) + "\n")
    if records:
        with open(out / "histories.jsonl", "w") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
    from agents.plots import plot_tournament

    plot_tournament(result, out)


def print_result(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    lith = result["game"] == "lith"
    title = f"{result['game']} tournament, {result['players']} players, {result['dealing']} dealing"
    table = Table(title=title)
    table.add_column("agent")
    if lith:
        for column in ("hands", "chips/100", "95% interval"):
            table.add_column(column, justify="right")
        rows = sorted(
            result["agents_results"].items(), key=lambda kv: -kv[1]["chips_per_100"]["mean"]
        )
        for name, r in rows:
            c = r["chips_per_100"]
            table.add_row(
                name, f"{r['hands']:,}", f"{c['mean']:+.1f}", f"[{c['low']:+.1f}, {c['high']:+.1f}]"
            )
    else:
        for column in ("games", "win rate", "95% interval", "mean score", "95% interval"):
            table.add_column(column, justify="right")
        rows = sorted(result["agents_results"].items(), key=lambda kv: -kv[1]["win_rate"]["mean"])
        for name, r in rows:
            w, s = r["win_rate"], r["mean_score"]
            table.add_row(
                name,
                f"{r['games']:,}",
                f"{w['mean']:.3f}",
                f"[{w['low']:.3f}, {w['high']:.3f}]",
                f"{s['mean']:.2f}",
                f"[{s['low']:.2f}, {s['high']:.2f}]",
            )
    console.print(table)
    if "pairings" in result:
        pairs = Table(title="Pairings (chips/100 hands for the first agent)")
        for column in ("pairing", "chips/100", "95% interval"):
            pairs.add_column(column, justify="right" if column != "pairing" else "left")
        for name, p in result["pairings"].items():
            c = p["chips_per_100"]
            pairs.add_row(name, f"{c['mean']:+.1f}", f"[{c['low']:+.1f}, {c['high']:+.1f}]")
        console.print(pairs)
    if "ratings" in result:
        ratings = Table(title="openskill ratings (Plackett-Luce)")
        for column in ("agent", "mu", "sigma", "ordinal"):
            ratings.add_column(column, justify="right" if column != "agent" else "left")
        for name, r in sorted(result["ratings"].items(), key=lambda kv: -kv[1]["ordinal"]):
            ratings.add_row(name, f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}")
        console.print(ratings)
    console.print(f"[dim]{result['method']}[/dim]")


def _lineup(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise ValueError(f"--lineup: agent indices such as 0,1,1, got {text!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agents.tournament",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", choices=GAMES, default="lith")
    parser.add_argument("--players", type=int, default=2, help="seats at each table")
    parser.add_argument(
        "--agents", required=True, help="comma-separated agent specs, e.g. tag,bluffer:freq=0.3"
    )
    parser.add_argument("--hands", type=int, default=2000, help="Lith: hands per table")
    parser.add_argument("--games", type=int, default=200, help="Gendeneia: games per table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--workers", type=int, default=1, help="processes (same results for any number)"
    )
    parser.add_argument("--plain", action="store_true", help="plain dealing instead of duplicate")
    parser.add_argument(
        "--rule", action="append", default=[], help="a game rule, key=value (repeatable)"
    )
    parser.add_argument("--histories", action="store_true", help="save every hand/game record")
    parser.add_argument(
        "--batched",
        action="store_true",
        help="Lith: play many tables at once on the batched engine (agents decide with "
        "act_batch; no histories or analytics)",
    )
    parser.add_argument(
        "--lineup",
        help="one fixed table of agent indices in seat order, e.g. 0,1,1 (the first agent "
        "against two copies of the second)",
    )
    parser.add_argument("--out", help="folder for results.json, results.csv, plots and records")
    args = parser.parse_args(argv)
    try:
        spec = TournamentSpec(
            game=args.game,
            agents=tuple(a.strip() for a in args.agents.split(",") if a.strip()),
            players=args.players,
            units=args.hands if args.game == "lith" else args.games,
            seed=args.seed,
            duplicate=not args.plain,
            rules=parse_rules(args.rule, args.game),
            histories=args.histories,
            analytics=args.game == "lith" and not args.batched,
            lineup=_lineup(args.lineup),
        )
        if len(spec.agents) < 1:
            raise ValueError("--agents: give at least one agent")
        if args.workers < 1:
            raise ValueError(f"--workers: must be at least 1, got {args.workers}")
        if args.batched:
            from agents.batched_tournament import run_batched_tournament

            result = run_batched_tournament(spec, progress=True)
        else:
            result = run_tournament(spec, workers=args.workers, progress=True)
    except (ValueError, TypeError) as error:
        parser.error(str(error))
    print_result({k: v for k, v in result.items() if not k.startswith("_")})
    if args.out:
        write_outputs(result, Path(args.out))
        print(f"results written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
