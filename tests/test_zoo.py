"""The zoo: every bot loads and plays, replays its card's check, and its card says what the
issue asks (rules, how it was made, results, exploitability, size); ``zoo:NAME`` specs, the
listing command and ``keep``, the compact copy models/ holds."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

from agents import zoo
from lith_env.game import LithConfig
from tablegame.registry import make_agent, parameter_files, split_spec
from tournaments.per_table import run_tournament
from tournaments.spec import TournamentSpec

ENTRIES = zoo.entries()
SLOW = {"gendeneia-3p", "lith-6max"}  # a search, and 600 six-handed hands: 15-60 s each
CARD_FIELDS = ("**Plays**", "**Made by**", "**Seed**", "**Commit**", "**Results**",
               "**Exploitability**", "**Size**", "**Check**")  # fmt: skip


def _params():
    return [
        pytest.param(name, marks=[pytest.mark.slow] if name in SLOW else [], id=name)
        for name in ENTRIES
    ]


def test_the_zoo_holds_the_bots_the_issue_names():
    games = {(e.game, e.players, "rounds" in e.rules) for e in ENTRIES.values()}
    assert {
        ("lith", 2, False),
        ("lith", 6, False),
        ("lith", 2, True),
        ("gendeneia", 3, False),
    } <= games
    # Tens of MB in the repository at most: the full-game gift bot's 4.2 million rows of
    # probabilities (19.8 MB, float32 compressed) are most of it.
    assert sum(zoo.size(e) for e in ENTRIES.values()) < 32e6


@pytest.mark.slow
@pytest.mark.parametrize("name", _params())
def test_a_bot_replays_its_check_within_its_cards_interval(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # zoo specs play from any folder
    entry = ENTRIES[name]
    check = entry.check
    spec = TournamentSpec(
        game=entry.game,
        agents=tuple(check["agents"]),
        players=entry.players,
        units=check["units"],
        seed=check["seed"],
        rules=entry.rules,
        lineup=tuple(check["lineup"]),
    )
    result = run_tournament(spec)
    measured = result["agents_results"][f"zoo:{name}"][check["measure"]]
    assert measured["low"] <= check["figure"] <= measured["high"], measured
    # A seeded match repeats bit for bit: it gives exactly the figures the card quotes, to
    # the card's last digit (a hand won or lost otherwise moves the mean by 0.25 chips/100,
    # a game's share by 1/120 at least).
    line = re.search(r"\*\*Check\*\*: (.*)", zoo.card(name)).group(1)
    quoted = re.search(rf"{_NUMBER} \[{_NUMBER}, {_NUMBER}\]\.?$", line.replace("\u2212", "-"))
    assert quoted, line
    digits = 1 if entry.game == "lith" else 3
    for key, text in zip(("mean", "low", "high"), quoted.groups(), strict=True):
        assert f"{measured[key]:+.{digits}f}" == f"{float(text):+.{digits}f}", (key, line)


_NUMBER = r"([+-]?[0-9]+\.[0-9]+)"
# The heads-up Lith bots' cards give their figure against ``tag`` from 20,000 duplicate hands
# (seed 2, the batched engine): replayed, its interval is a few chips/100 wide.
HEADS_UP_FIGURE_RUN = {"units": 20_000, "seed": 2}


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", [n for n, e in ENTRIES.items() if e.game == "lith" and e.players == 2]
)
def test_a_heads_up_bot_holds_its_figure_in_a_narrow_interval(name, tmp_path, monkeypatch):
    """The short check's interval is tens of chips/100 wide; 20,000 duplicate hands on the
    batched engine hold the card's figure within a few (lith-hu and lith-hu-equity: the
    figure is this run's mean; lith-hu-1round: 0.6 [-0.7, 1.9] against 0.4)."""
    from tournaments.batched_tables import run_batched_tournament

    monkeypatch.chdir(tmp_path)
    entry = ENTRIES[name]
    check = entry.check
    spec = TournamentSpec(
        game="lith", agents=tuple(check["agents"]), players=2, rules=entry.rules,
        lineup=tuple(check["lineup"]), **HEADS_UP_FIGURE_RUN,
    )  # fmt: skip
    measured = run_batched_tournament(spec)["agents_results"][f"zoo:{name}"][check["measure"]]
    assert measured["high"] - measured["low"] < 15
    assert measured["low"] <= check["figure"] <= measured["high"], measured


@pytest.mark.parametrize("name", list(ENTRIES))
def test_every_card_says_what_the_issue_asks_and_its_size_is_the_size_on_disk(name):
    entry = ENTRIES[name]
    card = zoo.card(name)
    for field in CARD_FIELDS:
        assert field in card, (name, field)
    assert entry.spec in card  # the spec it stands for
    assert f"{entry.check['figure']}" in card.replace("+", "")  # the figure the check holds
    if not entry.files():  # a search: no file to weigh
        assert "**Size**: no file" in card
    else:
        stated = float(re.search(r"\*\*Size\*\*: ([0-9.]+) MB", card).group(1))
        assert stated == pytest.approx(zoo.size(entry) / 1e6, abs=0.05)
    for path in entry.files():
        assert path.exists(), path


