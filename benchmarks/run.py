"""Benchmarks of the suite, each measured beside a reference in the same run.

    python -m benchmarks.run hands [--n 1000000] [--repeat 31] [--json PATH]
    python -m benchmarks.run envs [--players 2,6] [--seconds 1] [--env-repeat 5]
    python -m benchmarks.run gendeneia [--seconds 1] [--env-repeat 5]
    python -m benchmarks.run batched [--seconds 1] [--env-repeat 5] [--ppo-steps 32768]
    python -m benchmarks.run solver [--solver-iterations 20] [--env-repeat 5]
    python -m benchmarks.run ray [--ray-hands 6000] [--env-repeat 3]
    python -m benchmarks.run population [--population-steps 200000]
    python -m benchmarks.run report [--report-hands 100000] [--env-repeat 5]

``hands``: :func:`lith_env.hands.strength` on random hands (int32 and int64 input) against a bare
numpy gather of the same size from a table of the same length (the practical limit) and against
the per-hand reference evaluator (timed on a subset, reported per hand).
``envs``: random legal play on Lith-v0 and the Lith AEC env beside RLCard's limit hold'em and
PettingZoo's texas_holdem_v4 (install the ``bench`` extra): steps/s, hands/s, and every
seat's decisions/s (a ``Lith-v0`` step holds the opponents' decisions too). ``gendeneia``:
random legal play on Gendeneia-v0 and its AEC env for 2, 4 and 6 players. ``batched``: the
batched Lith engine (heads-up limit, random legal actions) at N = 1, 64, 1024, 4096 tables,
with and without the acting seats' observations, beside the single-table engine and
OpenSpiel's C++ ``universal_poker`` heads-up limit hold'em; then MaskablePPO's training
throughput on the batched vector env against 8 single ``Lith-v0`` envs. Figures are medians over
``--repeat`` runs; ratios compare figures of the same run, so machine noise mostly cancels.
``solver``: information-set updates per second of the exact solver (``lith_solver.one_round``,
discounted CFR on one-round heads-up Lith, the whole deck: 10 decisions x 13,244 hands) beside
OpenSpiel's C++ CFR+ on Leduc poker (936 information sets).
``ray``: a heads-up duplicate tournament (``tag`` against ``bluffer``) in one process, in
``--workers 2`` processes, and on a local Ray with 1 and 2 CPUs (``--ray``, default task
sizes); then the cost of a Ray task (blocks played one a task on one CPU, against the same
blocks in one process) and what it adds at the default task size. Ray's start is not timed.
``population``: ``train.py``'s learner steps per second with the plain self-play pool
(``mixture = "uniform"``) and with population training (``mixture = "nash"``), the same
heads-up run otherwise (64 batched tables, ``tag, bluffer, rock, caller, self``, a snapshot
every tenth of the run); and on the one-round game, self-play against the newest snapshot
and exploitability descent (``mixture = "best_response"``), both every 4,096 steps; then where
the time goes in each, from a profiled run of the same length: the engine and observations,
the opponents' inference, the learner's network acting, its updates, the population's
payoff tournaments and the exact best responses.
``report``: ``report.html`` (``tournaments.report.cli --html``) of a heads-up batched tournament
(``tag`` against ``bluffer``, every hand recorded) in Debian's headless Chromium: the time to
open the page (navigation start to a built hand browser) and to apply a filter, with
``--report-hands`` hands beside the same page of 1,000 hands (the fixed cost of a page), and
the bytes a hand; the tournament and the report are built once, untimed but for the report.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from lith_env.cards import deck
from lith_env.hands import strength, strength_table
from lith_env.hands_reference import reference_key
from tablegame.agent import legal_ids


def median_seconds(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Median wall time of each function over ``repeat`` rounds, after one warm-up round.

    The functions take turns within each round, so drift in machine load hits them alike.
    """
    times: dict[str, list[float]] = {name: [] for name in fns}
    for round_ in range(repeat + 1):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            if round_:
                times[name].append(time.perf_counter() - start)
    return {name: statistics.median(ts) for name, ts in times.items()}


def random_hands(n: int, seed: int = 0, pawns_and_courts: bool = True) -> np.ndarray:
    """``n`` uniformly random 3-card hands of the deck, cards in random order, as int32."""
    rng = np.random.default_rng(seed)
    ids = np.array(deck(pawns_and_courts))
    combos = np.array(
        [(a, b, c) for a in ids for b in ids for c in ids if a < b < c], dtype=np.int32
    )
    hands = combos[rng.integers(0, len(combos), n)]
    return rng.permuted(hands, axis=1)


def bench_hands(n: int, repeat: int, reference_n: int) -> dict:
    """Time ``strength`` against a bare gather and the per-hand reference."""
    hands32 = random_hands(n)
    hands64 = hands32.astype(np.int64)
    table = strength_table()
    rng = np.random.default_rng(1)
    index_intp = rng.integers(0, len(table), n)
    index_int32 = index_intp.astype(np.int32)
    subset = hands32[:reference_n].tolist()

    seconds = median_seconds(
        {
            "bare gather, intp index": lambda: table[index_intp],
            "bare gather, int32 index": lambda: table[index_int32],
            "strength, int32 hands": lambda: strength(hands32),
            "strength, int64 hands": lambda: strength(hands64),
        },
        repeat,
    )
    reference = median_seconds({"ref": lambda: [reference_key(h) for h in subset]}, 3)["ref"]
    seconds["per-hand reference (scaled)"] = reference * n / reference_n
    return {
        "n": n,
        "repeat": repeat,
        "reference_n": reference_n,
        "table_entries": len(table),
        "seconds": seconds,
        "ratios": {
            "strength int32 / bare gather int32": seconds["strength, int32 hands"]
            / seconds["bare gather, int32 index"],
            "strength int32 / bare gather intp": seconds["strength, int32 hands"]
            / seconds["bare gather, intp index"],
            "reference / strength int32": seconds["per-hand reference (scaled)"]
            / seconds["strength, int32 hands"],
        },
    }


def print_hands(result: dict, console: Console) -> None:
    n = result["n"]
    table = Table(title=f"strength: {n:,} random hands, median of {result['repeat']}")
    table.add_column("what")
    table.add_column("ms", justify="right")
    table.add_column("M hands/s", justify="right")
    for name, s in result["seconds"].items():
        table.add_row(name, f"{1e3 * s:.2f}", f"{n / s / 1e6:.2f}")
    console.print(table)
    ratios = Table(title="Ratios (same run)")
    ratios.add_column("ratio")
    ratios.add_column("value", justify="right")
    for name, value in result["ratios"].items():
        ratios.add_row(name, f"{value:,.1f}")
    console.print(ratios)


# ---------------------------------------------------------------------------------------------
# Environments under random legal play


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = legal_ids(mask)  # the legal ids, as RLCard's harness below lists its legal actions
    return legal[rng.integers(len(legal))]


