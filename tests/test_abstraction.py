"""Card abstraction and external-sampling MCCFR (lith_solver.abstraction), the agent
``abstract:DIR`` and ``python -m lith_solver abstract``."""

from __future__ import annotations

import copy
import dataclasses
import functools
import json

import numpy as np
import pytest

from agents.solved import GAME_RULES
from lith_env.game import LithConfig
from lith_solver.abstraction import (
    AbstractSolver,
    abstract_best_response,
    load_abstract,
    real_game_profile,
    save_abstract,
)
from lith_solver.agent_strategy import agent_profile
from lith_solver.cli import main as lith_solver_main
from lith_solver.exploitability import exploitability
from lith_solver.mccfr import equity, equity_buckets
from lith_solver.one_round import OneRoundGame
from tablegame.registry import make_agent
from tournaments.per_table import run_tournament
from tournaments.spec import TournamentSpec

SMALL_CARDS = (0, 7, 11, 15, 21, 27, 33, 40)  # 56 hands a player
SMALL = LithConfig(rounds=1, cards=SMALL_CARDS)


@pytest.fixture(scope="module")
def game() -> OneRoundGame:
    return OneRoundGame(SMALL)


@pytest.fixture(scope="module")
def solved(game, tmp_path_factory):
    """A 6-bucket abstraction solved for 300 iterations, saved."""
    solver = AbstractSolver(game, 6, seed=4, traversals=200)
    curve = solver.solve(300, 100)
    out = tmp_path_factory.mktemp("abstract")
    save_abstract(out, solver, {"curve": curve})
    return solver, curve, out


