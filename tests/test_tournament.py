"""Tournaments, intervals, ratings and analytics."""

import json
import math

import numpy as np
import pytest

from agents.analytics import agent_report, equity
from agents.stats import mean_interval, rate_games, t_critical
from agents.tournament import TournamentSpec, _decision, main, run_tournament
from lith_env.cards import card_ids
from lith_env.game import LithConfig
from tests.lith_helpers import FOLD, bet, stacked_hand


def lith_spec(**kwargs):
    base = dict(game="lith", agents=("tag", "caller", "random"), players=2, units=40, seed=3)
    return TournamentSpec(**{**base, **kwargs})


def public(result):
    return {k: v for k, v in result.items() if not k.startswith("_")}


# ----------------------------------------------------------------------------- statistics


def test_interval_on_known_data():
    interval = mean_interval([1, 2, 3, 4, 5])
    half = 2.776 * math.sqrt(2.5) / math.sqrt(5)
    assert interval.mean == 3 and interval.low == pytest.approx(3 - half, abs=1e-3)
    assert interval.high == pytest.approx(3 + half, abs=1e-3) and interval.n == 5


def test_t_critical_matches_tables():
    for df, exact in [(1, 12.706), (5, 2.571), (10, 2.228), (30, 2.042), (120, 1.980)]:
        assert t_critical(df) == pytest.approx(exact, rel=2e-3)


def test_interval_covers_the_true_mean_about_95_percent_of_the_time():
    rng = np.random.default_rng(0)
    inside = 0
    for _ in range(2000):
        i = mean_interval(rng.normal(1.0, 2.0, 20))
        inside += i.low <= 1.0 <= i.high
    assert 0.93 <= inside / 2000 <= 0.97


def test_ratings_order_a_clear_ranking():
    games = [[("a", 1), ("b", 2), ("c", 3)] for _ in range(30)]
    ratings = rate_games(["a", "b", "c"], games)
    assert ratings["a"]["ordinal"] > ratings["b"]["ordinal"] > ratings["c"]["ordinal"]


# ----------------------------------------------------------------------------- tournaments


def test_seeded_tournaments_repeat_exactly():
    assert public(run_tournament(lith_spec())) == public(run_tournament(lith_spec()))
    assert public(run_tournament(lith_spec(seed=4))) != public(run_tournament(lith_spec()))


def test_one_and_several_workers_agree():
    spec = lith_spec(players=3, agents=("tag", "rock", "bluffer", "caller"), units=12)
    assert public(run_tournament(spec, workers=1)) == public(run_tournament(spec, workers=2))


def test_duplicate_dealing_replays_the_same_cards_in_every_seating():
    result = run_tournament(lith_spec(histories=True, units=8))
    records = result["_records"]
    for first, second in zip(records[::2], records[1::2], strict=True):
        assert first["deck"] == second["deck"] and first["dealer"] == second["dealer"]
        assert first["agents"] == second["agents"][::-1]  # seats swapped
        assert first["cards"] == second["cards"]  # each seat's cards: the other agent now
    plain = run_tournament(lith_spec(histories=True, units=8, duplicate=False))["_records"]
    assert any(a["deck"] != b["deck"] for a, b in zip(plain[::2], plain[1::2], strict=True))


def test_heads_up_covers_every_pairing_and_is_zero_sum():
    result = run_tournament(lith_spec(units=20))
    assert set(result["pairings"]) == {"tag vs caller", "tag vs random", "caller vs random"}
    hands = {name: r["hands"] for name, r in result["agents_results"].items()}
    assert hands == {"tag": 40, "caller": 40, "random": 40}
    totals = [v[-1] for v in result["cumulative"].values()]
    assert sum(totals) == 0


def test_more_seats_rotate_every_agent_through_every_seat_and_rate():
    spec = lith_spec(players=3, agents=("tag", "rock", "caller"), units=9, histories=True)
    result = run_tournament(spec)
    seats = {name: set() for name in spec.agents}
    for record in result["_records"]:
        for seat, name in enumerate(record["agents"]):
            seats[name].add(seat)
    assert all(s == {0, 1, 2} for s in seats.values())
    assert set(result["ratings"]) == {"tag", "rock", "caller"}


def test_gendeneia_win_rates_share_each_game():
    spec = TournamentSpec(
        game="gendeneia", agents=("greedy", "random"), players=2, units=10, seed=1
    )
    result = run_tournament(spec)
    rates = [r["win_rate"]["mean"] for r in result["agents_results"].values()]
    assert sum(rates) == pytest.approx(1.0)


def test_cli_writes_results_and_rejects_bad_agents(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["--agents", "tag,caller", "--hands", "8", "--seed", "1", "--out", str(out)]) == 0
    result = json.loads((out / "results.json").read_text())
    assert result["dealing"] == "duplicate" and "Student-t" in result["method"]
    for name in ("results.csv", "pairwise_heatmap.png", "cumulative.png", "decisions.jsonl"):
        assert (out / name).is_file()
    with pytest.raises(SystemExit) as exit_info:
        main(["--agents", "tag,maniac"])
    assert exit_info.value.code == 2
    assert "unknown agent 'maniac'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--agents", "bluffer:freq=7"])


# ----------------------------------------------------------------------------- analytics


WEAK = ["The Consul", "The Painter", "Ace of Wyrms"]
STRONG = ["The End", "The Market", "The Origin"]


def scripted(hands):
    """Seat 0 bets 2, seat 1 folds; the decision record of seat 0's bet, annotated."""
    config = LithConfig(num_players=2)
    hand = stacked_hand(config, [100, 100], dealer=1, hands=hands)
    record = _decision(hand, 0, 0, bet(2))
    hand.apply(bet(2))
    hand.apply(FOLD)
    record.pop("seat")
    record.update(hand="h", won=hand.net()[0] > 0, showdown=False, others_folded=True, agent="a")
    return record


def test_a_scripted_bluff_counts_and_a_value_bet_does_not():
    bluff = scripted({0: WEAK, 1: ["The Sea", "The Island", "The Mill"]})
    value = scripted({0: STRONG, 1: ["The Sea", "The Island", "The Mill"]})
    assert bluff["equity"] < 0.3 < value["equity"]
    report = agent_report([bluff])["a"]["rates"]
    assert report["bluff rate"] == {"count": 1, "of": 1, "rate": 1.0}
    assert report["bluff success"] == {"count": 1, "of": 1, "rate": 1.0}
    report = agent_report([value])["a"]["rates"]
    assert report["bluff rate"] == {"count": 0, "of": 1, "rate": 0.0}
    assert "bluff success" not in report


def test_equity_is_exact_heads_up():
    config = LithConfig()
    assert equity(card_ids(STRONG), 1, config) == 1.0
    weak = equity(card_ids(WEAK), 1, config)
    assert 0 < weak < 0.3
    assert equity(card_ids(WEAK), 3, config) == pytest.approx(weak**3)


def test_a_model_file_replaced_between_tournaments_is_reloaded(tmp_path):
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    import lith_env  # noqa: F401

    env = gym.make("Lith-v0").unwrapped
    path = tmp_path / "model.zip"
    spec = lith_spec(agents=(f"ppo:{path}", "tag"), units=40)
    results = []
    for seed in (0, 1):
        MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=seed).save(path)
        results.append(public(run_tournament(spec))["agents_results"])
    assert results[0] != results[1]
