"""The best response to a frozen heads-up bot (``lith_solver.responder``, ``decktet
best-response``, ``response:DIR``), checked against the exact solver on small games: the
response's value is evaluated exactly in the exact game (the exact solver's evaluation, not
the sampled traversal), compared with the exact best response, with the sampled value and
with the value played through the real engine."""

from __future__ import annotations

import json

import numpy as np
import pytest

from lith_solver import abstract_exchanges as ax
from lith_solver.exchanges import ExchangeGame
from lith_solver.recall_layout import RecallLayout, latest_gift
from lith_solver.responder import (
    BotTable,
    ResponderSolver,
    load_response,
    mean_interval,
    save_response,
)
from lith_solver.response_calibration import exact_response_value
from tests.responder_helpers import (
    CARDS,
    RULES,
    TINY,
    assert_near_the_exact_best_response,
    saved_abstract_bot,
)
from training.best_response import main, played_gain
from training.exploiter import run_name


@pytest.fixture(scope="module")
def bot(tmp_path_factory):
    """A weak abstract bot, saved: (folder, solver)."""
    folder = tmp_path_factory.mktemp("bot")
    return folder, saved_abstract_bot(folder)


@pytest.fixture(scope="module")
def game():
    return ExchangeGame(TINY)


def table_of(solver) -> BotTable:
    return BotTable.dense(solver.average_strategy(), solver.bucket)


@pytest.mark.slow
def test_with_perfect_recall_the_response_approaches_the_exact_best_response(bot, game):
    _, bot_solver = bot
    table = table_of(bot_solver)
    exact_bot = ax.exact_game_strategy(bot_solver, game, bot_solver.average_strategy())
    assert_near_the_exact_best_response(game, exact_bot, table)


@pytest.mark.slow
def test_pruning_lagging_actions_keeps_the_response_near_the_exact_best_response(bot, game):
    _, bot_solver = bot
    exact_bot = ax.exact_game_strategy(bot_solver, game, bot_solver.average_strategy())
    assert_near_the_exact_best_response(game, exact_bot, table_of(bot_solver), prune=0.1)
    with pytest.raises(ValueError, match="prune: must be a number of chips >= 0"):
        ResponderSolver(RecallLayout(TINY, 20), table_of(bot_solver), prune=-1)


@pytest.mark.slow
def test_the_sampled_value_is_the_exact_value(bot, game):
    _, bot_solver = bot
    table = table_of(bot_solver)
    layout = RecallLayout(TINY, 20)  # recall "swap", coarser than the hands
    solver = ResponderSolver(layout, table, seed=4, traversals=50)
    solver.iterate(100)
    average = solver.average_strategy()
    sampled = solver.sampled_values(20_000, seed=9)
    for p in range(2):
        mean, half = mean_interval(sampled[p])
        exact = exact_response_value(game, layout, table, average, p)
        assert abs(mean - exact) < 1.5 * half, (p, mean, half, exact)


@pytest.mark.slow
def test_the_played_response_wins_its_exact_value(bot, game, tmp_path):
    folder, bot_solver = bot
    table = table_of(bot_solver)
    layout = RecallLayout(TINY, 56)
    solver = ResponderSolver(layout, table, seed=5, traversals=100)
    solver.iterate(300)
    save_response(tmp_path, solver, {})
    _, loaded, _ = load_response(tmp_path)
    assert np.allclose(loaded, solver.average_strategy(), atol=1e-6)
    exact = 50 * sum(exact_response_value(game, layout, table, loaded, p) for p in range(2))
    played = played_gain(f"abstract:{folder}", tmp_path, {"rounds": 2, "cards": CARDS,
                         "max_raises": 0}, hands=6000, seed=1)  # fmt: skip
    assert played["low"] <= exact <= played["high"], (played, exact)


