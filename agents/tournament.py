"""Duplicate tournaments between agents, for Lith and Gendeneía.

    python -m agents.tournament --game lith --players 2 --agents tag,bluffer,caller,random \\
        --hands 20000 --seed 1 --workers 2 --out results/lith
    python -m agents.tournament --game gendeneia --players 3 --agents greedy,spoiler,random \\
        --games 600 --out results/gendeneia

Tables: heads-up, every pairing of the agents; with more seats, every combination of agents
that fills a table (or, with fewer agents than seats, the agents repeated round the table);
``--lineup`` plays one fixed table instead.

Duplicate dealing (the default): a *block* is one deal (Lith: the shuffled deck, the dealer
seat, the demon coin; Gendeneía: the seed of every shuffle) played once in every rotation of
the seating, so every agent holds every seat's cards; card luck cancels within a block. With
``--plain`` each rotation gets its own deal instead. Either way a block is ``--players`` hands
or games, and ``--hands``/``--games`` (per table) must be a whole number of blocks. Blocks are
independent, so an agent's per-block results give a Student-t 95% interval for its mean. Every
random choice (deals, agents' own randomness, reseeded per block) follows from ``--seed`` and
the block number, so any number of worker processes gives the same results.

Agents are labelled by their spec as given (``tag``, ``bluffer:freq=0.3``,
``ppo:runs/x/model.zip``): the same label in the printed tables, results.json/csv, records,
decisions and plots.
"""

from __future__ import annotations

import argparse
import csv
import functools
import inspect
import itertools
import json
import math
import multiprocessing
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import AGENTS, make_agent
from agents.rules import GAMES, game_config, parse_rules
from agents.stats import mean_interval, rate_games
from distributed.cluster import ClusterError, parse_address
from tablegame.engine import as_action_id

__all__ = [
    "BlockResult",
    "TournamentSpec",
    "check_units",
    "main",
    "print_result",
    "run_tournament",
    "summarize",
    "write_outputs",
]


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
    # The specs to build the agents from, when they differ from the labels in ``agents`` (on
    # a Ray worker: the same agents loading that node's copies of their model files).
    sources: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        # An agent's label is its spec as given (surrounding spaces dropped): results, records,
        # decisions and plots all name it so, so two agents may not share one.
        labels = tuple(a.strip() if isinstance(a, str) else a for a in self.agents)
        object.__setattr__(self, "agents", labels)
        for i, label in enumerate(labels):
            if label in labels[:i]:
                raise ValueError(
                    f"agents: {label!r} is listed twice (seat copies of one agent with a lineup)"
                )
        if not (type(self.players) is int and self.players >= 1):
            raise ValueError(f"players: must be a positive integer, got {self.players!r}")
        if not (type(self.units) is int and self.units >= self.players):
            raise ValueError(
                f"units: must be at least one block ({self.players}, one hand or game per "
                f"rotation of the seating), got {self.units!r}"
            )
        if self.sources is not None and len(self.sources) != len(labels):
            raise ValueError(f"sources: one spec per agent ({len(labels)}), got {self.sources!r}")

    def config(self):
        return game_config(self.game, self.players, self.rules)

    def builds(self) -> tuple[str, ...]:
        """The specs the agents are built from: ``sources``, else the labels."""
        return self.sources if self.sources is not None else self.agents

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
        """Blocks of ``players`` hands or games per table: ``units // players`` (a remainder
        short of a whole block is not played; the command line rejects one)."""
        return self.units // self.players

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
    analysed: int = 0  # hands whose decisions are in ``decisions``


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
    agents = _agents(spec.builds(), spec.game, config)
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


def lith_deal(config, deal: int) -> tuple[list[int], int, bool]:
    """The deck order (top first), dealer and demon coin of a Lith deal number."""
    rng = random.Random(deal)
    order = list(config.deck)
    rng.shuffle(order)
    return order, rng.randrange(config.num_players), rng.random() < 0.5


def new_lith_hand(config, deal: int):
    """A fresh ``LithHand`` of deal number ``deal``, every seat with its starting stack."""
    from lith_env.game import LithHand

    order, dealer, demon = lith_deal(config, deal)
    return LithHand(config, config.stacks, dealer, order, demon_heads=demon)