def test_a_zoo_spec_is_the_spec_it_stands_for_with_its_parameters(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name, path, parameters = split_spec("zoo:lith-hu:deterministic=true", "lith")
    assert (name, parameters) == ("abstract", ["deterministic=true"])
    assert Path(path) == zoo.MODELS / "lith_hu_full_gift"
    agent = make_agent("zoo:lith-hu:deterministic=true", "lith", seed=3)
    assert type(agent).__name__ == "AbstractAgent" and agent.deterministic
    # Ray ships the file the alias loads, as for the spec it stands for
    assert parameter_files("zoo:gendeneia-3p", "gendeneia") == {}
    assert split_spec("zoo:gendeneia-3p", "gendeneia") == ("ismcts", None, [])


@pytest.mark.parametrize(
    "spec,game,message",
    [
        ("zoo:nobody", "lith", "no bot 'nobody' for lith; the zoo for lith: lith-hu"),
        ("zoo:gendeneia-3p", "lith", "(gendeneia-3p plays gendeneia)"),
        ("zoo:lith-hu:speed=3", "lith", "bad parameter 'speed=3'"),
    ],
)
def test_a_bad_zoo_spec_is_an_error_naming_it(spec, game, message):
    with pytest.raises(ValueError) as error:
        make_agent(spec, game)
    assert message in str(error.value)


def test_a_bot_refuses_a_table_of_other_rules():
    with pytest.raises(ValueError, match="other rules: this table has rounds=3"):
        make_agent("zoo:lith-hu-1round", "lith", config=LithConfig())


def test_the_command_lists_the_bots_prints_a_card_and_names_a_bad_argument(capsys):
    assert zoo.main([]) == 0
    listing = capsys.readouterr().out
    for name in ENTRIES:
        assert name in listing
    assert zoo.main(["lith-hu"]) == 0
    card = capsys.readouterr().out
    assert card.startswith("zoo:lith-hu") and "###" not in card  # rendered for the terminal
    assert zoo.main(["--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["lith-hu"]["bytes"] == zoo.size(ENTRIES["lith-hu"])
    for argv, message in (
        (["nobody"], "no bot 'nobody'"),
        (["keep", "tag"], "keep: give SPEC and DIR"),
        (["keep", "tag", "x"], "is not a ppo:PATH, solved:DIR or abstract:DIR bot"),
        (["lith-hu", "extra"], "unexpected arguments"),
    ):
        with pytest.raises(SystemExit) as stop:
            zoo.main(argv)
        assert stop.value.code == 2
        assert message in capsys.readouterr().err


def test_keep_writes_a_copy_that_plays_as_the_original(tmp_path):
    from lith_solver.agent_strategy import agent_profile
    from lith_solver.one_round import OneRoundGame

    config = LithConfig(rounds=1)
    game = OneRoundGame(config)
    source = "abstract:" + str(zoo.MODELS / "lith_hu_1round_mccfr")
    kept = zoo.keep(source, tmp_path / "kept")
    arrays = np.load(kept / "abstraction.npz")
    assert "current" not in arrays.files and arrays["average"].dtype == np.float32
    original = agent_profile(make_agent(source, "lith", seed=0, config=config), game)
    copy = agent_profile(make_agent(f"abstract:{kept}", "lith", seed=0, config=config), game)
    for index in game.decisions:
        assert np.allclose(original[index], copy[index], atol=1e-6)
        assert np.allclose(copy[index].sum(axis=-1), 1.0, atol=1e-12)  # renormalized float32
    with pytest.raises(ValueError, match="keeps no current strategy"):
        make_agent(f"abstract:{kept}:policy=current", "lith", config=config)
    with pytest.raises(ValueError, match="exists; give a new path"):
        zoo.keep(source, kept)


def test_keep_drops_a_ppo_models_optimizer_and_nothing_it_plays_with(tmp_path):
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    import lith_env  # noqa: F401

    env = gym.make("Lith-v0").unwrapped
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=3)
    model.learn(64)  # an optimizer with a state to drop
    model.save(tmp_path / "m.zip")
    kept = zoo.keep(f"ppo:{tmp_path / 'm.zip'}", tmp_path / "kept.zip")
    with zipfile.ZipFile(kept) as archive, zipfile.ZipFile(tmp_path / "m.zip") as trained:
        assert archive.read("policy.pth") == trained.read("policy.pth")  # the same weights
        emptied = archive.getinfo("policy.optimizer.pth").file_size
        assert emptied < trained.getinfo("policy.optimizer.pth").file_size / 10
        data = json.loads(archive.read("data"))  # the last rollout's observations are gone
        assert data["_last_obs"] is None and json.loads(trained.read("data"))["_last_obs"]
    assert MaskablePPO.load(kept, env=env).learn(32)  # and it still trains on, dealing afresh
    original = make_agent(f"ppo:{tmp_path / 'm.zip'}", "lith")
    copy = make_agent(f"ppo:{kept}", "lith")
    observation, _ = env.reset(seed=4)
    mask = env.action_masks()
    assert original.act(observation, mask) == copy.act(observation, mask)
