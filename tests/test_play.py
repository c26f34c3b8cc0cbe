"""The terminal games, driven through their standard input with scripted answers."""

import io
import json
import re
import subprocess
import sys

import pytest

from gendeneia_env import play as gendeneia_play
from gendeneia_env.history import replay_game
from lith_env import play as lith_play
from lith_env.cards import CARDS
from lith_env.history import load_records, replay_hand


def run(program, argv, answers, capsys):
    """Run a play program with these answers on its input; (exit code, screen text)."""
    code = program.main(argv, stdin=io.StringIO("".join(f"{a}\n" for a in answers)))
    return code, capsys.readouterr().out


# ----------------------------------------------------------------------------- Lith


def test_lith_match_to_the_end_replays_from_its_history(tmp_path, capsys):
    path = tmp_path / "hands.json"
    argv = ["--seed", "4", "--bots", "tag", "--hands", "3", "--history", str(path)]
    code, screen = run(lith_play, argv, ["2"] * 200, capsys)  # always bet/raise or discard
    assert code == 0
    assert "Hand 3 is over." in screen and "The match is over after 3 hands" in screen
    assert f"3 hand(s) saved to {path}" in screen
    records = load_records(path)
    assert len(records) == 3
    for record in records:
        assert replay_hand(record).net() == record["net"]
        assert record["actions"][0]["seat"] in (0, 1)


def test_lith_screen_shows_the_table_and_a_menu(tmp_path, capsys):
    argv = ["--seed", "1", "--bots", "caller", "--players", "3", "--history", str(tmp_path / "h")]
    code, screen = run(lith_play, argv, ["q"], capsys)
    assert code == 0
    for text in ("Lith — hand 1 — betting round 1", "stack", "in pot", "Your hand:", "To call:"):
        assert text in screen
    assert "Your move:" in screen and "choose 1-" in screen
    assert screen.count("hidden") == 2  # both bots' cards
    assert "Leaving the table." in screen
    assert "no hand was finished, so nothing was saved" in screen


def test_lith_bad_answers_are_asked_again(tmp_path, capsys):
    argv = ["--seed", "2", "--bots", "rock", "--history", str(tmp_path / "h.json")]
    code, screen = run(lith_play, argv, ["abc", "0", "99", "-1", "", "1", "q"], capsys)
    assert code == 0
    for bad in ("'abc'", "'0'", "'99'", "'-1'", "''"):
        assert f"{bad} is not one of the choices; the legal choices are 1 (" in screen
    # the valid answer was played: my action appears once the bad ones are done
    assert "you: checks" in screen or "you: folds" in screen or "you: calls" in screen


def test_lith_end_of_input_leaves_cleanly_and_saves(tmp_path, capsys):
    path = tmp_path / "h.json"
    argv = ["--seed", "4", "--bots", "tag", "--history", str(path)]
    code, screen = run(lith_play, argv, ["2"] * 12, capsys)  # runs out mid-match
    assert code == 0 and "Leaving the table." in screen
    saved = load_records(path)
    assert saved and f"{len(saved)} hand(s) saved to {path}" in screen


def test_lith_bots_cards_stay_hidden_until_showdown(tmp_path, capsys):
    path = tmp_path / "h.json"
    argv = ["--seed", "9", "--bots", "caller", "--hands", "1", "--history", str(path)]
    code, screen = run(lith_play, argv, ["1"] * 50, capsys)  # check/call/keep: a showdown
    assert code == 0
    record = load_records(path)[0]
    before, _, after = screen.partition("Hand 1 is over.")
    mine = set(record["cards"][0])
    for ex in record["exchanges"]:
        if "0" in ex["received"]:
            mine.add(ex["received"]["0"]["card"])
    hidden = [c for c in record["cards"][1] if c not in mine]
    assert hidden and not any(name in before for name in hidden)
    assert record["showdown"]  # caller and a keeper reach showdown...
    for name in record["showdown"]["1"]:
        assert name in after  # ...where the bot's cards are shown