def _play_lith(spec, config, agents, seating, deal, result: BlockResult) -> None:
    from lith_env.encoding import action_from_id, action_mask, encode

    hand = new_lith_hand(config, deal)
    decisions: list[dict[str, Any]] | None = [] if spec.analytics else None
    while not hand.is_over:
        seat = hand.current
        agent_index = seating[seat]
        observation = encode(hand.observe(seat), config)
        mask = action_mask(hand)
        action = action_from_id(hand, as_action_id(agents[agent_index].act(observation, mask)))
        if decisions is not None:
            decisions.append(_decision(hand, seat, agent_index, action))
        hand.apply(action)
    net = hand.net()
    for seat, agent_index in enumerate(seating):
        result.totals[agent_index] = result.totals.get(agent_index, 0) + net[seat]
        result.plays[agent_index] = result.plays.get(agent_index, 0) + 1
    result.games.append([(a, -net[s]) for s, a in enumerate(seating)])  # lower is better
    hand_id = f"{result.index}:{len(result.games) - 1}"
    keep_lith_hand(spec, hand, seating, deal, hand_id, decisions, result, record=spec.histories)


def keep_lith_hand(
    spec: TournamentSpec,
    hand,
    seating: Sequence[int],
    deal: int,
    hand_id: str,
    decisions: list[dict[str, Any]] | None,
    result: BlockResult,
    record: bool,
) -> None:
    """Add a finished hand's decisions (from :func:`_decision`, annotated with the hand's
    outcome; ``None``: none kept) and, with ``record``, its history record to ``result``."""
    from lith_env.history import hand_record

    net = hand.net()
    if record:
        entry = hand_record(hand, seed=deal)
        entry["id"] = hand_id  # the "hand" of its decisions (the report links the two)
        entry["agents"] = [spec.agents[a] for a in seating]
        result.records.append(entry)
    if decisions is None:
        return
    result.analysed += 1
    folded_out = not hand.showdown  # a fold win: everyone but the winner folded
    for d in decisions:
        seat = d["seat"]
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
    shares = game.win_shares()
    for seat, agent_index in enumerate(seating):
        result.totals[agent_index] = result.totals.get(agent_index, 0) + shares[seat]
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
    by_table: dict[tuple[int, ...], list[BlockResult]] = {}
    for b in blocks:
        by_table.setdefault(b.table, []).append(b)
    # Per table (its agents in seat order), each agent's running total over that table's
    # blocks: chips (Lith) or wins (Gendeneía), copies of an agent summed.
    result["cumulative"] = {
        " vs ".join(names[i] for i in table): {
            names[i]: np.cumsum([b.totals[i] for b in mine]).tolist() for i in dict.fromkeys(table)
        }
        for table, mine in by_table.items()
    }
    records = [r for b in blocks for r in b.records]
    decisions = [{**d, "agent": names[d["agent"]]} for b in blocks for d in b.decisions]
    result["recorded"] = {
        "of": sum(len(b.games) for b in blocks),
        "decisions": sum(b.analysed for b in blocks),
        "histories": len(records),
    }
    result["_records"] = records
    result["_decisions"] = decisions
    result["_blocks"] = list(blocks)  # for callers that score seats block by block
    return result


# ---------------------------------------------------------------------------------------------
# Output


