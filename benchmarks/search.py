"""Search (``search``): what a simulation of Gendeneía's search costs against
``copy.deepcopy``; ``agents.ismcts`` against OpenSpiel's ``ISMCTSBot`` on Kuhn poker and a
Gendeneía decision's time; the Lith search's worlds and decisions."""

from __future__ import annotations

import time

import numpy as np
from rich.console import Console

from benchmarks.common import median_seconds, new_table

__all__ = [
    "bench_ismcts",
    "bench_lith_search",
    "bench_search",
    "print_ismcts",
    "print_lith_search",
    "print_search",
]


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
    table = new_table(
        "Lith worlds, heads-up, every decision of random hands (medians)", ("call", "µs")
    )
    for name, value in result["microseconds"].items():
        table.add_row(name, f"{value:,.1f}")
    console.print(table)
    table = new_table(
        f"Lith ismcts:iterations={result['iterations']} against tag, one core",
        ("table", "decisions", "median ms", "p95 ms"),
    )
    for name, figures in result["ms a decision"].items():
        table.add_row(name, str(figures["n"]), f"{figures['median']:.1f}", f"{figures['p95']:.1f}")
    console.print(table)


def print_ismcts(result: dict, console: Console) -> None:
    table = new_table(
        f"ISMCTS on Kuhn poker, {result['iterations']} simulations a search",
        ("search", "simulations/s"),
    )
    for name, rate in result["kuhn simulations/s"].items():
        table.add_row(name, f"{rate:,.0f}")
    console.print(table)
    console.print(f"  agents.ismcts against OpenSpiel's bot: {result['kuhn speedup']:.1f}x")
    table = new_table(
        f"ismcts:iterations={result['iterations']}, 3-player Gendeneía, one core",
        ("stage", "decisions", "median ms", "p95 ms"),
    )
    for stage, figures in result["gendeneia ms a decision"].items():
        table.add_row(stage, str(figures["n"]), f"{figures['median']:.1f}", f"{figures['p95']:.1f}")
    console.print(table)


def print_search(result: dict, console: Console) -> None:
    table = new_table("Gendeneía search primitives, 3 players, mid-game (medians)", ("call", "µs"))
    for name, value in result["microseconds"].items():
        table.add_row(name, f"{value:,.1f}")
    console.print(table)
    console.print(f"  clone against deepcopy: {result['clone_speedup']:.1f}x faster")
