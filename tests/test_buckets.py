"""How the abstractions group the hands (lith_solver.buckets): the exchange bucketing's
features against a brute force written here, its buckets, what they are worth measured
exactly, and that a bot keeps and plays its own buckets."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from experiments.bench import load_bench, run_piece
from lith_env.game import LithConfig
from lith_solver.abstract_exchanges import (
    ExchangeAbstractSolver,
    one_round_config,
    save_exchange_abstract,
)
from lith_solver.buckets import bucket_hands, exchange_features
from lith_solver.cli import main as lith_solver_main
from lith_solver.mccfr import equity, equity_buckets
from lith_solver.one_round import OneRoundGame
from lith_solver.swap_abstraction import SwapAbstractSolver, save_swap_abstract
from tablegame.registry import make_agent
from tests.responder_helpers import RULES, TINY, assert_the_agent_plays_what_was_measured
from training.best_response import bot_table

NINE = LithConfig(rounds=3, cards=tuple(range(0, 18, 2)), max_raises=0)


def one_round(config: LithConfig) -> OneRoundGame:
    return OneRoundGame(one_round_config(config))


def brute_force_features(game: OneRoundGame, rounds: int) -> np.ndarray:
    """Each hand's value after each exchange still to come and its mean value after giving
    each card, hand by hand and card by card, with dictionaries."""
    hands = [tuple(h) for h in game.hands.tolist()]
    deck = sorted(game.config.deck)
    value = dict(zip(hands, equity(game).tolist(), strict=True))
    rows: dict[tuple, list[float]] = {h: [] for h in hands}
    for _ in range(rounds - 1):
        after = {}
        for hand in hands:
            means = []
            for given in hand:
                kept = [c for c in hand if c != given]
                drawn = [value[tuple(sorted([*kept, c]))] for c in deck if c not in hand]
                means.append(sum(drawn) / len(drawn))
            rows[hand] += [value[hand], *means]
            after[hand] = max(value[hand], *means)
        value = after
    return np.array([rows[h] for h in hands])


@pytest.mark.parametrize("config", [TINY, NINE], ids=["two rounds", "three rounds"])
def test_exchange_features_are_each_hands_values_after_each_gift(config):
    game = one_round(config)
    features = exchange_features(game, config.rounds)
    assert features.shape == (game.num_hands, 4 * (config.rounds - 1))
    assert np.allclose(features, brute_force_features(game, config.rounds), atol=1e-12)


def test_the_equity_bucketing_is_the_equal_groups_by_equity():
    game = one_round(TINY)
    assert np.array_equal(
        bucket_hands(game, 12, "equity", 2), equity_buckets(game, 12, merge_ties=False)
    )


def test_exchange_buckets_are_seeded_in_range_and_numbered_weakest_first():
    game = one_round(NINE)
    features = exchange_features(game, 3)
    buckets = bucket_hands(game, 10, "exchange", 3, seed=5)
    assert np.array_equal(buckets, bucket_hands(game, 10, "exchange", 3, seed=5))
    assert buckets.min() == 0 and buckets.max() < 10
    strength = features[:, -4:].max(axis=1)  # the value before the first exchange
    means = [strength[buckets == b].mean() for b in np.unique(buckets)]
    assert means == sorted(means)
    for a, b in itertools.combinations(range(game.num_hands), 2):  # alike hands stay together
        if np.array_equal(features[a], features[b]):
            assert buckets[a] == buckets[b]
    every = bucket_hands(game, game.num_hands, "exchange", 3)
    assert len(np.unique(every)) == game.num_hands


def test_bad_bucketing_arguments_are_errors_naming_them():
    game = one_round(TINY)
    with pytest.raises(ValueError, match="bucketing: must be equity or exchange, got 'kmeans'"):
        bucket_hands(game, 12, "kmeans", 2)
    with pytest.raises(ValueError, match="buckets: must be a positive integer, got 0"):
        bucket_hands(game, 0, "exchange", 2)
    with pytest.raises(ValueError, match="rounds: the exchange bucketing needs an exchange"):
        exchange_features(game, 1)


def solver_of(recall: str, bucketing: str, seed: int, buckets: int = 12):
    if recall == "hand":
        return ExchangeAbstractSolver(TINY, buckets, seed=seed, traversals=200, bucketing=bucketing)
    return SwapAbstractSolver(
        TINY, buckets, seed=seed, traversals=200, recall=recall, bucketing=bucketing
    )


@pytest.mark.slow
@pytest.mark.parametrize("recall", ["hand", "gift"])
def test_grouping_by_the_exchanges_is_worth_a_fifth_at_equal_buckets(recall):
    """Eight cards, 12 buckets for 56 hands, 300 iterations: exact exploitability 0.83-0.85
    (hand) and 0.75 (gift) by equity against 0.60 and 0.53 by the exchanges, at two seeds."""
    for seed in (1, 2):
        figures = {}
        for bucketing in ("equity", "exchange"):
            solver = solver_of(recall, bucketing, seed)
            solver.iterate(300)
            figures[bucketing] = solver.measure()["real_average"]
        assert figures["exchange"] < 0.8 * figures["equity"], (seed, figures)


@pytest.mark.slow
@pytest.mark.parametrize("recall", ["hand", "gift"])
def test_a_bot_keeps_its_exchange_buckets_and_plays_what_was_measured(tmp_path, recall):
    solver = solver_of(recall, "exchange", seed=4)
    solver.iterate(60)
    save = save_exchange_abstract if recall == "hand" else save_swap_abstract
    save(tmp_path, solver, {})
    assert json.loads((tmp_path / "abstraction.json").read_text())["bucketing"] == "exchange"
    assert_the_agent_plays_what_was_measured(tmp_path, solver.measure(), TINY)
    if recall == "gift":  # the best response reads the bot's own buckets from its file
        table = bot_table(f"abstract:{tmp_path}", TINY)
        assert np.array_equal(table.bucket, solver.layout.bucket)


def test_a_file_with_a_bucket_out_of_range_is_refused_naming_it(tmp_path):
    solver = solver_of("gift", "exchange", seed=4)
    save_swap_abstract(tmp_path, solver, {})
    path = tmp_path / "abstraction.npz"
    with np.load(path) as arrays:
        kept = dict(arrays)
    np.savez_compressed(path, **{**kept, "bucket": kept["bucket"] + 12})
    with pytest.raises(ValueError, match=r"abstraction\.npz.* is corrupt: hand_bucket: a bucket"):
        make_agent(f"abstract:{tmp_path}", "lith", config=TINY)


def test_the_command_solves_with_exchange_buckets(tmp_path, capsys):
    out = tmp_path / "abs"
    argv = ["abstract", *RULES, "--recall", "gift", "--bucketing", "exchange", "--buckets",
            "12", "--iterations", "20", "--check-every", "20", "--traversals", "20",
            "--out", str(out)]  # fmt: skip
    assert lith_solver_main(argv) == 0
    assert "in the real game" in capsys.readouterr().out
    record = json.loads((out / "abstraction.json").read_text())
    assert record["bucketing"] == "exchange" and record["recall"] == "gift"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rule", "rounds=1", "--bucketing", "exchange"],
         "--bucketing: only for games with exchanges"),
        ([*RULES, "--bucketing", "kmeans"], "argument --bucketing: invalid choice: 'kmeans'"),
    ],
)  # fmt: skip
def test_bad_bucketing_options_exit_2_naming_them(tmp_path, argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        lith_solver_main(["abstract", *argv, "--out", str(tmp_path / "x")])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    ("rules", "bucketing", "message"),
    [
        ("{ rounds = 2, cards = [0, 2, 4, 6, 8, 10, 12, 14] }", "'kmeans'",
         "methods.m.bucketing: must be equity or exchange, got 'kmeans'"),
        ("{ rounds = 1 }", "'exchange'",
         "methods.m.bucketing: only for games with exchanges"),
    ],
)  # fmt: skip
def test_a_bench_refuses_a_bad_bucketing_naming_it(tmp_path, rules, bucketing, message):
    path = tmp_path / "bench.toml"
    path.write_text(
        f'[games.g]\nrules = {rules}\n\n[[methods]]\nname = "m"\nkind = "mccfr"\n'
        f'games = ["g"]\nbuckets = 4\nbucketing = {bucketing}\niterations = 1\n'
        "check_every = 1\n"
    )
    with pytest.raises(ValueError, match=message):
        load_bench(path)


def test_a_bench_method_solves_with_its_bucketing(tmp_path):
    shipped = load_bench(Path("experiments/bench_bucketing.toml"))
    assert {m.get("bucketing", "equity") for m in shipped["methods"]} == {"equity", "exchange"}
    rules = {"rounds": 2, "cards": list(TINY.cards), "max_raises": 0}
    bench = {"games": {"g": {"rules": rules}}}
    method = {
        "name": "m",
        "kind": "mccfr",
        "buckets": 12,
        "recall": "gift",
        "bucketing": "exchange",
        "iterations": 20,
        "check_every": 20,
        "traversals": 50,
    }
    run_piece(bench, "g", method, 1, str(tmp_path))
    curve = json.loads((tmp_path / "curve.json").read_text())
    solver = SwapAbstractSolver(
        TINY, 12, seed=1, traversals=50, recall="gift", bucketing="exchange"
    )
    assert curve[-1]["average"] == pytest.approx(solver.solve(20, 20)[-1]["real_average"])
    equity = SwapAbstractSolver(TINY, 12, seed=1, traversals=50, recall="gift")
    assert curve[-1]["average"] != pytest.approx(equity.solve(20, 20)[-1]["real_average"])