def _strict_json(value: Any) -> Any:
    """``value`` with every non-finite float (the infinite interval of a single block) as
    ``None``: JSON has no infinities or NaN."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _strict_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_strict_json(v) for v in value]
    return value


def write_outputs(result: dict[str, Any], out: Path) -> None:
    """results.json, results.csv, decisions.jsonl (analytics), histories.jsonl, and plots."""
    out.mkdir(parents=True, exist_ok=True)
    records = result.pop("_records", [])
    decisions = result.pop("_decisions", [])
    result.pop("_blocks", None)
    (out / "results.json").write_text(json.dumps(_strict_json(result), indent=2))
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


def _interval(c: dict[str, float], number: str) -> str:
    """``[low, high]`` in ``number`` format, or why there is no interval."""
    if not (math.isfinite(c["low"]) and math.isfinite(c["high"])):
        return "n/a (one block)"
    return f"[{c['low']:{number}}, {c['high']:{number}}]"


def print_result(result: dict[str, Any]) -> None:
    """The results as rich tables: per agent, per pairing (heads-up Lith), ratings."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    lith = result["game"] == "lith"
    title = f"{result['game']} tournament, {result['players']} players, {result['dealing']} dealing"
    table = Table(title=title)
    table.add_column("agent", overflow="fold")  # labels are shown whole, never cut short
    if lith:
        for column in ("hands", "chips/100", "95% interval"):
            table.add_column(column, justify="right")
        rows = sorted(
            result["agents_results"].items(), key=lambda kv: -kv[1]["chips_per_100"]["mean"]
        )
        for name, r in rows:
            c = r["chips_per_100"]
            table.add_row(
                escape(name), f"{r['hands']:,}", f"{c['mean']:+.1f}", _interval(c, "+.1f")
            )
    else:
        for column in ("games", "win rate", "95% interval", "mean score", "95% interval"):
            table.add_column(column, justify="right")
        rows = sorted(result["agents_results"].items(), key=lambda kv: -kv[1]["win_rate"]["mean"])
        for name, r in rows:
            w, s = r["win_rate"], r["mean_score"]
            table.add_row(
                escape(name),
                f"{r['games']:,}",
                f"{w['mean']:.3f}",
                _interval(w, ".3f"),
                f"{s['mean']:.2f}",
                _interval(s, ".2f"),
            )
    console.print(table)
    if "pairings" in result:
        pairs = Table(title="Pairings (chips/100 hands for the first agent)")
        pairs.add_column("pairing", overflow="fold")
        for column in ("chips/100", "95% interval"):
            pairs.add_column(column, justify="right")
        for name, p in result["pairings"].items():
            c = p["chips_per_100"]
            pairs.add_row(escape(name), f"{c['mean']:+.1f}", _interval(c, "+.1f"))
        console.print(pairs)
    if "ratings" in result:
        ratings = Table(title="openskill ratings (Plackett-Luce)")
        ratings.add_column("agent", overflow="fold")
        for column in ("mu", "sigma", "ordinal"):
            ratings.add_column(column, justify="right")
        for name, r in sorted(result["ratings"].items(), key=lambda kv: -kv[1]["ordinal"]):
            ratings.add_row(
                escape(name), f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}"
            )
        console.print(ratings)
    recorded = result.get("recorded", {})
    if 0 < recorded.get("decisions", 0) < recorded.get("of", 0):
        console.print(
            f"[dim]decisions and histories recorded for a sample of {recorded['decisions']:,} "
            f"of {recorded['of']:,} hands[/dim]"
        )
    console.print(f"[dim]{escape(result['method'])}[/dim]")


# ---------------------------------------------------------------------------------------------
# Command line

DEFAULT_UNITS = {"lith": 2000, "gendeneia": 200}  # --hands (Lith), --games (Gendeneía)


def agent_catalogue(game: str) -> str:
    """The built-in agents of ``game`` for help texts: names, with the parameters each takes."""
    from agents.base import load_agents

    load_agents()
    entries = []
    for name, factory in sorted(AGENTS[game].items()):
        argument = getattr(factory, "spec_argument", None)
        if argument:
            entries.append(f"{name}:{argument.upper()}")
            continue
        parameters = [
            p.rstrip("_")
            for p in inspect.signature(factory).parameters
            if p not in ("seed", "config")
        ]
        entries.append(name + (f" ({', '.join(parameters)})" if parameters else ""))
    return ", ".join(entries)


def check_units(units: int, players: int, game: str, duplicate: bool = True) -> None:
    """Raise ``ValueError`` naming the flag unless ``units`` is a whole number of blocks."""
    flag, what = ("--hands", "hands") if game == "lith" else ("--games", "games")
    if units < players or units % players:
        how = (
            f"one deal played in each of the {players} rotations of the seating"
            if duplicate
            else f"the {players} rotations of the seating, each dealt afresh with --plain"
        )
        raise ValueError(
            f"{flag}: must be a positive multiple of {players}, the {what} in a block ({how}), "
            f"got {units}"
        )


def int_at_least(low: int) -> Any:
    """An argparse type: an integer of at least ``low``, or an error naming the value."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    return parse


def output_folder(text: str, flag: str = "--out") -> Path:
    """The folder a command writes to, made now: a file there, or a folder that cannot be
    made, is a ``ValueError`` naming ``flag`` (before any work is done)."""
    out = Path(text)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{flag}: {str(out)!r} is a file, not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"{flag}: cannot make the folder {str(out)!r} ({error})") from None
    return out


def _record(text: str) -> int | str:
    if text == "all":
        return text
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"must be 'all' or a positive number of hands, got {text!r}"
        )
    return value


def _lineup(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"agent indices (0 for the first of --agents) such as 0,1,1, got {text!r}"
        ) from None


def _check_lineup(lineup: tuple[int, ...], agents: Sequence[str], players: int) -> None:
    m = len(agents)
    if len(lineup) != players:
        raise ValueError(
            f"--lineup: one agent index per seat ({players} for --players {players}), "
            f"got {len(lineup)}"
        )
    for i in lineup:
        if not 0 <= i < m:
            raise ValueError(
                f"--lineup: agent indices are 0-{m - 1} (the --agents in order), got {i}"
            )
    for i, name in enumerate(agents):
        if i not in lineup:
            raise ValueError(f"--lineup: agent {i} ({name}) has no seat; seat it or drop it")


def _config_error(error: ValueError, rules: dict[str, Any]) -> str:
    """A game config's error in the words of the command line: the flag that set the field."""
    text = str(error)
    field_name = text.split(":", 1)[0]
    if field_name == "num_players":
        return "--players" + text[len(field_name) :]
    if field_name in rules:
        return f"--rule {text}"
    return text


