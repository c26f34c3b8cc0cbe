"""The terminal games, driven through their standard input with scripted answers."""

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gendeneia_env import play as gendeneia_play
from gendeneia_env.history import replay_game
from lith_env import play as lith_play
from lith_env.cards import CARDS
from lith_env.encoding import layout as lith_layout
from lith_env.history import load_records, replay_hand

LITH_AGENTS = (
    "abstract, bluffer, caller, ismcts, mixture, ppo, random, response, rock, solved, tag, zoo"
)
GENDENEIA_AGENTS = "greedy, ismcts, mixture, ppo, random, spoiler, zoo"


def run(program, argv, answers, capsys):
    """Run a play program with these answers on its input; (exit code, screen text)."""
    code = program.main(argv, stdin=io.StringIO("".join(f"{a}\n" for a in answers)))
    return code, capsys.readouterr().out


def refused(program, argv, capsys) -> str:
    """Run a play program with a bad option: it must stop with exit code 2 before showing
    anything of a table (nothing on standard output). Returns the error message."""
    with pytest.raises(SystemExit) as stop:
        program.main(argv, stdin=io.StringIO("1\n" * 20))
    out, err = capsys.readouterr()
    assert stop.value.code == 2
    assert out == ""  # no table, no deal, no "Leaving the table."
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert lines[0].startswith("usage: decktet play")
    return lines[-1]


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """Untrained MaskablePPO models saved as ppo bots load them: a 2-player limit Lith model
    and a 3-player Gendeneía model."""
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    import gendeneia_env  # noqa: F401  (registers the envs)
    import lith_env  # noqa: F401

    folder = tmp_path_factory.mktemp("models")
    paths = {}
    for game, env_id in (("lith", "Lith-v0"), ("gendeneia", "Gendeneia-v0")):
        env = gym.make(env_id).unwrapped
        paths[game] = folder / f"{game}.zip"
        MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=0).save(paths[game])
    return paths


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


def test_lith_under_the_demon_excuse_reads_a_hand_holding_it_both_ways(tmp_path, capsys):
    from lith_env.game import LithConfig
    from lith_env.words import read_hand

    path = tmp_path / "hands.json"
    argv = ["--seed", "4", "--bots", "caller", "--excuse", "demon", "--hands", "2"]
    code, screen = run(lith_play, [*argv, "--history", str(path)], ["1"] * 200, capsys)
    assert code == 0 and "The match is over after 2 hands" in screen
    excuse = next(i for i, c in enumerate(CARDS) if c.name == "The Excuse")
    reading = read_hand([excuse, 0, 1], LithConfig(excuse="demon"))
    assert (
        "(as the imposter) / " in reading["category"] and "(as the beggar)" in reading["category"]
    )


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


def test_every_lith_card_name_is_distinct():  # the privacy test matches names as text
    names = [c.name for c in CARDS]
    assert all(a not in b for a in names for b in names if a != b)