def run_gym(
    env, seconds: float, seed: int = 0, decisions_of: Callable[[Any], int] | None = None
) -> tuple[int, int, float, int | None]:
    """Random legal learner actions on a single-agent env: (steps, episodes, seconds,
    decisions). ``decisions_of(env)``, read when an episode ends, is how many decisions every
    seat made in it (learner and opponents); without it the decisions are not counted (None)."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps = episodes = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, terminated, truncated, info = env.step(_pick(info["action_mask"], rng))
        steps += 1
        if terminated or truncated:
            episodes += 1
            if decisions_of is not None:
                decisions += decisions_of(env)
            _, info = env.reset()
    elapsed = time.perf_counter() - start
    return steps, episodes, elapsed, decisions if decisions_of is not None else None


def lith_decisions(env) -> int:
    """Decisions of every seat in the hand a ``Lith-v0`` episode (``episode="hand"``) played."""
    return len(env.table.game.hand.actions)


def run_aec(env, seconds: float, seed: int = 0) -> tuple[int, int, float, int]:
    """Random legal actions for every agent of an AEC env: (steps, episodes, seconds,
    decisions), a decision a step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(_pick(observation["action_mask"], rng))
            steps += 1
        episodes += 1
        env.reset()
    return steps, episodes, time.perf_counter() - start, steps


def run_rlcard(
    env, seconds: float, seed: int = 0, only_seat: int | None = None
) -> tuple[int, int, float, int]:
    """Random legal actions on an RLCard env: every step is one player's action, and counts
    as one, or (``only_seat``) only the decisions of that seat count, as a single learner's.
    (steps, episodes, seconds, decisions of every seat)."""
    rng = np.random.default_rng(seed)
    state, player = env.reset()
    steps = episodes = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = list(state["legal_actions"])
        steps += only_seat is None or player == only_seat
        decisions += 1
        state, player = env.step(legal[rng.integers(len(legal))])
        if env.is_over():
            episodes += 1
            state, player = env.reset()
    return steps, episodes, time.perf_counter() - start, decisions


def bench_envs(players: Sequence[int], seconds: float, repeat: int) -> dict:
    """Lith-v0 and the Lith AEC env beside RLCard's limit hold'em and PettingZoo's
    texas_holdem_v4, each run ``repeat`` times for ``seconds``, in turns; medians."""
    import gymnasium as gym

    import lith_env

    try:
        import rlcard
        from pettingzoo.classic import texas_holdem_v4
    except ImportError as error:  # the references come with the `bench` extra
        raise SystemExit(f"env benchmarks need the bench extra: {error}") from error

    results: dict = {}
    for n in players:
        subjects = {
            "Lith-v0": (
                functools.partial(run_gym, decisions_of=lith_decisions),
                lambda n=n: gym.make("Lith-v0", num_players=n).unwrapped,
            ),
            "Lith AEC": (run_aec, lambda n=n: lith_env.aec_env(num_players=n)),
            "RLCard limit-holdem": (
                run_rlcard,
                lambda n=n: rlcard.make("limit-holdem", config={"game_num_players": n, "seed": 0}),
            ),
            "PettingZoo texas_holdem_v4": (run_aec, lambda n=n: texas_holdem_v4.env(num_players=n)),
            # Like for like with Lith-v0: one seat's decisions, the others played in between.
            "RLCard limit-holdem, seat 0's steps": (
                functools.partial(run_rlcard, only_seat=0),
                lambda n=n: rlcard.make("limit-holdem", config={"game_num_players": n, "seed": 0}),
            ),
        }
        envs = {name: make() for name, (_, make) in subjects.items()}
        rates: dict[str, dict[str, list[float]]] = {
            name: {"steps/s": [], "hands/s": [], "decisions/s": []} for name in subjects
        }
        for round_ in range(repeat):
            for name, (runner, _) in subjects.items():
                steps, episodes, elapsed, decisions = runner(envs[name], seconds, seed=round_)
                rates[name]["steps/s"].append(steps / elapsed)
                rates[name]["hands/s"].append(episodes / elapsed)
                rates[name]["decisions/s"].append(decisions / elapsed)
        results[str(n)] = {
            name: {k: statistics.median(v) for k, v in r.items()} for name, r in rates.items()
        }
        row = results[str(n)]
        row["ratios"] = {
            "Lith-v0 / RLCard steps": row["Lith-v0"]["steps/s"]
            / row["RLCard limit-holdem"]["steps/s"],
            "Lith AEC / PettingZoo steps": row["Lith AEC"]["steps/s"]
            / row["PettingZoo texas_holdem_v4"]["steps/s"],
            "Lith-v0 / RLCard seat 0's steps": row["Lith-v0"]["steps/s"]
            / row["RLCard limit-holdem, seat 0's steps"]["steps/s"],
            # Every seat's decisions, whichever env makes them: the engines' pace side by side.
            "Lith-v0 / RLCard decisions": row["Lith-v0"]["decisions/s"]
            / row["RLCard limit-holdem"]["decisions/s"],
        }
    return results


def print_envs(result: dict, console: Console) -> None:
    for n, row in result.items():
        table = Table(title=f"Random legal play, {n} players (medians)")
        for column in ("env", "steps/s", "hands/s", "decisions/s", "decisions/step"):
            table.add_column(column, justify="left" if column == "env" else "right")
        for name, figures in row.items():
            if name != "ratios":
                table.add_row(
                    name,
                    *(f"{figures[k]:,.0f}" for k in ("steps/s", "hands/s", "decisions/s")),
                    f"{figures['decisions/s'] / figures['steps/s']:.2f}",
                )
        console.print(table)
        for name, value in row["ratios"].items():
            console.print(f"  {name}: {value:.2f}x")


def bench_gendeneia(players: Sequence[int], seconds: float, repeat: int) -> dict:
    """Random legal play on Gendeneia-v0 and the Gendeneia AEC env: steps/s and games/s."""
    import gymnasium as gym

    import gendeneia_env

    results: dict = {}
    for n in players:
        subjects = {
            "Gendeneia-v0": (run_gym, gym.make("Gendeneia-v0", num_players=n).unwrapped),
            "Gendeneia AEC": (run_aec, gendeneia_env.aec_env(num_players=n)),
        }
        rates: dict[str, dict[str, list[float]]] = {
            name: {"steps/s": [], "games/s": []} for name in subjects
        }
        for round_ in range(repeat):
            for name, (runner, env) in subjects.items():
                steps, episodes, elapsed, _ = runner(env, seconds, seed=round_)
                rates[name]["steps/s"].append(steps / elapsed)
                rates[name]["games/s"].append(episodes / elapsed)
        results[str(n)] = {
            name: {k: statistics.median(v) for k, v in r.items()} for name, r in rates.items()
        }
    return results


def print_gendeneia(result: dict, console: Console) -> None:
    table = Table(title="Gendeneia, random legal play, 10 rounds a game (medians)")
    for column in ("players", "env", "steps/s", "games/s"):
        table.add_column(column, justify="left" if column == "env" else "right")
    for n, row in result.items():
        for name, figures in row.items():
            table.add_row(n, name, f"{figures['steps/s']:,.0f}", f"{figures['games/s']:,.1f}")
    console.print(table)


