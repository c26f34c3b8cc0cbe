"""Tournaments, intervals, ratings and analytics."""

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from lith_env.cards import card_ids
from lith_env.game import LithConfig
from lith_env.hands_reference import reference_key
from tests.lith_helpers import FOLD, bet, stacked_hand
from tournaments.analytics import agent_report, equity
from tournaments.cli import main
from tournaments.per_table import decision_record, run_tournament
from tournaments.spec import TournamentSpec
from tournaments.stats import mean_interval, proportion_interval, rate_games, t_critical


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
    # Other levels and few degrees of freedom: exact too (scipy's quantiles, not a series).
    for df, confidence, exact in [(2, 0.99, 9.925), (3, 0.90, 2.353), (4, 0.999, 8.610)]:
        assert t_critical(df, confidence) == pytest.approx(exact, rel=1e-3)
    with pytest.raises(ValueError, match="df"):
        t_critical(0)
    with pytest.raises(ValueError, match="confidence"):
        t_critical(3, 1.5)


def test_wilson_interval_on_known_shares():
    none = proportion_interval(0, 10)
    assert none.mean == 0 and none.low == 0 and none.high == pytest.approx(0.2775, abs=1e-4)
    half = proportion_interval(50, 100)
    assert (half.low, half.high) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert math.isnan(proportion_interval(0, 0).mean)


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
    # One running total per pairing, over that pairing's blocks only, zero-sum within it.
    assert set(result["cumulative"]) == set(result["pairings"])
    for pairing, seated in result["cumulative"].items():
        first, second = pairing.split(" vs ")
        assert list(seated) == [first, second]
        assert len(seated[first]) == 10 and seated[first][-1] + seated[second][-1] == 0
        assert seated[first] == result["pairings"][pairing]["cumulative"]


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
    assert "--agents: unknown agent 'maniac'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--agents", "bluffer:freq=7,tag"])
    assert "--agents: " in capsys.readouterr().err


# ----------------------------------------------------------------------------- analytics


WEAK = ["The Consul", "The Painter", "Ace of Wyrms"]
STRONG = ["The End", "The Market", "The Origin"]


def scripted(hands):
    """Seat 0 bets 2, seat 1 folds; the decision record of seat 0's bet, annotated."""
    config = LithConfig(num_players=2)
    hand = stacked_hand(config, [100, 100], dealer=1, hands=hands)
    record = decision_record(hand, 0, 0, bet(2))
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


def _enumerated_equity(names, config) -> tuple[int, int, int]:
    """(wins, ties, hands): every hand one opponent could hold from the rest of the deck,
    compared with ``names`` by the reference evaluator written from the rule text."""
    mine_ids = card_ids(names)
    rest = [card for card in config.deck if card not in mine_ids]
    mine = reference_key(mine_ids, pawns_and_courts=config.pawns_and_courts)
    wins = ties = hands = 0
    for theirs in itertools.combinations(rest, 3):
        key = reference_key(list(theirs), pawns_and_courts=config.pawns_and_courts)
        wins += key < mine
        ties += key == mine
        hands += 1
    return wins, ties, hands


def test_equity_is_exact_heads_up():
    config = LithConfig()
    # 41 cards left: C(41, 3) = 10660 hands an opponent could hold
    assert _enumerated_equity(STRONG, config) == (10660, 0, 10660)  # it beats every hand
    assert equity(card_ids(STRONG), 1, config) == 1.0
    worst = ["Ace of Knots", "The Origin", "The Battle"]
    assert _enumerated_equity(worst, config) == (0, 0, 10660)  # it loses to every hand
    assert equity(card_ids(worst), 1, config) == 0.0
    wins, ties, hands = _enumerated_equity(WEAK, config)
    assert (wins, ties, hands) == (2408, 0, 10660)
    weak = (wins + ties / 2) / hands
    assert equity(card_ids(WEAK), 1, config) == pytest.approx(weak, abs=1e-12)
    # more opponents: the heads-up share to the power of their number (module docs)
    assert equity(card_ids(WEAK), 3, config) == pytest.approx(weak**3, abs=1e-12)
    # the deck in play decides the hands against: without pawns and courts, 33 cards left
    small = LithConfig(pawns_and_courts=False)
    hand = ["Ace of Wyrms", "The Painter", "The Sea"]
    wins, ties, hands = _enumerated_equity(hand, small)
    assert hands == math.comb(33, 3)
    assert equity(card_ids(hand), 1, small) == pytest.approx((wins + ties / 2) / hands, abs=1e-12)


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