# ----------------------------------------------------------------------------- bad options


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--players", "11"], "--players: must be an integer from 2 to 10, got 11"),
        (["--players", "1"], "--players: must be an integer from 2 to 10, got 1"),
        (["--players", "two"], "argument --players: invalid int value: 'two'"),
        (["--seat", "5"], "--seat: must be 0-1 at a 2-player table, got 5"),
        (["--seat", "-1", "--players", "3"], "--seat: must be 0-2 at a 3-player table, got -1"),
        (["--seed", "-3"], "argument --seed: must be at least 0, got -3"),
        (["--chips", "0"], "--chips: must be positive integers, got 0"),
        (["--chips", "-5"], "--chips: must be positive integers, got -5"),
        (["--ante", "-1"], "--ante: must be a non-negative integer, got -1"),
        (["--bet-sizes", "2,x,4"], "argument --bet-sizes: three whole numbers separated by"),
        (["--bet-sizes", "2,2"], "--bet-sizes: must be three positive integers"),
        (["--bet-sizes", "2,0,4"], "--bet-sizes: must be three positive integers"),
        (["--max-raises", "-1"], "--max-raises: must be a non-negative integer, got -1"),
        (["--hands", "0"], "--hands: must be None or a positive integer, got 0"),
        (
            ["--betting", "no-limit", "--max-raises", "2"],
            "--max-raises: counts raises under limit betting only, and the betting is no-limit",
        ),
        (
            ["--rule", "betting=pot-limit", "--rule", "max_raises=2"],
            "--rule max_raises: counts raises under limit betting only, and the betting is",
        ),
        (["--betting", "fixed"], "argument --betting: invalid choice: 'fixed'"),
        (["--excuse", "fool"], "argument --excuse: invalid choice: 'fool'"),
        (["--bots", "tag,rock"], "--bots: 2 given for 1 seats"),
        (["--bots", ","], "--bots: give at least one agent spec"),
        (
            ["--bots", "tag,nobody", "--players", "3"],
            f"--bots: seat 2: unknown agent 'nobody' for lith; built-in agents: {LITH_AGENTS}",
        ),
        (["--bots", "tag:speed=3"], "--bots: seat 1: agent 'tag': bad parameter 'speed=3'"),
        (["--bots", "ppo:/no/such/model.zip"], "--bots: seat 1: ppo: no model file at"),
        (["--bots", "ppo"], "--bots: seat 1: agent 'ppo' needs path: ppo:PATH"),
    ],
)
def test_lith_bad_options_stop_before_the_table_naming_the_option(argv, message, capsys):
    assert message in refused(lith_play, argv, capsys)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--players", "7"], "--players: must be an integer from 2 to 6, got 7"),
        (["--seat", "3"], "--seat: must be 0-2 at a 3-player table, got 3"),
        (["--seed", "x"], "argument --seed: must be an integer, got 'x'"),
        (["--twist-any", "Nobody"], "--twist-any: 'Nobody' is not one of Zelteta (0)"),
        (["--twist-suit", "0"], "--twist-suit: 0 is not one of"),
        (["--rounds", "none"], "--rounds: the game needs an end"),
        (["--rounds", "0"], "--rounds: must be None or a positive integer, got 0"),
        (["--rounds", "ten"], "argument --rounds: a whole number or none, got 'ten'"),
        (["--reshuffles", "-1"], "--reshuffles: must be None or a non-negative integer, got -1"),
        (["--presum", "add"], "argument --presum: invalid choice: 'add'"),
        (["--twist-any-rule", "can"], "argument --twist-any-rule: invalid choice: 'can'"),
        (
            ["--twist-any-rule", "must"],
            "--twist-any-rule: applies to the twist_any Twists, and none are set",
        ),
        (
            ["--rule", "twist_suit_rule=must"],
            "--rule twist_suit_rule: applies to the twist_suit Twists, and none are set",
        ),
        (
            ["--bots", "tag"],
            f"--bots: seat 1: unknown agent 'tag' for gendeneia; built-in agents: "
            f"{GENDENEIA_AGENTS}",
        ),
        (["--bots", "greedy,spoiler,random"], "--bots: 3 given for 2 seats"),
    ],
)
def test_gendeneia_bad_options_stop_before_the_table_naming_the_option(argv, message, capsys):
    assert message in refused(gendeneia_play, argv, capsys)


@pytest.mark.parametrize("program", [lith_play, gendeneia_play])
def test_a_history_path_that_is_a_folder_is_refused(program, tmp_path, capsys):
    message = refused(program, ["--history", str(tmp_path)], capsys)
    assert f"--history: '{tmp_path}' is a folder; give a file name" in message


def test_gendeneia_reshuffles_zero_is_zero_not_no_limit(tmp_path, capsys):
    path = tmp_path / "g.json"
    argv = ["--seed", "1", "--rounds", "none", "--reshuffles", "0", "--history", str(path)]
    code, _ = run(gendeneia_play, argv, ["q"], capsys)
    assert code == 0
    config = json.loads(path.read_text())["config"]
    assert config["max_reshuffles"] == 0 and config["max_rounds"] is None


# ----------------------------------------------------------------------------- ppo bots


def test_lith_ppo_model_for_another_player_count_is_refused(models, capsys):
    spec = f"ppo:{models['lith']}"
    message = refused(lith_play, ["--players", "3", "--bots", spec], capsys)
    size_2, size_3 = (lith_layout(n)["size"][0] for n in (2, 3))
    assert message.endswith(
        f"--bots: seat 1: the model of {spec!r} does not fit this table: it takes "
        f"observations of size {size_2} where this table has {size_3} (its observations are "
        "those of a 2-player table); a trained model plays only the player count and rules it "
        "was trained for"
    )


def test_lith_ppo_model_for_another_betting_structure_is_refused(models, capsys):
    spec = f"ppo:{models['lith']}"
    message = refused(lith_play, ["--betting", "no-limit", "--bots", spec], capsys)
    assert "does not fit this table: it takes actions of size 7 where this table has 10" in message