def bench_search(repeat: int, states: int = 20) -> dict:
    """What a search pays a simulation on three-player Gendeneía mid-game states (after 10-40
    random actions): ``GendeneiaGame.clone`` against ``copy.deepcopy`` (the reference, in the
    same run), and a sampled world from the seat's observation (``gendeneia_env.worlds``);
    microseconds a call, medians over ``repeat`` timings of every state."""
    import copy
    import random

    from gendeneia_env.encoding import encode
    from gendeneia_env.game import GendeneiaConfig, GendeneiaGame
    from gendeneia_env.worlds import sample_world, view_from_observation

    config = GendeneiaConfig()
    games = []
    for seed in range(states):
        game, rng = GendeneiaGame(config, seed=seed), random.Random(seed)
        for _ in range(10 + seed * 30 // max(states - 1, 1)):
            game.apply(rng.choice(game.legal_actions()))
        games.append(game)
    views = [view_from_observation(encode(g.observe(g.current), config), config) for g in games]
    world_rng = random.Random(0)
    fns = {
        "deepcopy": lambda: [copy.deepcopy(g) for g in games],
        "clone": lambda: [g.clone() for g in games],
        "sampled world": lambda: [sample_world(v, config, world_rng) for v in views],
    }
    seconds = median_seconds(fns, repeat)
    micro = {name: 1e6 * t / states for name, t in seconds.items()}
    return {"microseconds": micro, "clone_speedup": micro["deepcopy"] / micro["clone"]}


def bench_ismcts(iterations: int, repeat: int, states: int = 12) -> dict:
    """The search itself, on one core: simulations a second of ``agents.ismcts`` against
    OpenSpiel's ``ISMCTSBot`` (the reference) on Kuhn poker, both with random rollouts, timed
    in turn in the same run; and milliseconds a Gendeneía decision of ``ismcts:iterations=N``
    (default options) at the opening, mid game and end game of three-player games."""
    import random

    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from agents.gendeneia_ismcts import ISMCTSAgent
    from agents.ismcts import SearchSettings, SpielRules, search
    from gendeneia_env.encoding import action_mask, encode
    from gendeneia_env.game import GendeneiaConfig, GendeneiaGame

    kuhn = pyspiel.load_game("kuhn_poker")
    root = kuhn.new_initial_state()
    for card in (0, 2):
        root.apply_action(card)
    rules, settings = SpielRules(seed=0), SearchSettings(iterations=iterations, c=2.0)
    bot = ismcts.ISMCTSBot(
        kuhn,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        2.0,
        iterations,
        random_state=np.random.RandomState(0),
    )
    rng = random.Random(0)
    seconds = median_seconds(
        {
            "agents.ismcts": lambda: search(
                rules, lambda r: rules.sample_world(root, r), settings, rng
            ),
            "OpenSpiel ISMCTSBot": lambda: bot.get_policy(root),
        },
        repeat,
    )
    kuhn_rates = {name: iterations / t for name, t in seconds.items()}

    config = GendeneiaConfig()
    agent = ISMCTSAgent(seed=0, config=config, iterations=iterations)
    stages: dict[str, list[float]] = {"opening": [], "mid game": [], "end game": []}
    for seed in range(states):
        game, play = GendeneiaGame(config, seed=seed), random.Random(seed)
        while not game.is_over:
            mask = action_mask(game)
            if mask.sum() > 1:
                stage = (
                    "opening" if game.round < 3 else "mid game" if game.round < 7 else "end game"
                )
                obs = encode(game.observe(game.current), config)
                start = time.perf_counter()
                agent.act(obs, mask)
                stages[stage].append(1000 * (time.perf_counter() - start))
            game.apply(play.choice(game.legal_actions()))
    ms = {
        stage: {"median": float(np.median(t)), "p95": float(np.percentile(t, 95)), "n": len(t)}
        for stage, t in stages.items()
    }
    every = [t for ts in stages.values() for t in ts]
    ms["all"] = {
        "median": float(np.median(every)),
        "p95": float(np.percentile(every, 95)),
        "n": len(every),
    }
    return {
        "iterations": iterations,
        "kuhn simulations/s": kuhn_rates,
        "kuhn speedup": kuhn_rates["agents.ismcts"] / kuhn_rates["OpenSpiel ISMCTSBot"],
        "gendeneia ms a decision": ms,
    }


def bench_lith_search(iterations: int, repeat: int, hands: int = 6) -> dict:
    """The Lith search on one core: microseconds a world (a sampled world, one weighed by the
    others' betting, against ``copy.deepcopy`` of the hand, the reference in the same run) at
    every decision of random hands; and milliseconds a decision of ``ismcts:iterations=N``
    (default options) heads-up and six-handed against ``tag``."""
    import copy
    import random

    from agents.lith_ismcts import ISMCTSAgent, believed_world
    from lith_env.encoding import action_from_id, encode, legal_mask
    from lith_env.game import LithConfig, LithHand
    from lith_env.worlds import sample_world, view_from_observation
    from tablegame.registry import make_agent

    def deal(config: LithConfig, seed: int) -> LithHand:
        rng = random.Random(seed)
        order = list(config.deck)
        rng.shuffle(order)
        return LithHand(config, config.stacks, seed % config.num_players, order)

    config = LithConfig()
    states, views, play = [], [], random.Random(0)
    for seed in range(hands):
        hand = deal(config, seed)
        while not hand.is_over:
            states.append(copy.deepcopy(hand))
            views.append(view_from_observation(encode(hand.observe(hand.current), config), config))
            ids = [i for i in legal_mask(hand).nonzero()[0].tolist() if i]
            hand.apply(action_from_id(hand, play.choice(ids)))
    world_rng = random.Random(0)
    fns = {
        "deepcopy": lambda: [copy.deepcopy(h) for h in states],
        "sampled world": lambda: [sample_world(v, config, world_rng) for v in views],
        "world weighed by the betting": lambda: [
            believed_world(v, config, "tag", world_rng) for v in views
        ],
    }
    micro = {name: 1e6 * t / len(states) for name, t in median_seconds(fns, repeat).items()}

    decisions = {}
    for players in (2, 6):
        config = LithConfig(num_players=players)
        agent = ISMCTSAgent(seed=0, config=config, iterations=iterations)
        tag = make_agent("tag", "lith", seed=1, config=config)
        times: list[float] = []
        for seed in range(hands):
            hand = deal(config, seed)
            while not hand.is_over:
                obs, mask = encode(hand.observe(hand.current), config), legal_mask(hand)
                if hand.current == 0 and mask.sum() > 1:
                    start = time.perf_counter()
                    choice = agent.act(obs, mask)
                    times.append(1000 * (time.perf_counter() - start))
                else:
                    choice = tag.act(obs, mask)
                hand.apply(action_from_id(hand, choice))
        decisions[f"{players} players"] = {
            "median": float(np.median(times)),
            "p95": float(np.percentile(times, 95)),
            "n": len(times),
        }
    return {"iterations": iterations, "microseconds": micro, "ms a decision": decisions}


def print_lith_search(result: dict, console: Console) -> None:
    table = Table(title="Lith worlds, heads-up, every decision of random hands (medians)")
    table.add_column("call")
    table.add_column("µs", justify="right")
    for name, value in result["microseconds"].items():
        table.add_row(name, f"{value:,.1f}")
    console.print(table)
    table = Table(title=f"Lith ismcts:iterations={result['iterations']} against tag, one core")
    for column in ("table", "decisions", "median ms", "p95 ms"):
        table.add_column(column, justify="left" if column == "table" else "right")
    for name, figures in result["ms a decision"].items():
        table.add_row(name, str(figures["n"]), f"{figures['median']:.1f}", f"{figures['p95']:.1f}")
    console.print(table)


def print_ismcts(result: dict, console: Console) -> None:
    table = Table(title=f"ISMCTS on Kuhn poker, {result['iterations']} simulations a search")
    table.add_column("search")
    table.add_column("simulations/s", justify="right")
    for name, rate in result["kuhn simulations/s"].items():
        table.add_row(name, f"{rate:,.0f}")
    console.print(table)
    console.print(f"  agents.ismcts against OpenSpiel's bot: {result['kuhn speedup']:.1f}x")
    table = Table(title=f"ismcts:iterations={result['iterations']}, 3-player Gendeneía, one core")
    for column in ("stage", "decisions", "median ms", "p95 ms"):
        table.add_column(column, justify="left" if column == "stage" else "right")
    for stage, figures in result["gendeneia ms a decision"].items():
        table.add_row(stage, str(figures["n"]), f"{figures['median']:.1f}", f"{figures['p95']:.1f}")
    console.print(table)


def print_search(result: dict, console: Console) -> None:
    table = Table(title="Gendeneía search primitives, 3 players, mid-game (medians)")
    table.add_column("call")
    table.add_column("µs", justify="right")
    for name, value in result["microseconds"].items():
        table.add_row(name, f"{value:,.1f}")
    console.print(table)
    console.print(f"  clone against deepcopy: {result['clone_speedup']:.1f}x faster")


# ---------------------------------------------------------------------------------------------
# The batched engine


HULH = (
    "universal_poker(betting=limit,numPlayers=2,numRounds=4,blind=10 5,firstPlayer=2 1 1 1,"
    "numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,raiseSize=10 10 20 20,"
    "maxRaises=3 4 4 4)"
)  # heads-up limit hold'em as OpenSpiel defines it


def run_batched(num_tables: int, seconds: float, observe: bool, seed: int = 0):
    """Random legal actions at every table of a heads-up limit batched engine, finished tables
    dealt again: (table-steps, hands, seconds)."""
    from lith_env.batched import BatchedLith
    from lith_env.game import LithConfig
    from tablegame.agent import uniform_legal

    engine = BatchedLith(LithConfig(num_players=2), num_tables, episode="hand")
    engine.reset(seed)
    rng = np.random.default_rng(seed)
    steps = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = engine.action_masks()
        if observe:
            engine.encode(engine.current.clip(0))
        steps += int(np.count_nonzero(engine.current >= 0))
        engine.step(uniform_legal(masks, rng))
        done = np.flatnonzero(engine.match_over)
        if len(done):
            hands += len(done)
            engine.reset(None, tables=done)
    return steps, hands, time.perf_counter() - start


def run_single_table(seconds: float, observe: bool, seed: int = 0):
    """The same play on the per-table engine (``LithTable``), one table."""
    from lith_env.game import LithConfig
    from lith_env.table import LithTable

    table = LithTable(LithConfig(num_players=2))
    rng = np.random.default_rng(seed)
    table.reset(seed)
    steps = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if observe:
            table.encode(table.current_player)
        table.apply_id(_pick(table.action_mask(), rng))
        steps += 1
        if table.is_over:
            hands += 1
            table.reset(None)
    return steps, hands, time.perf_counter() - start


def run_openspiel(game, seconds: float, observe: bool, seed: int = 0):
    """Random legal play of an OpenSpiel game: (decisions, hands, seconds); chance moves (the
    deal) are played but not counted as steps."""
    rng = np.random.default_rng(seed)
    steps = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            if observe:
                state.observation_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
        hands += 1
    return steps, hands, time.perf_counter() - start


def bench_batched(sizes: Sequence[int], seconds: float, repeat: int, ppo_steps: int) -> dict:
    try:
        import pyspiel
    except ImportError as error:  # the reference comes with the `bench` extra
        raise SystemExit(f"the batched benchmark needs the bench extra: {error}") from error
    game = pyspiel.load_game(HULH)
    subjects: dict[str, Callable[[bool, int], tuple[int, int, float]]] = {
        f"batched N={n}": (lambda observe, r, n=n: run_batched(n, seconds, observe, r))
        for n in sizes
    }
    subjects["single-table engine"] = lambda observe, r: run_single_table(seconds, observe, r)
    subjects["OpenSpiel universal_poker HULH"] = lambda observe, r: run_openspiel(
        game, seconds, observe, r
    )
    rates: dict = {
        (name, observe): {"steps/s": [], "hands/s": []}
        for name in subjects
        for observe in (False, True)
    }
    for round_ in range(repeat):
        for (name, observe), figures in rates.items():
            steps, hands, elapsed = subjects[name](observe, round_)
            figures["steps/s"].append(steps / elapsed)
            figures["hands/s"].append(hands / elapsed)
    result: dict = {"engine": {}, "with observations": {}}
    for (name, observe), figures in rates.items():
        key = "with observations" if observe else "engine"
        result[key][name] = {k: statistics.median(v) for k, v in figures.items()}
    biggest = f"batched N={max(sizes)}"
    result["ratios"] = {
        f"{biggest} / OpenSpiel steps ({key})": result[key][biggest]["steps/s"]
        / result[key]["OpenSpiel universal_poker HULH"]["steps/s"]
        for key in ("engine", "with observations")
    } | {
        f"{biggest} / single-table steps ({key})": result[key][biggest]["steps/s"]
        / result[key]["single-table engine"]["steps/s"]
        for key in ("engine", "with observations")
    }
    if ppo_steps:
        result["ppo"] = bench_ppo(ppo_steps)
    return result


def bench_ppo(steps: int) -> dict:
    """MaskablePPO learner steps per second, the same network and update sizes, on the batched
    vector env (64 tables) and on 8 ``Lith-v0`` envs in a DummyVecEnv (against ``tag``)."""
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    import lith_env  # noqa: F401
    from lith_env.vector import LithVectorEnv
    from tablegame.sb3_vec import SB3VecEnv

    torch.set_num_threads(1)

    def rate(vec, n_steps: int) -> float:
        model = MaskablePPO(
            "MlpPolicy", vec, n_steps=n_steps, batch_size=512, n_epochs=5, device="cpu", seed=0
        )
        start = time.perf_counter()
        model.learn(steps)
        return steps / (time.perf_counter() - start)

    batched = rate(SB3VecEnv(LithVectorEnv(64, opponents="tag")), 64)
    single = rate(
        DummyVecEnv(
            [lambda: Monitor(gym.make("Lith-v0", opponents="tag").unwrapped) for _ in range(8)]
        ),
        512,
    )
    return {
        "batched (64 tables)": batched,
        "8 x Lith-v0 (DummyVecEnv)": single,
        "ratio": batched / single,
    }


def bench_methods(steps: int, mccfr_iterations: int) -> dict:
    """Training throughput of each equilibrium method against plain MaskablePPO in the same
    run, on the one-round heads-up game (64 batched tables against ``tag``, one torch
    thread), and where a step's time goes: the engine (the vector env's steps), the policy's
    forward passes while collecting (the rest of a rollout) and the update. MCCFR's unit is
    another (sampled deals traversed), so it stands beside them, not in their ratio."""
    import torch
    from sb3_contrib import MaskablePPO

    from lith_env.game import LithConfig
    from lith_env.vector import LithVectorEnv
    from lith_solver.abstraction import AbstractSolver
    from lith_solver.one_round import OneRoundGame
    from tablegame.sb3_vec import SB3VecEnv
    from training.mmd import MMD

    torch.set_num_threads(1)
    # Each as train.py runs it (5 epochs unless the method says otherwise; SB3's own default
    # is 10): the bench's configs.
    methods = {
        "MaskablePPO (5 epochs)": (MaskablePPO, {"n_epochs": 5}),
        "PPO tuned (8 epochs)": (
            MaskablePPO,
            {"n_epochs": 8, "clip_range": 0.025, "ent_coef": 0.1, "vf_coef": 0.0625},
        ),
        "MMD (moving magnet)": (
            MMD,
            {
                "n_epochs": 5,
                "kl_coef": 5.0,
                "magnet_coef": 0.2,
                "magnet": "moving",
                "magnet_every": 16384,
            },
        ),
    }
    out: dict = {}
    for name, (learner, options) in methods.items():
        vec = SB3VecEnv(LithVectorEnv(64, opponents="tag", rounds=1))
        timed = {"engine": 0.0, "update": 0.0}
        step_wait = vec.step_wait

        def engine_step(step_wait=step_wait, timed=timed):
            start = time.perf_counter()
            result = step_wait()
            timed["engine"] += time.perf_counter() - start
            return result

        vec.step_wait = engine_step
        model = learner(
            "MlpPolicy", vec, n_steps=64, batch_size=512, device="cpu", seed=0, **options
        )
        train = model.train

        def timed_train(train=train, timed=timed):
            start = time.perf_counter()
            train()
            timed["update"] += time.perf_counter() - start

        model.train = timed_train
        start = time.perf_counter()
        model.learn(steps)
        total = time.perf_counter() - start
        forward = total - timed["engine"] - timed["update"]
        out[name] = {
            "steps/s": steps / total,
            "engine share": timed["engine"] / total,
            "forward share": forward / total,
            "update share": timed["update"] / total,
        }
    reference = out["MaskablePPO (5 epochs)"]["steps/s"]
    for figures in out.values():
        figures["ratio to MaskablePPO"] = figures["steps/s"] / reference
    solver = AbstractSolver(OneRoundGame(LithConfig(rounds=1)), 100, seed=0, traversals=1000)
    solver.iterate(1)  # compile
    start = time.perf_counter()
    solver.iterate(mccfr_iterations)
    seconds = time.perf_counter() - start
    out["MCCFR (100 buckets)"] = {"traversals/s": mccfr_iterations * 2 * 1000 / seconds}
    return out


def print_methods(result: dict, console: Console) -> None:
    table = Table(title="Training throughput by method (one-round heads-up, 64 batched tables)")
    for column in ("method", "steps/s", "x MaskablePPO", "engine", "forward", "update"):
        table.add_column(column, justify="right" if column != "method" else "left")
    for name, figures in result.items():
        if "steps/s" not in figures:
            continue
        table.add_row(
            name,
            f"{figures['steps/s']:,.0f}",
            f"{figures['ratio to MaskablePPO']:.2f}",
            *(f"{figures[k + ' share']:.0%}" for k in ("engine", "forward", "update")),
        )
    console.print(table)
    mccfr = result["MCCFR (100 buckets)"]["traversals/s"]
    console.print(f"MCCFR (100 buckets): {mccfr:,.0f} sampled deals traversed a second")


def bench_solver(iterations: int, repeat: int) -> dict:
    """Information-set updates per second: our discounted CFR on the one-round heads-up game
    (every hand at every decision is an information set, updated once an iteration) and
    OpenSpiel's C++ CFR+ on Leduc poker, timed alternately in the same run."""
    import pyspiel
    from open_spiel.python.policy import TabularPolicy

    from lith_env.game import LithConfig
    from lith_solver.one_round import OneRoundGame, Solver

    game = OneRoundGame(LithConfig(rounds=1))
    ours_sets = len(game.decisions) * game.num_hands
    leduc = pyspiel.load_game("leduc_poker")
    leduc_sets = len(TabularPolicy(leduc).state_lookup)  # 936
    ours_rates, theirs_rates = [], []
    solver, reference = Solver(game), pyspiel.CFRPlusSolver(leduc)
    solver.iterate(2)  # warm the caches and the allocator
    for _ in range(repeat):
        start = time.perf_counter()
        solver.iterate(iterations)
        ours_rates.append(iterations * ours_sets / (time.perf_counter() - start))
        start = time.perf_counter()
        for _ in range(iterations):
            reference.evaluate_and_update_policy()
        theirs_rates.append(iterations * leduc_sets / (time.perf_counter() - start))
    ours, theirs = statistics.median(ours_rates), statistics.median(theirs_rates)
    slow = max(1, iterations // 10)  # the exchange games' iterations are far longer
    exchange = _exchange_solver_rate(
        LithConfig(rounds=2, cards=tuple(range(0, 40, 2))), slow, repeat
    )
    three_rounds = _exchange_solver_rate(
        LithConfig(rounds=3, cards=tuple(range(0, 16, 2)), max_raises=1), slow, repeat
    )
    return {
        "ours": {
            "information sets": ours_sets,
            "updates/s": ours,
            "iterations/s": ours / ours_sets,
        },
        "exchanges": exchange,
        "exchange ratio": exchange["updates/s"] / theirs,
        "three rounds": three_rounds,
        "three-round ratio": three_rounds["updates/s"] / theirs,
        "OpenSpiel CFR+ Leduc": {
            "information sets": leduc_sets,
            "updates/s": theirs,
            "iterations/s": theirs / leduc_sets,
        },
        "ratio": ours / theirs,
    }


def _exchange_solver_rate(config: Any, iterations: int, repeat: int) -> dict:
    """Information-set updates per second of the exchange solver on the game of ``config``
    (an information set is a betting line and a private state at a decision point), medians
    over ``repeat`` timings of ``iterations`` iterations."""
    from lith_solver.exchanges import ExchangeGame, ExchangeSolver

    game = ExchangeGame(config)
    sets = sum(lines * states for lines, states, _ in ExchangeSolver.shapes(game).values())
    solver = ExchangeSolver(game)
    solver.iterate(1)  # compile the kernels
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        solver.iterate(iterations)
        rates.append(iterations * sets / (time.perf_counter() - start))
    rate = statistics.median(rates)
    return {"information sets": sets, "updates/s": rate, "iterations/s": rate / sets}


def print_solver(result: dict, console: Console) -> None:
    table = Table(title="Exact solvers: information-set updates per second (medians)")
    for column in ("solver", "information sets", "iterations/s", "updates/s"):
        table.add_column(column, justify="left" if column == "solver" else "right")
    for name, label in (
        ("ours", "lith_solver.one_round, one-round Lith"),
        ("exchanges", "lith_solver.exchanges, two rounds, 20 cards (factored)"),
        ("three rounds", "lith_solver.exchanges, three rounds, 8 cards, 1 raise (joint)"),
        ("OpenSpiel CFR+ Leduc", "OpenSpiel C++ CFR+, Leduc"),
    ):
        figures = result[name]
        table.add_row(
            label,
            f"{figures['information sets']:,}",
            f"{figures['iterations/s']:,.1f}",
            f"{figures['updates/s']:,.0f}",
        )
    console.print(table)
    console.print(f"  lith_solver.one_round / OpenSpiel updates per second: {result['ratio']:.1f}x")
    console.print(
        f"  lith_solver.exchanges / OpenSpiel updates per second: "
        f"{result['exchange ratio']:.1f}x (two rounds), {result['three-round ratio']:.1f}x "
        "(three rounds)"
    )


def bench_ray(hands: int, repeat: int) -> dict:
    """Tournament hands/s in one process, two processes and a local Ray of 1 and 2 CPUs, and
    Ray's cost per task, timed in the same run (medians over ``repeat``)."""
    import ray

    from distributed.cluster import connect
    from tournaments.on_ray import MIN_BLOCKS_PER_TASK, run_tournament_on_ray
    from tournaments.per_table import run_tournament
    from tournaments.spec import TournamentSpec

    spec = TournamentSpec(game="lith", agents=("tag", "bluffer"), players=2, units=hands, seed=1)
    small = TournamentSpec(game="lith", agents=("tag", "bluffer"), players=2, units=400, seed=2)
    timings = median_seconds(
        {
            "one process": lambda: run_tournament(spec),
            "2 processes (--workers 2)": lambda: run_tournament(spec, workers=2),
        },
        repeat,
    )
    block_seconds = median_seconds({"small": lambda: run_tournament(small)}, repeat)["small"]
    per_task = {}
    for cpus in (1, 2):
        connect(None, num_cpus=cpus)
        name = f"Ray, {cpus} CPU{'s' if cpus > 1 else ''} (--ray)"
        timings.update(median_seconds({name: lambda: run_tournament_on_ray(spec)}, repeat))
        if cpus == 1:
            one_a_task = median_seconds(
                {"tasks": lambda: run_tournament_on_ray(small, task_blocks=1)}, repeat
            )["tasks"]
            blocks = small.num_blocks()
            per_task = {
                "seconds a block": block_seconds / blocks,
                "seconds a task": (one_a_task - block_seconds) / blocks,
            }
        ray.shutdown()
    per_task["overhead at the default task size"] = per_task["seconds a task"] / (
        MIN_BLOCKS_PER_TASK * per_task["seconds a block"]
    )
    per_task["default blocks a task (at least)"] = MIN_BLOCKS_PER_TASK
    base = timings["one process"]
    return {
        "hands": spec.num_blocks() * spec.players,
        "runs": {
            name: {"seconds": t, "hands/s": hands / t, "speed-up": base / t}
            for name, t in timings.items()
        },
        "tasks": per_task,
    }


def print_ray(result: dict, console: Console) -> None:
    table = Table(title=f"Duplicate tournament, {result['hands']:,} hands (medians)")
    for column in ("run", "seconds", "hands/s", "against one process"):
        table.add_column(column, justify="left" if column == "run" else "right")
    for name, figures in result["runs"].items():
        table.add_row(
            name,
            f"{figures['seconds']:.2f}",
            f"{figures['hands/s']:,.0f}",
            f"{figures['speed-up']:.2f}x",
        )
    console.print(table)
    tasks = result["tasks"]
    console.print(
        f"  a block: {tasks['seconds a block'] * 1e3:.2f} ms; a Ray task adds "
        f"{tasks['seconds a task'] * 1e3:.2f} ms; at {tasks['default blocks a task (at least)']} "
        f"blocks a task that is {tasks['overhead at the default task size']:.1%}"
    )


# The filters a user changes, applied one after another (each timed: its median is reported).
REPORT_FILTERS = (
    ("filter-agent", "1"),
    ("filter-bluff", True),
    ("filter-showdown", "yes"),
    ("filter-pot-min", "10"),
    ("filter-exchanged", "yes"),
)

_FILTER_SCRIPT = """
const [id, value] = arguments;
const element = document.getElementById(id);
if (element.type === 'checkbox') element.checked = value; else element.value = value;
const start = performance.now();
const matches = window.reportFilter();
return [performance.now() - start, matches];
"""


def _report_folder(hands: int, out) -> tuple[Any, float]:
    """A recorded heads-up tournament of ``hands`` hands and its report.html; the seconds
    ``tournaments.report.cli --html`` took."""
    from tournaments import cli as tournament
    from tournaments.report import write_report

    folder = out / f"report-{hands}"
    tournament.main(
        [
            *("--game", "lith", "--players", "2", "--agents", "tag,bluffer", "--seed", "1"),
            *("--hands", str(hands), "--batched", "--record", "all", "--out", str(folder)),
        ]
    )
    start = time.perf_counter()
    write_report(folder, progress=True)
    return folder / "report.html", time.perf_counter() - start


def bench_report(hands: int, repeat: int) -> dict:
    """Opening and filtering report.html of ``hands`` and of 1,000 hands in headless Chromium
    (medians over ``repeat`` fresh loads)."""
    import tempfile
    from pathlib import Path

    from tournaments.report.browser import chromium, open_report

    result: dict[str, Any] = {"hands": hands, "pages": {}}
    with tempfile.TemporaryDirectory(prefix="bench-report-") as tmp, chromium() as driver:
        for n in (1_000, hands):
            page, build_seconds = _report_folder(n, Path(tmp))
            opens, parses, filters = [], [], []
            for _ in range(repeat):
                timing = open_report(driver, page, timeout=120)
                opens.append(timing["ready_ms"])
                parses.append(timing["parse_ms"])
                for element, value in REPORT_FILTERS:
                    filters.append(driver.execute_script(_FILTER_SCRIPT, element, value)[0])
            result["pages"][n] = {
                "bytes": page.stat().st_size,
                "bytes a hand": page.stat().st_size / n,
                "build seconds": build_seconds,
                "open ms": statistics.median(opens),
                "parse ms": statistics.median(parses),
                "filter ms": statistics.median(filters),
                "filter ms (slowest)": max(filters),
            }
    small, large = result["pages"][1_000], result["pages"][hands]
    result["open ratio"] = large["open ms"] / small["open ms"]
    result["filter ratio"] = large["filter ms"] / small["filter ms"] if small["filter ms"] else None
    return result


def print_report(result: dict, console: Console) -> None:
    table = Table(title="report.html in headless Chromium (medians over fresh loads)")
    for column in ("hands", "page MB", "bytes a hand", "built in s", "open ms", "parse ms"):
        table.add_column(column, justify="right")
    table.add_column("filter ms (median / slowest)", justify="right")
    for n, figures in result["pages"].items():
        table.add_row(
            f"{int(n):,}",
            f"{figures['bytes'] / 1e6:.1f}",
            f"{figures['bytes a hand']:.0f}",
            f"{figures['build seconds']:.1f}",
            f"{figures['open ms']:.0f}",
            f"{figures['parse ms']:.0f}",
            f"{figures['filter ms']:.1f} / {figures['filter ms (slowest)']:.1f}",
        )
    console.print(table)
    console.print(
        f"  {result['hands']:,} hands against 1,000: opening {result['open ratio']:.1f}x"
        + (f", filtering {result['filter ratio']:.1f}x" if result["filter ratio"] else "")
    )


def bench_web(sessions: int, moves: int, bots: str = "tag") -> dict:
    """The browser game's server under load: ``sessions`` people at once on the loopback
    address, each making up to ``moves`` moves in heads-up Lith against ``bots``; the round
    trip of a move (the request, the bots' replies, the answer) at p50/p95. Bounded: every
    session stops after its moves or 120 s."""
    import tempfile
    import threading
    import urllib.error
    import urllib.request
    from pathlib import Path

    def post(url: str, body: dict) -> dict:
        request = urllib.request.Request(url, json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})  # fmt: skip
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def person(base: str, k: int) -> None:
        state = post(f"{base}/api/tables", {"game": "lith", "players": 2, "bots": bots, "seed": k})
        deadline = time.perf_counter() + 120
        for move in range(moves):
            if state["over"] or time.perf_counter() > deadline:
                break
            body = {"choice": move % len(state["choices"]), "version": state["version"]}
            start = time.perf_counter()
            try:
                state = post(f"{base}/api/tables/{state['id']}/act", body)
            except urllib.error.URLError as error:
                with lock:
                    errors.append(str(error))
                return
            with lock:
                times.append(time.perf_counter() - start)

    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp, _web_server(Path(tmp)) as base:
        threads = [threading.Thread(target=person, args=(base, k)) for k in range(sessions)]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=150)
        wall = time.perf_counter() - start
    ms = np.array(times) * 1000
    return {
        "sessions": sessions,
        "bots": bots,
        "moves": len(times),
        "errors": errors,
        "seconds": wall,
        "p50 ms": float(np.percentile(ms, 50)) if len(ms) else None,
        "p95 ms": float(np.percentile(ms, 95)) if len(ms) else None,
        "max ms": float(ms.max()) if len(ms) else None,
        "moves a second": len(times) / wall,
    }