def _random_profile(game: OneRoundGame, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    profile = game.uniform_profile()
    for index in game.decisions:
        weights = rng.random(profile[index].shape)
        profile[index] = weights / weights.sum(axis=1, keepdims=True)
    return profile


def test_buckets_are_equal_sized_by_equity_and_stable(game):
    bucket = equity_buckets(game, 4)
    assert bucket.shape == (game.num_hands,) and set(bucket.tolist()) == {0, 1, 2, 3}
    values = equity(game)
    assert ((values >= 0) & (values <= 1)).all()
    # Weaker buckets hold weaker hands: every hand of bucket b has at most the equity of
    # every hand of bucket b + 1.
    for b in range(3):
        assert values[bucket == b].max() <= values[bucket == b + 1].min()
    sizes = np.bincount(bucket)
    assert sizes.max() - sizes.min() <= 14  # 56 hands, ties kept together
    assert np.array_equal(bucket, equity_buckets(OneRoundGame(SMALL), 4))  # ids stable
    # Hands of the same equity always share a bucket.
    for value in np.unique(np.round(values, 12)):
        assert len(set(bucket[np.round(values, 12) == value].tolist())) == 1


def test_equity_is_the_showdown_share_against_every_disjoint_hand(game):
    from lith_env.hands import strength

    values = strength(game.hands, excuse=None)
    for hand in (0, 17, 55):
        others = [
            h for h in range(game.num_hands) if not set(game.hands[h]) & set(game.hands[hand])
        ]
        share = np.mean(
            [
                1.0 if values[hand] > values[h] else 0.5 if values[hand] == values[h] else 0.0
                for h in others
            ]
        )
        assert equity(game)[hand] == pytest.approx(share)


@pytest.mark.parametrize("bad", [0, -1, 57, 2.5, True])
def test_bad_bucket_counts_are_refused_naming_buckets(game, bad):
    with pytest.raises(ValueError, match="buckets: "):
        equity_buckets(game, bad)


def test_without_abstraction_the_abstract_best_response_is_the_real_one(game):
    """A bucket per hand is the real game: both best responses agree, to the chip."""
    bucket = np.arange(game.num_hands)
    profile = _random_profile(game, 1)
    for player in (0, 1):
        real = game.best_response(profile, player)[0]
        assert abstract_best_response(game, bucket, profile, player) == pytest.approx(real)


def test_a_coarser_best_response_wins_no_more(game):
    profile = _random_profile(game, 2)
    for player in (0, 1):
        real = game.best_response(profile, player)[0]
        fine = abstract_best_response(game, equity_buckets(game, 20), profile, player)
        one = abstract_best_response(
            game, np.zeros(game.num_hands, dtype=np.int64), profile, player
        )
        assert one <= fine + 1e-12 <= real + 2e-12


@pytest.mark.slow
def test_mccfr_descends_the_abstract_exploitability(solved, game):
    solver, curve, _ = solved
    uniform = game.uniform_profile()
    start = (
        abstract_best_response(game, solver.bucket, uniform, 0)
        + abstract_best_response(game, solver.bucket, uniform, 1)
    ) / 2
    assert curve[-1]["abstract_average"] < 0.1 * start
    assert curve[-1]["abstract_average"] < curve[0]["abstract_average"]
    assert all(e["real_average"] >= e["abstract_average"] - 1e-9 for e in curve)
    assert [e["iteration"] for e in curve] == [100, 200, 300]


@pytest.mark.parametrize("power", [0.0, 2.0])
def test_the_average_weighs_iteration_t_by_t_to_the_power(game, power):
    # Linear (power 1) regrets whatever the average's power; the sums are the same per-
    # iteration strategies, weighted t**power instead of t.
    linear = AbstractSolver(game, 6, seed=4, traversals=30)
    other = AbstractSolver(game, 6, seed=4, traversals=30, average_power=power)
    expected = np.zeros_like(linear.sums)
    for t in range(1, 41):
        before = linear.sums.copy()
        linear.iterate(1)
        expected += (linear.sums - before) / t * t**power
    other.iterate(40)
    assert np.array_equal(other.regrets, linear.regrets)
    assert np.allclose(other.sums, expected, rtol=1e-9, atol=1e-9)
    assert not np.allclose(other.sums, linear.sums)


@pytest.mark.parametrize("bad", [-0.5, 4.5, float("nan"), True, "2"])
def test_bad_average_powers_are_refused_naming_it(game, bad):
    with pytest.raises(ValueError, match="average_power: must be a number from 0 to 4"):
        AbstractSolver(game, 6, average_power=bad)


def test_a_seeded_solve_repeats_bit_for_bit_in_any_chunking(game):
    def run(seed: int, chunks: list[int]) -> np.ndarray:
        solver = AbstractSolver(game, 5, seed=seed, traversals=50)
        for count in chunks:
            solver.iterate(count)
        return solver.sums

    first = run(3, [250])
    assert np.array_equal(first, run(3, [70, 30, 150]))
    assert not np.array_equal(first, run(4, [250]))


def test_the_saved_abstraction_round_trips_and_maps_every_information_set(solved, game):
    solver, _, out = solved
    loaded, profile, record = load_abstract(out)
    assert record["buckets"] == 6 and record["seed"] == 4 and loaded.config == SMALL
    expected = real_game_profile(game, solver.bucket, solver.average_strategy())
    for index in game.decisions:
        np.testing.assert_allclose(profile[index], expected[index])
        np.testing.assert_allclose(profile[index].sum(axis=1), 1.0)
    current = load_abstract(out, "current")[1]
    assert any(not np.allclose(current[i], profile[i]) for i in game.decisions)


def test_the_agent_plays_its_strategy_and_measures_as_the_solver_does(solved, game):
    solver, _, out = solved
    for policy, strategy in (("average", solver.average_strategy()), ("current", None)):
        agent = make_agent(f"abstract:{out}:policy={policy}", "lith", seed=0, config=SMALL)
        measured = agent_profile(agent, game)
        expected = load_abstract(out, policy)[1]
        for index in game.decisions:
            np.testing.assert_allclose(measured[index], expected[index], atol=1e-12)
        if strategy is not None:
            figures, _ = exploitability(agent, game)
            assert figures["exploitability"] == pytest.approx(solver.measure()["real_average"])


class MaskChecked:
    """An agent whose every action is checked against the mask it was given, and logged."""

    def __init__(self, agent, log: list) -> None:
        self.agent, self.log = agent, log

    def act(self, observation, action_mask):
        action = self.agent.act(observation, action_mask)
        assert action_mask[action], f"illegal action {action} under mask {action_mask}"
        self.log.append(action)
        return action

    def __getattr__(self, name):
        return getattr(self.agent, name)


def test_the_agent_plays_legal_actions_in_a_tournament(solved, monkeypatch):
    from tournaments import per_table

    _, _, out = solved
    actions: dict[str, list[int]] = {}

    @functools.cache
    def checked_agents(specs, game, config):
        return [
            MaskChecked(make_agent(s, game, config=config), actions.setdefault(s, []))
            for s in specs
        ]

    monkeypatch.setattr(per_table, "built_agents", checked_agents)
    rules = {"rounds": 1, "cards": list(SMALL_CARDS)}
    spec = TournamentSpec(
        game="lith", players=2, agents=[f"abstract:{out}", "tag", "random"], units=200, seed=5,
        rules=rules,
    )  # fmt: skip
    results = run_tournament(spec)
    assert results["agents_results"][f"abstract:{out}"]["hands"] == 400
    # every decision it took was checked legal: at least one a hand, every kind of action
    assert len(actions[f"abstract:{out}"]) >= 400
    assert set(actions[f"abstract:{out}"]) == {0, 1, 2}  # fold, check or call, bet or raise


# One other value for each rule a solved strategy depends on (agents.solved.GAME_RULES,
# listed here rather than read from there, so that a rule dropped from the check fails).
OTHER_RULES = {
    "num_players": 3,
    "betting": "pot-limit",
    "bet_sizes": (4, 2, 4),
    "max_raises": 1,
    "pawns_and_courts": False,
    "excuse": "beggar",
    "ante": 2,
    "rounds": 2,
    "cards": None,
}
FREE_RULES = {"starting_chips", "max_hands"}  # a match's length and stacks: any will do


def one_rule_changed(config: LithConfig, rule: str) -> LithConfig:
    """``config`` with ``rule`` alone set to its other value. Set past the checks: with 8
    cards, 3 players or no Pawns and Courts are not a valid table on their own."""
    changed = copy.copy(config)
    object.__setattr__(changed, rule, OTHER_RULES[rule])
    return changed


def test_every_rule_is_either_checked_or_free():
    fields = {field.name for field in dataclasses.fields(LithConfig)}
    assert set(OTHER_RULES) | FREE_RULES == fields
    assert set(OTHER_RULES) == set(GAME_RULES)


@pytest.mark.parametrize("rule", sorted(OTHER_RULES))
def test_the_agent_refuses_other_rules_naming_them(solved, rule):
    _, _, out = solved
    table = one_rule_changed(SMALL, rule)
    message = f"abstract: '.*' was solved for other rules: this table has {rule}="
    with pytest.raises(ValueError, match=message):
        make_agent(f"abstract:{out}", "lith", config=table)
    for free in ({"starting_chips": 60}, {"max_hands": 3}):
        make_agent(f"abstract:{out}", "lith", config=dataclasses.replace(SMALL, **free))


def test_bad_folders_and_options_are_named(solved, tmp_path):
    _, _, out = solved
    with pytest.raises(ValueError, match="abstract: no abstraction.json in"):
        make_agent(f"abstract:{tmp_path}", "lith")
    with pytest.raises(ValueError, match="abstract: policy must be average or current"):
        make_agent(f"abstract:{out}:policy=best", "lith")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "abstraction.json").write_text((out / "abstraction.json").read_text())
    (broken / "abstraction.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="abstract: .*abstraction.npz' is corrupt"):
        make_agent(f"abstract:{broken}", "lith")
    record = json.loads((out / "abstraction.json").read_text())
    record["format"] = "other"
    (broken / "abstraction.json").write_text(json.dumps(record))
    with pytest.raises(ValueError, match="is not an abstraction record"):
        make_agent(f"abstract:{broken}", "lith")


def test_the_command_solves_saves_and_plots(tmp_path, capsys):
    out = tmp_path / "abs"
    cards = ",".join(map(str, SMALL_CARDS))
    argv = ["abstract", "--rule", f"cards={cards}", "--buckets", "8", "--iterations", "200",
            "--check-every", "100", "--traversals", "100", "--seed", "2",
            "--out", str(out)]  # fmt: skip
    assert lith_solver_main(argv) == 0
    printed = capsys.readouterr().out
    assert "iteration 200" in printed and f"abstract:{out}" in printed
    assert (out / "exploitability.png").is_file()
    record = json.loads((out / "abstraction.json").read_text())
    assert len(record["curve"]) == 2 and record["buckets"] == 8
    assert lith_solver_main([*argv[:-1], str(tmp_path / "again")]) == 0
    again = np.load(tmp_path / "again" / "abstraction.npz")
    assert np.array_equal(again["average"], np.load(out / "abstraction.npz")["average"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--buckets", "0"], "--buckets: must be at least 1, got 0"),
        (["--buckets", "x"], "--buckets: must be an integer, got 'x'"),
        (["--buckets", "57"], "buckets: at most the game's 56 hands, got 57"),
        (["--recall", "perfect"], "--recall: only for games with exchanges"),
        (["--seed", "-1"], "--seed"),
        (["--traversals", "0"], "--traversals: must be at least 1"),
        (["--average-power", "5"], "--average-power: must be a number from 0 to 4, got '5'"),
        (["--average-power", "nan"], "--average-power: must be a number from 0 to 4"),
        (["--average-power", "x"], "--average-power: must be a number from 0 to 4, got 'x'"),
    ],
)
def test_bad_command_options_exit_2_naming_them(tmp_path, argv, message, capsys):
    cards = ",".join(map(str, SMALL_CARDS))
    base = ["abstract", "--rule", f"cards={cards}", "--out", str(tmp_path / "x")]
    with pytest.raises(SystemExit) as exit_info:
        lith_solver_main([*base, *argv])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