def test_gendeneia_ppo_model_for_another_player_count_is_refused(models, capsys):
    spec = f"ppo:{models['gendeneia']}"
    message = refused(gendeneia_play, ["--players", "2", "--bots", spec], capsys)
    assert "--bots: seat 1: the model of" in message
    assert "(its observations are those of a 3-player table)" in message
    assert "actions of size 42 where this table has 41" in message


def test_ppo_models_that_fit_play_a_game(models, tmp_path, capsys):
    path = tmp_path / "h.jsonl"
    argv = ["--seed", "2", "--bots", f"ppo:{models['lith']}", "--hands", "1"]
    code, screen = run(lith_play, [*argv, "--history", str(path)], ["1"] * 40, capsys)
    assert code == 0 and "Hand 1 is over." in screen
    assert any(a["seat"] == 1 for a in load_records(path)[0]["actions"])  # the model acted
    path = tmp_path / "g.json"
    argv = ["--seed", "2", "--bots", f"ppo:{models['gendeneia']}", "--rounds", "1"]
    code, screen = run(gendeneia_play, [*argv, "--history", str(path)], ["1"] * 40, capsys)
    assert code == 0 and "The game is over" in screen


@pytest.mark.slow
def test_misfit_model_from_the_shell_exits_2_without_traceback(models):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "lith_env.play",
            "--players",
            "3",
            "--bots",
            f"ppo:{models['lith']}",
        ],
        input="1\n" * 20,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert "error: --bots: seat 1: the model of" in done.stderr


# ----------------------------------------------------------------------------- --rule


def test_lith_rule_sets_a_rule(tmp_path, capsys):
    path = tmp_path / "h.jsonl"
    argv = ["--seed", "4", "--hands", "1", "--rule", "ante=3", "--rule", "max_raises=1"]
    code, _ = run(lith_play, [*argv, "--history", str(path)], ["1"] * 40, capsys)
    assert code == 0
    config = load_records(path)[0]["config"]
    assert config["ante"] == 3 and config["max_raises"] == 1


def test_gendeneia_rule_sets_a_rule(tmp_path, capsys):
    path = tmp_path / "g.json"
    argv = ["--seed", "4", "--rule", "presum=subtract", "--rule", "round_lots=true"]
    code, _ = run(gendeneia_play, [*argv, "--history", str(path)], ["1", "q"], capsys)
    assert code == 0
    config = json.loads(path.read_text())["config"]
    assert config["presum"] == "subtract" and config["round_lots"] is True


LITH_RULES = "betting, bet_sizes, max_raises, pawns_and_courts, excuse, starting_chips"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--rule", "foo=1"], f"--rule foo: not a rule of lith; its rules: {LITH_RULES}"),
        (["--rule", "num_players=3"], "--rule num_players: not a rule of lith; its rules:"),
        (["--rule", "ante"], "--rule: expected key=value, got 'ante'"),
        (["--rule", "ante=x"], "--rule ante: must be a non-negative integer, got 'x'"),
        (["--rule", "ante=2", "--rule", "ante=3"], "--rule ante: given 2 times; give it once"),
        (["--ante", "2", "--rule", "ante=3"], "--ante and --rule ante both set ante; give it"),
        (
            ["--basic", "--rule", "pawns_and_courts=false"],
            "--basic and --rule pawns_and_courts both set pawns_and_courts",
        ),
        (["--hands", "5", "--rule", "max_hands=5"], "--hands and --rule max_hands both set"),
    ],
)
def test_lith_bad_rules_are_refused(argv, message, capsys):
    assert message in refused(lith_play, argv, capsys)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--rule", "foo=1"], "--rule foo: not a rule of gendeneia; its rules: max_rounds, "),
        (["--rule", "presum=add"], "--rule presum: must be None, 'ignore' or 'subtract'"),
        (
            ["--presum", "ignore", "--rule", "presum=subtract"],
            "--presum and --rule presum both set presum; give it once",
        ),
        (["--rounds", "3", "--rule", "max_rounds=4"], "--rounds and --rule max_rounds both set"),
    ],
)
def test_gendeneia_bad_rules_are_refused(argv, message, capsys):
    assert message in refused(gendeneia_play, argv, capsys)


# ----------------------------------------------------------------------------- --help


@pytest.mark.parametrize(
    "program, agents, defaults",
    [
        (lith_play, LITH_AGENTS, ["(default: 100)", "(default: 2,2,4)", "(default: limit)"]),
        (gendeneia_play, GENDENEIA_AGENTS, ["(default: 10)", "(default: may)", "(default: 3)"]),
    ],
)
def test_help_explains_every_option_with_its_default(program, agents, defaults, capsys):
    with pytest.raises(SystemExit) as stop:
        program.main(["--help"])
    assert stop.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    assert f"Built-in agents: {agents};" in text
    for default in defaults:
        assert default in text
    parser, _ = program.build_parser()
    for action in parser._actions:
        if action.dest not in ("help", "rule"):
            assert action.help and "(default: " in action.help, action.option_strings
    assert "The rules and their defaults:" in text


