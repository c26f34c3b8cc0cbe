"""Agents of the user's own: ``module:Name`` specs everywhere an agent is named, a package's
agents by the entry-point group, and a clear error (exit 2) for each way such a spec is bad."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agents import lbr
from distributed import cluster
from lith_env import play as lith_play
from lith_solver import cli as solver_cli
from tablegame.registry import ENTRY_POINT_GROUP, imported_modules, make_agent
from tournaments import cli as tournament
from tournaments.per_table import run_tournament
from tournaments.spec import TournamentSpec
from training import cli as train_cli
from training import exploiter_cli

ROOT = Path(__file__).resolve().parents[1]

BOTS = '''
import numpy as np


class Raiser:
    """Raises when it may, else calls; keeps its cards. Remembers what it was built with."""

    def __init__(self, seed=None, config=None, every=1, label="x"):
        self.seed, self.config, self.every, self.label = seed, config, every, label
        self.resets = []

    def reset(self, seed=None):
        self.resets.append(seed)

    def act(self, observation, action_mask):
        if action_mask[2]:
            return 2
        return 1 if action_mask[1] else int(np.flatnonzero(action_mask)[0])


def make_caller(**options):
    """A factory taking any keyword: the options arrive as given."""
    agent = Raiser()
    agent.options = options
    agent.act = lambda observation, action_mask: 1 if action_mask[1] else 2
    return agent


class NoReset:
    def act(self, observation, action_mask):
        return 1


class ResetWithoutSeed(Raiser):
    def reset(self):
        pass


class ActWithoutMask(Raiser):
    def act(self, observation):
        return 1


class NeedsAnArgument:
    def __init__(self, depth):
        self.depth = depth


NOT_CALLABLE = 3
'''


@pytest.fixture
def bots(tmp_path, monkeypatch) -> Path:
    """A module ``userbots`` of agents, importable from a folder of its own."""
    (tmp_path / "userbots.py").write_text(BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("userbots", None)
    yield tmp_path
    sys.modules.pop("userbots", None)


def test_a_class_gets_its_parameters_the_seed_and_the_rules(bots):
    from lith_env.game import LithConfig

    config = LithConfig(num_players=3)
    agent = make_agent("userbots:Raiser:every=4:label=hi", "lith", seed=7, config=config)
    assert type(agent).__name__ == "Raiser"
    assert (agent.seed, agent.config, agent.every, agent.label) == (7, config, 4, "hi")
    assert "userbots" in imported_modules()


def test_a_factory_with_open_keywords_takes_any_parameter(bots):
    agent = make_agent("userbots:make_caller:depth=3:names=a,b", "lith", seed=2)
    assert agent.options == {"depth": 3, "names": ("a", "b"), "seed": 2, "config": None}


@pytest.mark.parametrize(
    "spec,message",
    [
        ("nosuchmodule_xyz:Agent", "cannot import module 'nosuchmodule_xyz'"),
        ("userbots:Missing", "module 'userbots' has no 'Missing'"),
        ("userbots:NOT_CALLABLE", "'NOT_CALLABLE' is not a class or factory"),
        ("userbots:Raiser:speed=2", "bad parameter 'speed=2'; parameters: every=..., label=..."),
        ("userbots:Raiser:every", "bad parameter 'every'"),
        ("userbots:NeedsAnArgument", "missing 1 required positional argument: 'depth'"),
        ("userbots:NoReset", "does not keep the agent protocol"),
        ("userbots:ResetWithoutSeed", "it lacks a seed=None keyword in reset()"),
        ("userbots:ActWithoutMask", "it lacks act() taking (observation, action_mask)"),
        ("nosuchagent", "an agent of your own: module:ClassName"),
    ],
)
def test_a_bad_spec_is_an_error_naming_what_is_wrong(bots, spec, message):
    with pytest.raises(ValueError, match="^agent|unknown agent") as error:
        make_agent(spec, "lith")
    assert message in str(error.value)
    if spec == "userbots:NoReset":
        assert "it lacks reset()" in str(error.value)


def test_the_agent_plays_a_tournament_as_a_built_in_agent_does(bots):
    spec = TournamentSpec(
        game="lith", agents=("userbots:Raiser", "caller"), players=2, units=40, seed=3
    )
    first, again = run_tournament(spec), run_tournament(spec)
    assert first["pairings"] == again["pairings"]  # the same seed, the same games
    ((pairing, row),) = first["pairings"].items()
    assert pairing == "userbots:Raiser vs caller"
    assert row["chips_per_100"]["n"] == 20  # every block played
    swapped = run_tournament(
        TournamentSpec(
            game="lith", agents=("caller", "userbots:Raiser"), players=2, units=40, seed=3
        )
    )
    # what one wins the other loses, hand for hand
    assert swapped["pairings"]["caller vs userbots:Raiser"]["chips_per_100"][
        "mean"
    ] == pytest.approx(-row["chips_per_100"]["mean"])


def exit_code(main, argv: list[str]) -> int:
    """A command's exit status, whether it returns it or raises ``SystemExit``."""
    try:
        return main(argv) or 0
    except SystemExit as stop:
        return stop.code


def test_every_command_that_names_agents_takes_the_spec_and_refuses_a_bad_one(bots, capsys):
    lith = ["--game", "lith"]
    runs = [  # each command, with {} where the spec goes
        (tournament.main, [*lith, "--players", "2", "--hands", "4", "--agents", "{},caller"]),
        (lith_play.main, ["--bots", "{}"]),
        (lbr.main, ["--hands", "2", "{}"]),
        (
            solver_cli.main,
            ["exploitability", "--rule", "rounds=1", "--rule", "cards=0,1,2,3,4,5", "{}"],
        ),
        (exploiter_cli.main, [*lith, "--out", str(bots / "x"), "--target", "{}"]),
        (train_cli.main, [*lith, "--timesteps", "64", "--opponents", "{}"]),
    ]
    for main, argv in runs:
        assert exit_code(main, [a.format("userbots:Missing") for a in argv]) == 2, main.__module__
        assert "module 'userbots' has no 'Missing'" in capsys.readouterr().err, main.__module__
    for main, argv in (runs[0], runs[2], runs[3]):  # the quick ones, for real
        assert exit_code(main, [a.format("userbots:Raiser") for a in argv]) == 0, main.__module__
    assert "exploitability: " in capsys.readouterr().out


def test_ray_ships_the_users_module_but_not_installed_packages(bots):
    make_agent("userbots:Raiser", "lith")
    paths = cluster.package_paths()
    assert str(bots / "userbots.py") in paths
    assert not any("site-packages" in p for p in paths)


def test_a_package_registers_agents_through_the_entry_point_group(tmp_path):
    """A package on the path with a ``decktet_rl.agents`` entry point: its agents by name."""
    package = tmp_path / "theirbots"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "registered.py").write_text(
        textwrap.dedent(
            """
            from tablegame.registry import register


            @register("lith", "always-raise")
            class AlwaysRaise:
                def __init__(self, seed=None):
                    pass

                def reset(self, seed=None):
                    pass

                def act(self, observation, action_mask):
                    return 2 if action_mask[2] else 1 if action_mask[1] else 3
            """
        )
    )
    info = tmp_path / "theirbots-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: theirbots\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\ntheirbots = theirbots.registered\n"
    )
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}")
    argv = ["--game", "lith", "--players", "2", "--hands", "4", "--seed", "1"]
    done = subprocess.run(
        [sys.executable, "-m", "tournaments", *argv, "--agents", "always-raise,caller"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "always-raise vs caller" in done.stdout