@contextlib.contextmanager
def _web_server(history_dir: Any) -> Any:
    """``python -m webplay`` on a free loopback port in a process of its own (the load's
    threads would share the server's interpreter lock in this one); its base URL."""
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = [sys.executable, "-m", "webplay", "--port", str(port), "--history-dir", str(history_dir)]
    server = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.perf_counter() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/api/options", timeout=5).close()
                break
            except OSError:
                if time.perf_counter() > deadline or server.poll() is not None:
                    error = server.stderr.read().decode()
                    raise RuntimeError(f"python -m webplay did not start: {error}") from None
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


def print_web(result: dict, console: Console) -> None:
    table = Table(title="The browser game's server on loopback: a move's round trip")
    for column in ("sessions", "bots", "moves", "p50 ms", "p95 ms", "max ms", "moves/s", "errors"):
        table.add_column(column, justify="right")
    table.add_row(
        str(result["sessions"]),
        result["bots"],
        f"{result['moves']:,}",
        f"{result['p50 ms']:.1f}",
        f"{result['p95 ms']:.1f}",
        f"{result['max ms']:.1f}",
        f"{result['moves a second']:.0f}",
        str(len(result["errors"])),
    )
    console.print(table)
    console.print("  goal: p95 under 50 ms with heuristic bots, 20 sessions at once")