# ----------------------------------------------------------------------------- the screens


def test_lith_custom_amount_can_go_back_to_the_menu(tmp_path, capsys):
    path = tmp_path / "h.jsonl"
    argv = ["--seed", "3", "--betting", "no-limit", "--bots", "caller", "--hands", "1"]
    _, first = run(lith_play, [*argv, "--history", str(tmp_path / "x")], ["q"], capsys)
    options = [line.split() for line in first.splitlines() if line.strip()[:1].isdigit()]
    custom = next(o[0] for o in options if "choose" in o)
    check = next(o[0] for o in options if o[1] in ("check", "call"))
    answers = [custom, "abc", "", custom, "b", check] + ["1"] * 40
    code, screen = run(lith_play, [*argv, "--history", str(path)], answers, capsys)
    assert code == 0
    assert "; Enter or b: back to the menu; q to quit): " in screen
    assert "'abc' is not a whole number from" in screen
    before_my_move = screen.partition("you: ")[0]
    assert before_my_move.count("Your move:") == 3  # the menu, and twice again after going back
    mine = next(a for a in load_records(path)[0]["actions"] if a["seat"] == 0)
    assert mine["kind"] in ("check", "call")


def test_lith_screen_explains_the_qualifier(tmp_path, capsys):
    path = tmp_path / "h.jsonl"
    argv = ["--seed", "9", "--bots", "caller", "--hands", "1", "--history", str(path)]
    code, screen = run(lith_play, argv, ["1"] * 50, capsys)
    assert code == 0 and load_records(path)[0]["showdown"]
    note = (
        "qualifier, the first tie-break between hands of one category: kindred (all three cards "
        "share a type: Personality, Location or Event) beats fortune (one card of each type) "
        "beats neither (no shared type, and not one of each)"
    )
    table, _, showdown = screen.partition("Hand 1 is over.")
    assert re.search(r"Your hand: .* \(qualifier: (kindred|fortune|neither)\)", table)
    assert note in table and screen.count(note) == 1  # said once, not at every decision
    assert screen.count("Your hand: ") > 1  # there were decisions after the first
    assert re.search(r"\bshows? .* \(qualifier: (kindred|fortune|neither)\)", showdown)
    assert "you shows" not in screen and "you show " in showdown


def test_gendeneia_screen_explains_its_letters_and_the_score(tmp_path, capsys):
    argv = ["--seed", "6", "--round-lots", "--history", str(tmp_path / "g.json")]
    _, screen = run(gendeneia_play, argv, ["1", "1", "q"], capsys)
    for text in (
        "Choices C Collars, H Hope, B Blood; Forces Q Quills, W Winds, T Twists",
        "A zero counts as 12.",
        "The lowest score wins.",
        "score = |Collars - Blood| + |Hope - Blood|",
        "leads the round",
        "to play",
    ):
        assert text in screen
    assert not re.search(r"│ \d+ +L", screen) and not re.search(r"│ \d+ (L )?>", screen)
    assert re.search(r"│ \(\d+\) \d+[CHB]/\d+[QWT]", screen)  # a lot: its value, then pairs


# ----------------------------------------------------------------------------- what is saved


def test_lith_history_is_json_lines_under_a_jsonl_default_name(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, screen = run(lith_play, ["--seed", "4", "--hands", "2"], ["2"] * 200, capsys)
    assert code == 0
    (path,) = (tmp_path / "runs" / "play").glob("lith-*.jsonl")
    lines = path.read_text().splitlines()
    assert len(lines) == 2 and all(isinstance(json.loads(line), dict) for line in lines)
    assert f"2 hand(s) saved to {path.relative_to(tmp_path)}" in screen


def test_gendeneia_record_is_one_json_object_on_one_line(tmp_path, capsys):
    path = tmp_path / "g.json"
    run(gendeneia_play, ["--seed", "6", "--history", str(path)], ["1", "1", "q"], capsys)
    text = path.read_text()
    assert text.endswith("\n") and len(text.splitlines()) == 1
    assert replay_game(json.loads(text)).scores() == json.loads(text)["scores"]


def test_docs_call_the_lith_history_json_lines():
    doc = (Path(__file__).parent.parent / "docs" / "play.md").read_text()
    assert "JSON list" not in doc and "JSON Lines" in doc