def build_parser() -> argparse.ArgumentParser:
    """The tournament's command line (every option's help shows its default)."""
    parser = argparse.ArgumentParser(
        prog="python -m agents.tournament",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--game", choices=GAMES, default="lith", help="the game to play (default: %(default)s)"
    )
    parser.add_argument(
        "--players",
        type=int_at_least(2),
        default=2,
        help="seats at each table: 2-10 for Lith, 2-6 for Gendeneía (default: %(default)s)",
    )
    parser.add_argument(
        "--agents",
        required=True,
        help="comma-separated agent specs: NAME, NAME:key=value:key=value, or ppo:PATH; "
        "each agent is labelled by its spec everywhere (tables, files, plots). Heads-up, every "
        "pairing is played; with more seats, every combination that fills a table. "
        f"Lith: {agent_catalogue('lith')}. Gendeneía: {agent_catalogue('gendeneia')}. "
        "Required; at least two agents, or one with --lineup.",
    )
    parser.add_argument(
        "--hands",
        type=int,
        help="Lith only: hands per table, a positive multiple of --players (a block: one deal "
        f"in every rotation of the seating) (default: {DEFAULT_UNITS['lith']}, in whole "
        "blocks: 1998 at 3 players)",
    )
    parser.add_argument(
        "--games",
        type=int,
        help="Gendeneía only: games per table, a positive multiple of --players "
        f"(default: {DEFAULT_UNITS['gendeneia']}, in whole blocks: 198 at 3 players)",
    )
    parser.add_argument(
        "--seed",
        type=int_at_least(0),
        default=0,
        help="seed of every deal and of the agents' own randomness (default: %(default)s)",
    )
    parser.add_argument(
        "--workers",
        type=int_at_least(1),
        help="processes sharing the blocks, the same results for any number; the batched "
        "tournament runs in one; with --ray and no address, the local Ray's CPUs "
        "(default: 1; with --ray, every core)",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="play the blocks (or the batches, with --batched) as tasks on a Ray cluster: "
        "auto (the cluster this machine joined), HOST:PORT of its head, ray://HOST:PORT, or no "
        "address for a local Ray; the same results as one process (docs/scale.md) "
        "(default: no Ray)",
    )
    parser.add_argument(
        "--task-blocks",
        type=int_at_least(1),
        metavar="N",
        help="with --ray, per-table: blocks in each task (default: 4 tasks a CPU, at least "
        "200 blocks a task)",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="deal every rotation of the seating afresh instead of replaying one deal in each "
        "(default: duplicate dealing)",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game rule, repeatable, e.g. betting=no-limit, excuse=demon (Lith), "
        "presum=subtract (Gendeneía); an unknown key lists the game's rules (default: none, "
        "the standard rules)",
    )
    parser.add_argument(
        "--histories",
        action="store_true",
        help="save every hand's or game's record to histories.jsonl in --out (default: off; "
        "with --batched, use --record)",
    )
    parser.add_argument(
        "--batched",
        action="store_true",
        help="Lith: play many tables at once on the batched engine, agents deciding with "
        "act_batch (default: off, one table at a time). Records only what --record asks",
    )
    parser.add_argument(
        "--record",
        type=_record,
        metavar="all|N",
        help="with --batched: keep the decisions (for agents.analyze) and hand records "
        "(histories.jsonl) of every hand, or of a seeded sample of N hands (default: none; "
        "the per-table tournament always keeps Lith decisions)",
    )
    parser.add_argument(
        "--lineup",
        type=_lineup,
        metavar="I,J,...",
        help="one fixed table instead of every pairing: an index into --agents per seat, e.g. "
        "0,1,1 (the first agent against two copies of the second), rotated through every seat; "
        "every agent must be seated. One agent may play copies of itself (--agents tag "
        "--lineup 0,0): its results are zero-sum, its decisions still show how it plays "
        "(default: every pairing or combination)",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="folder for results.json, results.csv, the plots, decisions.jsonl and "
        "histories.jsonl (default: print the results only)",
    )
    return parser