@pytest.mark.slow
def test_the_command_saves_plays_and_resumes_bit_for_bit(bot, tmp_path, capsys):
    folder, _ = bot
    common = [f"abstract:{folder}", *RULES, "--buckets", "20", "--traversals", "20",
              "--check-every", "50", "--samples", "200", "--hands", "200",
              "--seed", "3"]  # fmt: skip
    assert main([*common, "--iterations", "100", "--out", str(tmp_path / "straight")]) == 0
    assert "played" in capsys.readouterr().out
    assert main([*common, "--iterations", "50", "--out", str(tmp_path / "resumed")]) == 0
    argv = [*common, "--iterations", "100", "--out", str(tmp_path / "resumed"), "--resume"]
    assert main(argv) == 0
    a, b = (load_response(tmp_path / name)[1] for name in ("straight", "resumed"))
    assert np.array_equal(a, b)
    figures = json.loads((tmp_path / "straight" / "best_response.json").read_text())
    assert figures["iterations"] == 100 and figures["hands"] == 200
    assert figures["played_low"] <= figures["played"] <= figures["played_high"]
    record = json.loads((tmp_path / "straight" / "response.json").read_text())
    assert record["figures"] == figures and record["policy"] == figures["policy"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nosuch", *RULES], "nosuch"),
        (["tag", "--rule", "rounds=1", "--iterations", "10"], "--iterations: the one-round game's"),
        (["tag", "--rule", "rounds=1", "--resume"], "--resume: the one-round game's"),
        (["BOT_DIR", *RULES, "--hands", "3"], "--hands: must be even"),
        (["BOT_DIR", *RULES, "--iterations", "10", "--check-every", "20"], "--check-every"),
        (["BOT_DIR", *RULES, "--buckets", "0"], "--buckets"),
        (["BOT_DIR", *RULES, "--buckets", "57"], "--buckets: at most the deck's 56 hands"),
        (["BOT_DIR", *RULES, "--resume"], "--resume: no responder_state.npz"),
        (["tag", "tag", *RULES], "BOT: a bot is given twice"),
        (["tag", *RULES, "--prune", "-1"], "--prune: must be a number, zero or more"),
        (["tag", *RULES, "--prune", "nan"], "--prune: must be a number, zero or more"),
        (["tag", "--rule", "rounds=1", "--prune", "1"], "--prune: the one-round game's"),
        (["tag", *RULES, "--ray", "--resume"], "--resume: not with --ray"),
        (["tag", *RULES, "--ray", "x"], "--ray: ray address: local, auto"),
        (["BOT_DIR", "--rule", "rounds=3"], "abstract"),  # the bot plays other rules
    ],
)
def test_bad_input_exits_2_naming_it(bot, tmp_path, capsys, argv, message):
    folder, _ = bot
    argv = [f"abstract:{folder}" if a == "BOT_DIR" else a for a in argv]
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--out", str(tmp_path / "out")])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.slow
def test_any_agent_is_asked_once_and_its_table_kept_for_resume(tmp_path, capsys):
    common = ["tag", *RULES, "--buckets", "20", "--traversals", "20", "--check-every", "50",
              "--samples", "2000", "--hands", "2000", "--seed", "3",
              "--out", str(tmp_path)]  # fmt: skip
    assert main([*common, "--iterations", "50"]) == 0
    kept = tmp_path / "bot_table.npy"
    stamp = kept.stat().st_mtime_ns
    assert main([*common, "--iterations", "100", "--resume"]) == 0
    assert kept.stat().st_mtime_ns == stamp  # read from the run, not asked again
    figures = json.loads((tmp_path / "best_response.json").read_text())
    assert figures["bot"] == "tag" and figures["read_cpu_minutes"] > 0
    np.save(kept, np.zeros((3, 4, 4), dtype=np.float32))  # not this game's table
    with pytest.raises(SystemExit) as exit_:
        main([*common, "--iterations", "150", "--resume"])
    assert exit_.value.code == 2
    assert "bot_table.npy' holds a table of shape (3, 4, 4)" in capsys.readouterr().err
    # the table stands for tag exactly on one exchange: played and computed agree
    half = figures["computed_half_width"] + (figures["played_high"] - figures["played"])
    assert abs(figures["played"] - figures["computed"]) < 1.5 * half, figures
    capsys.readouterr()


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["caller", "tag"])
def test_on_one_round_the_computed_value_is_the_exact_exploitability_and_play_holds_it(
    bot, tmp_path
):
    from lith_solver.exploitability import exploitability
    from lith_solver.one_round import OneRoundGame
    from lith_solver.solving import heads_up_config
    from tablegame.registry import make_agent

    argv = [bot, "--rule", "rounds=1", "--hands", "20000", "--seed", "2", "--out", str(tmp_path)]
    assert main(argv) == 0
    figures = json.loads((tmp_path / "best_response.json").read_text())
    config = heads_up_config({"rounds": 1})
    exact, _ = exploitability(make_agent(bot, "lith", config=config), OneRoundGame(config))
    assert abs(figures["computed"] - 100 * exact["exploitability"]) < 1e-4  # 1e-6 a hand
    assert figures["played_low"] <= figures["computed"] <= figures["played_high"], figures
    assert figures["agent"] == "solved"