# ----------------------------------------------------------------------------- command line


def cli_error(capsys, argv, program=main):
    """Run a command line that must fail: its exit code and its error text."""
    with pytest.raises(SystemExit) as exit_info:
        program(argv)
    return exit_info.value.code, capsys.readouterr().err


TWO = ["--agents", "tag,caller"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            [*TWO, "--hands", "-5"],
            "--hands: must be a positive multiple of 2, the hands in a block",
        ),
        ([*TWO, "--hands", "0"], "--hands: must be a positive multiple of 2"),
        ([*TWO, "--hands", "5"], "--hands: must be a positive multiple of 2"),
        ([*TWO, "--players", "3", "--hands", "7"], "--hands: must be a positive multiple of 3"),
        (
            [*TWO, "--players", "3", "--hands", "4", "--plain"],
            "--hands: must be a positive multiple of 3, the hands in a block (the 3 rotations "
            "of the seating, each dealt afresh with --plain)",
        ),
        (
            ["--game", "gendeneia", "--agents", "greedy,random", "--players", "3", "--games", "4"],
            "--games: must be a positive multiple of 3, the games in a block",
        ),
        ([*TWO, "--hands", "x"], "argument --hands: invalid int value"),
        ([*TWO, "--games", "10"], "--games: Lith tournaments count hands; use --hands"),
        (
            ["--game", "gendeneia", "--agents", "greedy,random", "--hands", "10"],
            "--hands: Gendeneía tournaments count games; use --games",
        ),
        (["--agents", "tag"], "--agents: give at least two agents"),
        (["--agents", "tag,tag"], "--agents: 'tag' is listed twice"),
        (["--agents", "tag,,caller"], "--agents: an empty agent spec"),
        ([*TWO, "--workers", "-1"], "argument --workers: must be at least 1, got -1"),
        ([*TWO, "--workers", "0"], "argument --workers: must be at least 1"),
        ([*TWO, "--seed", "x"], "argument --seed: must be an integer, got 'x'"),
        ([*TWO, "--seed", "-1"], "argument --seed: must be at least 0"),
        ([*TWO, "--players", "1"], "argument --players: must be at least 2"),
        ([*TWO, "--players", "11", "--hands", "11"], "--players: must be an integer from 2 to 10"),
        (
            ["--game", "gendeneia", "--agents", "greedy,random", "--players", "7"],
            "--players: must be an integer from 2 to 6",
        ),
        ([*TWO, "--rule", "betting=foo"], "--rule betting: must be one of limit"),
        ([*TWO, "--rule", "betting"], "--rule: expected key=value"),
        ([*TWO, "--batched", "--rule", "max_hands=5"], "--rule max_hands: a tournament plays"),
        ([*TWO, "--record", "4", "--no-batched"], "--record: only with --batched"),
        ([*TWO, "--batched", "--record", "0"], "argument --record: must be 'all' or a positive"),
        ([*TWO, "--batched", "--record", "some"], "argument --record: must be 'all' or a pos"),
        ([*TWO, "--batched", "--hands", "4", "--record", "5"], "--record: 5 hands asked"),
        ([*TWO, "--batched", "--histories"], "--histories: the batched tournament records with"),
        ([*TWO, "--batched", "--workers", "2"], "--workers: the batched tournament runs in one"),
        ([*TWO, "--lineup", "0,1,1"], "--lineup: one agent index per seat (2 for --players 2)"),
        ([*TWO, "--lineup", "0,2"], "--lineup: agent indices are 0-1"),
        ([*TWO, "--lineup", "0,x"], "argument --lineup: agent indices"),
        (
            ["--agents", "tag,caller,rock", "--lineup", "0,1"],
            "--lineup: agent 2 (rock) has no seat",
        ),
    ],
)
def test_bad_command_lines_exit_2_naming_the_flag(capsys, argv, message):
    code, err = cli_error(capsys, argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_out_must_be_a_folder(tmp_path, capsys):
    taken = tmp_path / "file"
    taken.write_text("")
    code, err = cli_error(capsys, [*TWO, "--hands", "2", "--out", str(taken)])
    assert code == 2 and "--out: " in err and "is a file, not a folder" in err


@pytest.mark.slow
def test_an_unknown_rule_lists_the_rules_through_the_command_line():
    import subprocess
    import sys

    for game, agents, count, rules in [
        ("lith", "tag,caller", "--hands", "betting, bet_sizes, max_raises"),
        ("gendeneia", "greedy,random", "--games", "presum"),
    ]:
        argv = ["--game", game, "--agents", agents, count, "2", "--rule", "foo=1"]
        done = subprocess.run(
            [sys.executable, "-m", "tournaments", *argv],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert f"--rule foo: not a rule of {game}; its rules: " in done.stderr
        assert rules in done.stderr


def test_default_counts_are_per_game_in_whole_blocks():
    from tournaments.cli import build_parser, spec_from_args

    def units(*argv):
        return spec_from_args(build_parser().parse_args([*argv])).units

    assert units(*TWO) == 2000 and units(*TWO, "--players", "3") == 1998
    gendeneia = ["--game", "gendeneia", "--agents", "greedy,random"]
    assert units(*gendeneia) == 200 and units(*gendeneia, "--players", "3") == 198
    assert units(*TWO, "--hands", "6", "--players", "3") == 6


def test_one_agent_may_play_itself_at_a_fixed_table(tmp_path):
    out = tmp_path / "self"
    assert main(["--agents", "tag", "--lineup", "0,0", "--hands", "4", "--out", str(out)]) == 0
    result = json.loads((out / "results.json").read_text())
    assert result["agents_results"]["tag"]["chips_per_100"]["mean"] == 0  # zero-sum
    assert (out / "decisions.jsonl").read_text().count('"agent": "tag"') > 0


def help_options(parser):
    return [a for a in parser._actions if a.option_strings and a.dest != "help"]


def test_help_shows_defaults_and_the_agents():
    import agents.gendeneia_heuristics
    import agents.lith_heuristics
    import agents.ppo  # noqa: F401
    from tablegame.registry import AGENTS
    from tournaments.cli import build_parser
    from tournaments.report.cli import build_parser as analyze_parser

    for parser in (build_parser(), analyze_parser()):
        text = " ".join(parser.format_help().split())
        for action in help_options(parser):
            assert action.help, action.dest
            assert ("default" in action.help) != action.required, action.dest
        for action in parser._actions:
            if action.default not in (None, False, [], "==SUPPRESS=="):
                assert f"(default: {action.default})" in text, action.dest
    text = " ".join(build_parser().format_help().split())
    assert "(default: 2000," in text and "(default: 200," in text
    for game in ("lith", "gendeneia"):
        for name in AGENTS[game]:
            assert name in text, name
    assert "bluffer (freq, bet, raise, call)" in text and "ppo:PATH" in text
    assert "0.3" in " ".join(analyze_parser().format_help().split())


def test_a_single_block_has_no_interval_and_results_json_stays_json(tmp_path, capsys):
    out = tmp_path / "one"
    assert main([*TWO, "--hands", "2", "--out", str(out)]) == 0
    assert "n/a (one block)" in capsys.readouterr().out

    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    result = json.loads((out / "results.json").read_text(), parse_constant=refuse)
    interval = result["agents_results"]["tag"]["chips_per_100"]
    assert interval["low"] is None and interval["high"] is None and interval["n"] == 1


# ----------------------------------------------------------------------------- batched records


@pytest.mark.parametrize(
    ("players", "rules"), [(2, {}), (3, {"betting": "no-limit", "excuse": "demon"})]
)
def test_batched_records_are_the_per_table_records(players, rules):
    from lith_env.history import replay_hand
    from tournaments.batched_tables import run_batched_tournament

    spec = lith_spec(agents=("tag", "rock", "caller"), players=players, units=12, rules=rules)
    per_table = run_tournament(TournamentSpec(**{**spec.__dict__, "histories": True}))
    batched = run_batched_tournament(spec, tables_per_batch=7, record="all")  # several batches
    assert batched["_records"] == per_table["_records"]
    assert batched["_decisions"] == per_table["_decisions"]
    assert (
        batched["recorded"]
        == per_table["recorded"]
        == {
            "of": len(per_table["_records"]),
            "decisions": len(per_table["_records"]),
            "histories": len(per_table["_records"]),
        }
    )
    for record in batched["_records"]:
        assert replay_hand(record).net() == record["net"]


def test_a_batched_sample_is_seeded_and_replays():
    from lith_env.history import replay_hand
    from tournaments.batched_tables import run_batched_tournament

    spec = lith_spec(agents=("tag", "random", "bluffer"), units=20)
    sample = run_batched_tournament(spec, record=7)
    assert sample["recorded"] == {"of": 60, "decisions": 7, "histories": 7}
    assert len({d["hand"] for d in sample["_decisions"]}) == 7
    assert {r["agents"][0] for r in sample["_records"]} <= set(spec.agents)
    for record in sample["_records"]:
        replay_hand(record)  # random agents too: the record is what the batched engine played
    again = run_batched_tournament(spec, record=7)
    assert again["_records"] == sample["_records"]
    assert run_batched_tournament(spec)["_records"] == []
    with pytest.raises(
        ValueError, match="record: must be None, 'all' or a number of hands from 1 to 60"
    ):
        run_batched_tournament(spec, record=61)


@pytest.mark.slow
def test_analyze_reads_batched_records_and_says_how_to_get_them(tmp_path, capsys):
    from tournaments.report.cli import main as analyze

    sampled, bare = tmp_path / "sampled", tmp_path / "bare"
    argv = ["--agents", "tag,bluffer,caller", "--hands", "20", "--batched"]
    assert main([*argv, "--record", "30", "--out", str(sampled)]) == 0
    assert main([*argv, "--out", str(bare)]) == 0
    capsys.readouterr()
    assert analyze([str(sampled)]) == 0
    out = capsys.readouterr().out
    assert "a sample of 30 of the tournament's 60 hands" in out
    report = json.loads((sampled / "analytics.json").read_text())
    assert set(report) == {"tag", "bluffer", "caller"}
    assert (sampled / "bet_frequency.png").is_file() and (sampled / "histories.jsonl").is_file()
    code, err = cli_error(capsys, [str(bare)], analyze)
    assert code == 2 and "Traceback" not in err
    assert "no decisions recorded" in err and "--batched --record all|N" in err


def test_analyze_rejects_what_it_cannot_read(tmp_path, capsys):
    from tournaments.report.cli import main as analyze

    gendeneia = tmp_path / "g"
    assert main(["--game", "gendeneia", "--agents", "greedy,random", "--games", "2",
                 "--out", str(gendeneia)]) == 0  # fmt: skip
    capsys.readouterr()
    code, err = cli_error(capsys, [str(gendeneia)], analyze)
    assert code == 2 and "holds a gendeneia tournament" in err
    code, err = cli_error(capsys, [str(tmp_path / "none")], analyze)
    assert code == 2 and "RESULTS_DIR: no folder" in err
    code, err = cli_error(capsys, [str(gendeneia), "--bluff-equity", "2"], analyze)
    assert code == 2 and "argument --bluff-equity: must be an equity from 0 to 1" in err
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "decisions.jsonl").write_text('{"agent": "tag"}\n')
    code, err = cli_error(capsys, [str(broken)], analyze)
    assert code == 2 and "decisions.jsonl:1: the decision has no phase" in err


# ----------------------------------------------------------------------------- plots and labels


@pytest.fixture
def figures(monkeypatch):
    """Every figure saved, by file name, kept open for inspection."""
    import matplotlib.figure

    saved = {}
    save = matplotlib.figure.Figure.savefig

    def keep(fig, path, *args, **kwargs):
        saved[Path(path).name] = fig
        return save(fig, path, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", keep)
    return saved


def test_cumulative_plot_separates_pairings_and_tables(tmp_path, figures):
    from tournaments.results import write_outputs

    write_outputs(run_tournament(lith_spec(units=8)), tmp_path / "hu")
    (ax,) = [a for a in figures["cumulative.png"].axes if a.get_visible()]
    labels = [line.get_label() for line in ax.get_lines() if not line.get_label().startswith("_")]
    assert labels == ["tag vs caller", "tag vs random", "caller vs random"]
    spec = lith_spec(agents=("tag", "rock", "caller", "random"), players=3, units=6)
    write_outputs(run_tournament(spec), tmp_path / "three")
    panels = [a for a in figures["cumulative.png"].axes if a.get_visible()]
    assert [a.get_title() for a in panels] == [
        "tag vs rock vs caller",
        "tag vs rock vs random",
        "tag vs caller vs random",
        "rock vs caller vs random",
    ]
    assert all(len(a.get_lines()) == 3 for a in panels)


def test_one_outlier_does_not_flatten_the_heatmap(tmp_path, figures):
    from tournaments.plots import colour_limit
    from tournaments.results import write_outputs

    result = run_tournament(lith_spec(agents=("tag", "bluffer", "caller", "random"), units=40))
    write_outputs(result, tmp_path)
    ax = figures["pairwise_heatmap.png"].axes[0]
    (image,) = ax.get_images()
    low, high = image.get_clim()
    means = [p["chips_per_100"]["mean"] for p in result["pairings"].values()]
    assert -low == high < max(abs(m) for m in means)  # clipped below random's losses
    assert high >= np.median(np.abs(means))
    texts = [t.get_text() for t in ax.texts]
    for m in means:  # every cell carries its value (0.0 - m: never "-0.0")
        assert any(t.startswith(f"{m:+.1f}\n") for t in texts) and any(
            t.startswith(f"{0.0 - m:+.1f}\n") for t in texts
        )
    assert colour_limit(np.array([10.0, -10.0, 500.0]), np.array([1.0, 1.0, 1.0])) == 10.0
    assert colour_limit(np.array([1.0, -2.0]), np.array([30.0, 30.0])) == 2.0  # capped at max


def test_bars_and_points_carry_their_sample_sizes(tmp_path, figures):
    from tournaments.analytics import agent_report
    from tournaments.plots import plot_analytics

    result = run_tournament(lith_spec(agents=("tag", "random"), units=40))
    report = agent_report(result["_decisions"])
    plot_analytics(result["_decisions"], report, tmp_path)
    exchanges = figures["exchange_by_category.png"]
    for ax in [a for a in exchanges.axes if a.get_visible()]:
        agent = ax.get_title()
        texts = {t.get_text() for t in ax.texts}
        for row in report[agent]["exchange by category"].values():
            assert f"{row['count']}/{row['of']}" in texts
    ax = figures["bet_frequency.png"].axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    bets = {a: sum(d["agent"] == a and d["phase"] == "bet" for d in result["_decisions"])
            for a in ("random", "tag")}  # fmt: skip
    assert labels == [f"random (n={bets['random']:,})", f"tag (n={bets['tag']:,})"]


def test_every_output_names_an_agent_by_its_spec(tmp_path, capsys, monkeypatch, figures):
    import csv

    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    import lith_env  # noqa: F401
    from tournaments.report.cli import main as analyze

    folder = tmp_path / "[run]"  # brackets: rich markup unless escaped
    folder.mkdir()
    model = folder / "model.zip"
    MaskablePPO("MlpPolicy", gym.make("Lith-v0").unwrapped, n_steps=32, batch_size=32).save(model)
    names = [f"ppo:{model}", "bluffer:freq=0.3", "tag"]
    monkeypatch.setenv("COLUMNS", "300")  # wide enough for every label on one line
    out = tmp_path / "out"
    argv = ["--agents", ",".join(names), "--hands", "6", "--histories", "--out", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert all(name in printed for name in names)
    assert f"{names[0]} vs {names[1]}" in printed
    result = json.loads((out / "results.json").read_text())
    assert result["agents"] == names and list(result["agents_results"]) == names
    with open(out / "results.csv") as f:
        assert [row["agent"] for row in csv.DictReader(f)] == names
    decisions = [json.loads(line) for line in (out / "decisions.jsonl").read_text().splitlines()]
    assert {d["agent"] for d in decisions} == set(names)
    histories = [json.loads(line) for line in (out / "histories.jsonl").read_text().splitlines()]
    assert {a for h in histories for a in h["agents"]} == set(names)
    heatmap = figures["pairwise_heatmap.png"].axes[0]
    assert [t.get_text() for t in heatmap.get_yticklabels()] == names
    assert [t.get_text() for t in heatmap.get_xticklabels()] == names
    curves = figures["cumulative.png"].axes[0]
    assert [line.get_label() for line in curves.get_lines()][:3] == [
        f"{names[0]} vs {names[1]}",
        f"{names[0]} vs {names[2]}",
        f"{names[1]} vs {names[2]}",
    ]
    assert analyze([str(out)]) == 0
    printed = capsys.readouterr().out
    assert all(name in printed for name in names), printed
    assert set(json.loads((out / "analytics.json").read_text())) == set(names)
    exchanges = [a.get_title() for a in figures["exchange_by_category.png"].axes if a.get_visible()]
    assert exchanges == sorted(names)


@pytest.mark.slow
def test_the_batched_engine_is_chosen_where_it_can_play_and_said_in_one_line(tmp_path, capsys):
    argv = ["--agents", "tag,caller", "--hands", "8", "--seed", "3"]
    assert main([*argv, "--out", str(tmp_path / "auto")]) == 0
    said = capsys.readouterr().out
    assert said.count("batched engine, all tables at once (--no-batched") == 1
    assert main([*argv, "--batched", "--record", "all", "--out", str(tmp_path / "asked")]) == 0
    assert "every table at once" not in capsys.readouterr().out  # asked for: nothing to say
    auto, asked = (
        json.loads((tmp_path / d / "results.json").read_text()) for d in ("auto", "asked")
    )
    assert auto["agents_results"] == asked["agents_results"]
    # --out keeps every decision, as one table at a time would: the report has its data
    assert (tmp_path / "auto" / "decisions.jsonl").read_text().count("\n") > 8
    for one_at_a_time in (["--no-batched"], ["--histories"], ["--workers", "1"]):
        out = tmp_path / one_at_a_time[0].strip("-")
        assert main([*argv, *one_at_a_time, "--out", str(out)]) == 0
        assert "every table at once" not in capsys.readouterr().out, one_at_a_time
        assert json.loads((out / "results.json").read_text())["method"] == auto["method"]
    assert main(["--game", "gendeneia", "--agents", "greedy,random", "--games", "2"]) == 0
    said = capsys.readouterr().out  # Gendeneía has its batched engine too
    assert said.count("gendeneia: batched engine, all tables at once") == 1


def test_torch_runs_on_the_threads_asked(capsys):
    import torch

    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        assert main(["--agents", "tag,caller", "--hands", "2", "--torch-threads", "1"]) == 0
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
    code, err = cli_error(capsys, ["--agents", "tag,caller", "--torch-threads", "0"])
    assert code == 2 and "--torch-threads" in err