def _spec_from_args(args: argparse.Namespace) -> TournamentSpec:
    """The tournament the arguments ask for; ``ValueError`` naming the flag if they are bad."""
    lith = args.game == "lith"
    if lith and args.games is not None:
        raise ValueError("--games: Lith tournaments count hands; use --hands")
    if not lith and args.hands is not None:
        raise ValueError("--hands: Gendeneía tournaments count games; use --games")
    rules = parse_rules(args.rule, args.game)
    try:
        config = game_config(args.game, args.players, rules)
    except ValueError as error:
        raise ValueError(_config_error(error, rules)) from None
    if lith and rules.get("max_hands") is not None:
        raise ValueError(
            "--rule max_hands: a tournament plays single hands, each from the starting stacks"
        )
    units = args.hands if lith else args.games
    if units is None:  # the default, in whole blocks
        units = DEFAULT_UNITS[args.game] // args.players * args.players
    check_units(units, args.players, args.game, duplicate=not args.plain)
    agents = tuple(a.strip() for a in args.agents.split(","))
    if not all(agents):
        raise ValueError(f"--agents: an empty agent spec in {args.agents!r}")
    for i, name in enumerate(agents):
        if name in agents[:i]:
            raise ValueError(
                f"--agents: {name!r} is listed twice; to seat copies of one agent, use --lineup"
            )
    if args.lineup is None and len(agents) < 2:
        raise ValueError(
            "--agents: give at least two agents to pair; one agent plays copies of itself "
            "only at a fixed table (--lineup 0,0)"
        )
    if args.lineup is not None:
        _check_lineup(args.lineup, agents, args.players)
    if args.batched:
        if not lith:
            raise ValueError(f"--batched: batched tournaments play Lith only, got {args.game}")
        if args.histories:
            raise ValueError("--histories: the batched tournament records with --record all|N")
        if args.workers not in (None, 1) and args.ray is None:
            raise ValueError("--workers: the batched tournament runs in one process")
    if args.ray is not None:
        address = parse_address(args.ray)
        if address is not None and args.workers is not None:
            raise ValueError(
                "--workers: a Ray cluster has its own CPUs; give it only with a local --ray"
            )
        if args.batched and args.task_blocks is not None:
            raise ValueError("--task-blocks: a batched tournament's tasks are its batches")
    elif args.task_blocks is not None:
        raise ValueError("--task-blocks: only with --ray")
    if not args.batched and args.record is not None:
        raise ValueError(
            "--record: only with --batched (the per-table tournament keeps every Lith decision, "
            "and every record with --histories)"
        )
    for name in agents:
        try:
            make_agent(name, args.game, config=config)
        except ValueError as error:
            raise ValueError(f"--agents: {error}") from None
    spec = TournamentSpec(
        game=args.game,
        agents=agents,
        players=args.players,
        units=units,
        seed=args.seed,
        duplicate=not args.plain,
        rules=rules,
        histories=args.histories,
        analytics=lith and not args.batched,
        lineup=args.lineup,
    )
    hands = spec.num_blocks() * spec.players
    if isinstance(args.record, int) and args.record > hands:
        raise ValueError(f"--record: {args.record} hands asked, the tournament plays {hands}")
    return spec


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        spec = _spec_from_args(args)
        out = output_folder(args.out) if args.out else None
        if args.ray is not None:
            from distributed.tournament import run_tournament_on_ray

            result = run_tournament_on_ray(
                spec,
                address=parse_address(args.ray),
                num_cpus=args.workers,
                batched=args.batched,
                record=args.record,
                task_blocks=args.task_blocks,
                progress=True,
            )
        elif args.batched:
            from agents.batched_tournament import run_batched_tournament

            result = run_batched_tournament(spec, record=args.record, progress=True)
        else:
            result = run_tournament(spec, workers=args.workers or 1, progress=True)
    except ClusterError as error:
        parser.error(f"--ray: {error}")
    except (ValueError, TypeError) as error:
        parser.error(str(error))
    print_result({k: v for k, v in result.items() if not k.startswith("_")})
    if out is not None:
        write_outputs(result, out)
        print(f"results written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