# Where a training run's time goes: the function whose cumulative time is each part.
TRAINING_PARTS = {
    "engine and observations": ("lith_env/vector.py", "step"),
    "opponents' inference": ("train.py", "act_batch"),
    "learner's network, acting": ("maskable/policies.py", "forward"),
    "learner's update (PPO epochs)": ("ppo_mask/ppo_mask.py", "train"),
    "population: payoff tournaments and mixture": ("tournaments/population.py", "add"),
    "population: its plot (population.png)": ("tournaments/population.py", "plot"),
    "exact best responses": ("lith_solver/exploitability.py", "best_response_to"),
}


def bench_population(steps: int) -> dict:
    """Learner steps/s of plain self-play and of population training (the full game), and of
    self-play and of exploitability descent (the one-round game), with the share of each part
    of each run's time (from a profiled run of the same length)."""
    import cProfile
    import pstats
    import tempfile
    from pathlib import Path

    from rich.console import Console

    from training.config import TrainConfig
    from training.trainer import train

    full_game = {
        "opponents": ["tag", "bluffer", "rock", "caller", "self"],
        "self_play_every": max(steps // 10 // 64 * 64, 64),
    }
    one_round = {"opponents": ["self"], "rules": {"rounds": 1}, "self_play_every": 4096}
    arms = {  # name: (options, the reference it is compared with)
        "self-play pool": ({**full_game, "mixture": "uniform"}, None),
        "population (PSRO)": ({**full_game, "mixture": "nash"}, "self-play pool"),
        "one round: self-play": ({**one_round, "mixture": "uniform", "pool_size": 1}, None),
        "one round: exploitability descent": (
            {**one_round, "mixture": "best_response"},
            "one round: self-play",
        ),
    }

    def config(options: dict, out: str) -> TrainConfig:
        return TrainConfig(
            timesteps=steps,
            out=out,
            vec_env="batched",
            n_envs=64,
            n_steps=64,
            batch_size=512,
            eval_every=0,
            checkpoint_every=0,
            progress_bar=False,
            **options,
        )

    out: dict = {"steps": steps, "runs": {}, "parts": {}, "ratios": {}}
    with open(os.devnull, "w") as sink, tempfile.TemporaryDirectory(prefix="bench-") as scratch:
        quiet = Console(file=sink)
        for number, (name, (options, _)) in enumerate(arms.items()):
            run = str(Path(scratch) / str(number))
            start = time.perf_counter()
            train(config(options, run), console=quiet)
            seconds = time.perf_counter() - start
            out["runs"][name] = {"seconds": seconds, "steps/s": steps / seconds}
            profiler = cProfile.Profile()
            profiler.enable()
            train(config(options, run), console=quiet)
            profiler.disable()
            stats = pstats.Stats(profiler).stats

            def cumulative(file: str, function: str, stats=stats) -> float:
                return sum(
                    entry[3]
                    for (path, _, name_), entry in stats.items()
                    if name_ == function and path.endswith(file)
                )

            whole = cumulative("train.py", "train")
            parts = {part: cumulative(*where) / whole for part, where in TRAINING_PARTS.items()}
            # the env's step holds the opponents' inference: the engine's own share is the rest
            parts["engine and observations"] -= parts["opponents' inference"]
            parts["the rest (callbacks, snapshots, set-up)"] = 1 - sum(parts.values())
            out["parts"][name] = parts
    for name, (_, reference) in arms.items():
        if reference is not None:
            ratio = out["runs"][name]["steps/s"] / out["runs"][reference]["steps/s"]
            out["ratios"][f"{name} / {reference}"] = ratio
    out["ratio"] = out["ratios"]["population (PSRO) / self-play pool"]
    return out


def print_population(result: dict, console: Console) -> None:
    table = Table(title=f"Learner steps/s, {result['steps']:,} steps a run, heads-up Lith")
    for column in ("training", "seconds", "steps/s"):
        table.add_column(column, justify="left" if column == "training" else "right")
    for name, figures in result["runs"].items():
        table.add_row(name, f"{figures['seconds']:.1f}", f"{figures['steps/s']:,.0f}")
    console.print(table)
    for name, ratio in result["ratios"].items():
        console.print(f"  {name}, steps per second: {ratio:.2f}x")
    parts = Table(title="Where the time goes (share of train(), profiled run)")
    parts.add_column("part")
    for name in result["parts"]:
        parts.add_column(name, justify="right")
    for part in next(iter(result["parts"].values())):
        parts.add_row(part, *(f"{result['parts'][name][part]:.0%}" for name in result["parts"]))
    console.print(parts)


def print_batched(result: dict, console: Console) -> None:
    for key in ("engine", "with observations"):
        table = Table(title=f"Heads-up limit, random legal actions: {key} (medians)")
        for column in ("engine", "table-steps/s", "hands/s"):
            table.add_column(column, justify="left" if column == "engine" else "right")
        for name, figures in result[key].items():
            table.add_row(name, f"{figures['steps/s']:,.0f}", f"{figures['hands/s']:,.0f}")
        console.print(table)
    for name, value in result["ratios"].items():
        console.print(f"  {name}: {value:.1f}x")
    if "ppo" in result:
        ppo = result["ppo"]
        console.print(
            "MaskablePPO steps/s: "
            + ", ".join(f"{k} {v:,.0f}" for k, v in ppo.items() if k != "ratio")
            + f" ({ppo['ratio']:.1f}x)"
        )


class _HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """The module docstring as written, and every option's default."""


def _seconds(text: str) -> float:
    """An argparse type: seconds of at least 0.01, or an error naming the value."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not value >= 0.01:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be at least 0.01, got {text}")
    return value


def _int_list(low: int, high: int) -> Any:
    """An argparse type: comma-separated integers from ``low`` to ``high``."""

    def parse(text: str) -> str:
        try:
            values = [int(x) for x in text.split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be integers such as 2,6, got {text!r}"
            ) from None
        if not all(low <= v <= high for v in values):
            raise argparse.ArgumentTypeError(f"each must be from {low} to {high}, got {text!r}")
        return text

    return parse


def build_parser() -> argparse.ArgumentParser:
    """The command line: which benchmark, and each one's sizes."""
    from tablegame.cli import int_at_least

    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.run", description=__doc__, formatter_class=_HelpFormatter
    )
    parser.add_argument(
        "which",
        choices=[
            *("hands", "envs", "gendeneia", "search", "batched", "solver", "ray", "population"),
            "report",
            "methods",
            "web",
            "all",
        ],
        nargs="?",
        default="all",
        help="which benchmark",
    )
    parser.add_argument("--n", type=int_at_least(1), default=1_000_000, help="hands per timing")
    parser.add_argument("--repeat", type=int_at_least(1), default=31, help="runs per median")
    parser.add_argument(
        "--reference-n", type=int_at_least(1), default=20_000, help="hands for the reference"
    )
    parser.add_argument(
        "--players", type=_int_list(2, 10), default="2,6", help="player counts, env benchmarks"
    )
    parser.add_argument(
        "--seconds",
        type=_seconds,
        default=1.0,
        help="seconds per env run",
    )
    parser.add_argument("--env-repeat", type=int_at_least(1), default=5, help="runs per env median")
    parser.add_argument(
        "--sizes",
        type=_int_list(1, 1 << 20),
        default="1,64,1024,4096",
        help="batched: tables per engine",
    )
    parser.add_argument(
        "--ppo-steps",
        type=int_at_least(0),
        default=32768,
        help="batched: PPO steps per timing (0: none)",
    )
    parser.add_argument(
        "--solver-iterations",
        type=int_at_least(1),
        default=20,
        help="solver: iterations per timing, each solver",
    )
    parser.add_argument(
        "--ray-hands",
        type=int_at_least(2),
        default=6000,
        help="ray: hands of the timed tournament (even: whole heads-up blocks)",
    )
    parser.add_argument(
        "--population-steps",
        type=int_at_least(640),
        default=200_000,
        help="population: learner steps of each timed training run",
    )
    parser.add_argument(
        "--report-hands",
        type=int_at_least(1000),
        default=100_000,
        help="report: hands in the timed report.html (even: whole heads-up blocks)",
    )
    parser.add_argument(
        "--method-steps",
        type=int_at_least(4096),
        default=65536,
        help="methods: learner steps of each timed training run",
    )
    parser.add_argument(
        "--mccfr-iterations",
        type=int_at_least(1),
        default=200,
        help="methods: MCCFR iterations timed (1,000 sampled deals a player each)",
    )
    parser.add_argument(
        "--search-iterations",
        type=int_at_least(1),
        default=150,  # ismcts's default
        help="search: simulations a search (Kuhn poker and Gendeneía)",
    )
    parser.add_argument(
        "--lith-search-iterations",
        type=int_at_least(1),
        default=200,  # Lith ismcts's default
        help="search: simulations a Lith search",
    )
    parser.add_argument(
        "--web-sessions", type=int_at_least(1), default=20, help="web: people playing at once"
    )
    parser.add_argument(
        "--web-moves", type=int_at_least(1), default=100, help="web: moves each person makes"
    )
    parser.add_argument("--json", help="also write the figures to this JSON file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.run``: each benchmark asked for, its table, and the JSON."""
    parser = build_parser()
    args = parser.parse_args(argv)
    console = Console()
    results: dict = {"machine": platform.platform(), "numpy": np.__version__}
    if args.which in ("hands", "all"):
        results["hands"] = bench_hands(args.n, args.repeat, args.reference_n)
        print_hands(results["hands"], console)
    if args.which in ("envs", "all"):
        players = [int(p) for p in args.players.split(",")]
        results["envs"] = bench_envs(players, args.seconds, args.env_repeat)
        print_envs(results["envs"], console)
    if args.which in ("gendeneia", "all"):
        results["gendeneia"] = bench_gendeneia([2, 4, 6], args.seconds, args.env_repeat)
        print_gendeneia(results["gendeneia"], console)
    if args.which in ("search", "all"):
        results["search"] = bench_search(args.env_repeat)
        print_search(results["search"], console)
        results["ismcts"] = bench_ismcts(args.search_iterations, args.env_repeat)
        print_ismcts(results["ismcts"], console)
        results["lith search"] = bench_lith_search(args.lith_search_iterations, args.env_repeat)
        print_lith_search(results["lith search"], console)
    if args.which in ("batched", "all"):
        sizes = [int(n) for n in args.sizes.split(",")]
        results["batched"] = bench_batched(sizes, args.seconds, args.env_repeat, args.ppo_steps)
        print_batched(results["batched"], console)
    if args.which in ("solver", "all"):
        results["solver"] = bench_solver(args.solver_iterations, args.env_repeat)
        print_solver(results["solver"], console)
    if args.which in ("population", "all"):
        results["population"] = bench_population(args.population_steps)
        print_population(results["population"], console)
    if args.which in ("ray", "all"):
        results["ray"] = bench_ray(args.ray_hands // 2 * 2, args.env_repeat)
        print_ray(results["ray"], console)
    if args.which in ("methods", "all"):
        results["methods"] = bench_methods(args.method_steps, args.mccfr_iterations)
        print_methods(results["methods"], console)
    if args.which in ("report", "all"):
        results["report"] = bench_report(args.report_hands // 2 * 2, args.env_repeat)
        print_report(results["report"], console)
    if args.which in ("web", "all"):
        results["web"] = bench_web(args.web_sessions, args.web_moves)
        print_web(results["web"], console)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
