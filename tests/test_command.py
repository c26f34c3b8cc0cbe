"""The suite's one command, ``decktet``: every subcommand runs its program, ``--help`` lists
them all at 80 columns, an unknown one exits 2 naming it, and the docs name each one."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from decktet_rl import cli
from decktet_rl.play import split_game

ROOT = Path(__file__).resolve().parents[1]


def test_the_console_script_is_declared_and_installed():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"decktet": "decktet_rl.cli:main"}
    from importlib.metadata import entry_points

    (found,) = entry_points(group="console_scripts", name="decktet")
    assert found.value == "decktet_rl.cli:main"


def test_help_lists_every_command_within_80_columns(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert f"\n  {name} " in out, name
    assert max(map(len, out.splitlines())) <= 80


def test_no_command_or_an_unknown_one_exits_2_naming_it(capsys):
    assert cli.main([]) == 2
    assert cli.main(["tournaments"]) == 2
    err = capsys.readouterr().err
    assert "no command 'tournaments'" in err and "usage: decktet" in err


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_every_command_runs_its_program_and_names_itself(name, capsys):
    command = cli.COMMANDS[name]
    assert hasattr(importlib.import_module(command.module), "main"), command.module
    assert cli.main([name, "--help"]) == 0
    usage = capsys.readouterr().out
    shown = "decktet play" if name == "play" else f"decktet {name}"
    assert usage.lower().startswith(f"usage: {shown}"), usage[:200]
    # an option's default is said once (argparse's formatter adds its own to a written one)
    for option in re.split(r"\n  (?=-)", usage):
        assert option.count("(default") <= 1, option


def test_a_bad_option_keeps_its_exit_code_2(capsys):
    assert cli.main(["tournament", "--hands", "-4", "--agents", "tag,caller"]) == 2
    assert "--hands" in capsys.readouterr().err


def test_play_takes_the_game_first_and_refuses_an_unknown_one(capsys):
    assert split_game(["--seed", "3"]) == ("lith", ["--seed", "3"])
    assert split_game(["--game", "gendeneia", "--seed", "3"]) == ("gendeneia", ["--seed", "3"])
    assert split_game(["--game=gendeneia"]) == ("gendeneia", [])
    assert cli.main(["play", "--game", "poker"]) == 2
    assert "--game: must be one of lith, gendeneia, got 'poker'" in capsys.readouterr().err
    assert cli.main(["play", "--game"]) == 2


def test_the_installed_command_runs_as_a_program():
    done = subprocess.run(
        [sys.executable, "-m", "decktet_rl", "hands", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0 and done.stdout.startswith("usage: decktet hands")


def test_the_docs_page_names_every_command():
    page = (ROOT / "docs" / "commands.md").read_text()
    for name in cli.COMMANDS:
        assert f"`decktet {name}`" in page, name


def test_no_signpost_modules_remain():
    for name in ("analyze", "exploitability", "exploiter", "psro", "tournament"):
        assert not (ROOT / "agents" / f"{name}.py").exists(), name
    assert not (ROOT / "lith_env" / "solve.py").exists()


def test_the_installed_command_runs_the_benchmarks_from_any_folder(tmp_path):
    """``benchmarks/`` is not installed; the command reads it from the clone the suite is
    installed from, whatever the working folder (it once failed outside the clone's root)."""
    script = Path(sys.executable).parent / "decktet"
    done = subprocess.run(
        [str(script), "bench", "--help"], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "usage: decktet bench" in done.stdout