def test_lith_no_limit_amount_of_my_choice(tmp_path, capsys):
    path = tmp_path / "h.json"
    argv = ["--seed", "3", "--betting", "no-limit", "--bots", "caller", "--hands", "1"]
    # find the number of "bet to an amount you choose (2-99)" in the first menu
    _, first = run(lith_play, [*argv, "--history", str(tmp_path / "x")], ["q"], capsys)
    options = [line for line in first.splitlines() if line.strip()[:1].isdigit()]
    custom = next(line.split()[0] for line in options if "amount you choose" in line)
    answers = [custom, "abc", "1000", "17"] + ["1"] * 40
    code, screen = run(lith_play, [*argv, "--history", str(path)], answers, capsys)
    assert code == 0
    assert "'abc' is not a whole number from" in screen
    assert "'1000' is not a whole number from" in screen
    record = load_records(path)[0]
    mine = [a for a in record["actions"] if a["seat"] == 0 and a["kind"] in ("bet", "raise")]
    assert mine[0]["amount"] == 17


@pytest.mark.parametrize(
    "argv, field",
    [
        (["--players", "11"], "num_players"),
        (["--seat", "5"], "seat"),
        (["--bet-sizes", "2,x,4"], "bet_sizes"),
        (["--chips", "0"], "starting_chips"),
        (["--bots", "tag,nobody", "--players", "3"], "unknown agent 'nobody'"),
        (["--bots", "tag,rock"], "bots"),
    ],
)
def test_lith_bad_options_name_the_field(argv, field, capsys):
    code, screen = run(lith_play, argv, [], capsys)
    assert code == 2 and "error:" in screen and field in screen


def test_lith_program_reads_real_standard_input(tmp_path):
    path = tmp_path / "h.json"
    done = subprocess.run(
        [sys.executable, "-m", "lith_env.play", "--seed", "5", "--history", str(path)],
        input="2\n2\n",  # then end of input, as Ctrl-D gives
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Leaving the table." in done.stdout and "Traceback" not in done.stderr


# ----------------------------------------------------------------------------- Gendeneía


def test_gendeneia_game_to_the_end_replays_from_its_record(tmp_path, capsys):
    path = tmp_path / "game.json"
    argv = ["--seed", "6", "--bots", "greedy,spoiler", "--rounds", "3", "--history", str(path)]
    code, screen = run(gendeneia_play, argv, ["1"] * 100, capsys)
    assert code == 0 and "The game is over (3 round(s))" in screen
    assert f"the game record is saved to {path}" in screen
    record = json.loads(path.read_text())
    assert record["over"] and record["config"]["max_rounds"] == 3
    assert replay_game(record).scores() == record["scores"]
    for text in ("Collars", "Hope", "Blood", "score", "Your pair:", "greedy", "spoiler"):
        assert text in screen


def test_gendeneia_menu_says_what_each_play_does(tmp_path, capsys):
    argv = ["--seed", "6", "--history", str(tmp_path / "g.json")]
    _, screen = run(gendeneia_play, argv, ["1", "q"], capsys)
    assert "keep " in screen and "and draw a new pair" in screen
    assert re.search(r"play \S+ onto your lots \(score \d+ -> \d+\)", screen)
    assert re.search(r"play \S+ onto seat 1's lots \(score \d+ -> \d+\)", screen)


def test_gendeneia_quit_midway_saves_a_replayable_record(tmp_path, capsys):
    path = tmp_path / "g.json"
    argv = ["--seed", "7", "--twist-any", "Zelteta,11", "--twist-any-rule", "must"]
    argv += ["--presum", "ignore", "--history", str(path)]
    code, screen = run(gendeneia_play, argv, ["x", "7", "1", "1", "1", "q"], capsys)
    assert code == 0 and "Leaving the table." in screen
    assert "'x' is not one of the choices; the legal choices are 1 (keep " in screen
    assert "'7' is not one of the choices" in screen
    record = json.loads(path.read_text())
    assert not record["over"] and record["config"]["twist_any"] == [0, 11]
    assert record["config"]["presum"] == "ignore" and record["config"]["twist_any_rule"] == "must"
    game = replay_game(record)
    assert game.scores() == record["scores"] and len(game.actions) == len(record["actions"])


@pytest.mark.parametrize(
    "argv, field",
    [
        (["--players", "7"], "num_players"),
        (["--twist-any", "Nobody"], "twist_any"),
        (["--rounds", "none"], "max_rounds"),
        (["--seat", "3"], "seat"),
        (["--bots", "tag"], "unknown agent 'tag' for gendeneia"),
    ],
)
def test_gendeneia_bad_options_name_the_field(argv, field, capsys):
    code, screen = run(gendeneia_play, argv, [], capsys)
    assert code == 2 and field in screen


def test_every_lith_card_name_is_distinct():  # the privacy test matches names as text
    names = [c.name for c in CARDS]
    assert all(a not in b for a in names for b in names if a != b)