SMALL = [*RULES, "--buckets", "20", "--traversals", "20", "--iterations", "60",
         "--check-every", "30", "--samples", "500", "--hands", "400", "--seed", "4"]  # fmt: skip


@pytest.mark.slow
def test_several_bots_each_get_a_folder_and_a_row(bot, tmp_path, capsys):
    folder, _ = bot
    bots = ["caller", f"abstract:{folder}"]
    assert main([*bots, *SMALL, "--out", str(tmp_path)]) == 0
    rows = json.loads((tmp_path / "best_responses.json").read_text())
    assert [row["bot"] for row in rows] == bots
    for row in rows:
        name = run_name(row["bot"], None)
        alone = json.loads((tmp_path / name / "best_response.json").read_text())
        assert alone == row
    assert "best responses, chips/100 hands" in capsys.readouterr().out


def test_a_resumed_run_must_keep_its_settings(bot, tmp_path, capsys):
    folder, _ = bot
    common = [f"abstract:{folder}", *RULES, "--traversals", "5", "--check-every", "5",
              "--samples", "50", "--hands", "20", "--out", str(tmp_path)]  # fmt: skip
    assert main([*common, "--buckets", "20", "--iterations", "5"]) == 0
    with pytest.raises(SystemExit) as exit_:
        main([*common, "--buckets", "30", "--iterations", "10", "--resume"])
    assert exit_.value.code == 2
    assert "--resume: --buckets was 20 in that run, not 30" in capsys.readouterr().err


def test_a_corrupt_response_is_refused_naming_it(bot, tmp_path):
    _, bot_solver = bot
    solver = ResponderSolver(RecallLayout(TINY, 20), table_of(bot_solver))
    save_response(tmp_path, solver, {})
    with np.load(tmp_path / "response.npz") as arrays:
        bucket, average = arrays["bucket"], arrays["average"]
    np.savez_compressed(tmp_path / "response.npz", bucket=bucket, average=average[:-1])
    with pytest.raises(ValueError, match="response: .* is corrupt: average has shape"):
        load_response(tmp_path)
    with pytest.raises(ValueError, match="recall: must be swap or gift or perfect, got 'total'"):
        RecallLayout(TINY, 20, recall="total")
    record = json.loads((tmp_path / "response.json").read_text())
    (tmp_path / "response.json").write_text(json.dumps({**record, "recall": "gift"}))
    with pytest.raises(ValueError, match="is corrupt: recall: must be swap or perfect, got 'gift'"):
        load_response(tmp_path)


def test_latest_gift_reads_the_card_given_in_the_latest_swap():
    # Dealt 1, 5, 9; exchange 1: gave slot 0 (card 1) in a swap, got 7; exchange 2: gave
    # slot 2 (card 9) and drew 3 -- the latest swap's gift is still card 1.
    assert latest_gift(("swap", "draw0"), (1, 5, 9, 0, 7, 2, 3)) == 1
    assert latest_gift(("swap", "swap"), (1, 5, 9, 0, 7, 2, 3)) == 9
    assert latest_gift(("draw0",), (1, 5, 9, 1, 3)) == -1


def test_both_policies_are_distributions_over_each_decisions_actions(bot):
    _, bot_solver = bot
    layout = RecallLayout(TINY, 20)
    solver = ResponderSolver(layout, table_of(bot_solver), seed=1, traversals=10)
    solver.iterate(20)
    width = layout.tree.width[layout.tree.decisions]
    row_width = np.repeat(width, np.diff(np.append(layout.offset, layout.rows)))
    for policy in ("average", "current"):
        rows = solver.strategy(policy)
        assert np.allclose(rows.sum(axis=1), 1.0) and (rows >= 0).all()
        assert not rows[np.arange(4)[None, :] >= row_width[:, None]].any()
    regrets = solver.regrets[:, 0, :]
    positive = np.maximum(regrets, 0).sum(axis=1) > 0
    chosen = solver.current_strategy()[positive].argmax(axis=1)
    assert np.array_equal(chosen, regrets[positive].argmax(axis=1))
    with pytest.raises(ValueError, match="policy: must be average or current"):
        solver.strategy("best")
