"""Several solver configurations at once (lith_solver.one_round --vary, --ray): the same strategies
and figures one after another here or as Ray tasks."""

from __future__ import annotations

import json

import pytest

from lith_solver.cli import main as lith_solver_main

DECK = ["--rule", "cards=0,2,4,6,8,10,12,14,16", "--iterations", "60"]


@pytest.mark.slow
def test_varied_configurations_solve_alike_here_and_on_ray(ray_cluster, tmp_path, capsys):
    vary = ["--vary", "excuse=none", "--vary", "bet_sizes=1,2,4"]
    assert lith_solver_main(["solve", *DECK, *vary, "--out", str(tmp_path / "here")]) == 0
    assert lith_solver_main(["solve", *DECK, *vary, "--ray", "--out", str(tmp_path / "there")]) == 0
    assert "solved configurations" in capsys.readouterr().out
    here = json.loads((tmp_path / "here" / "solves.json").read_text())
    there = json.loads((tmp_path / "there" / "solves.json").read_text())
    for a, b in zip(here, there, strict=True):
        assert a["exploitability"] == b["exploitability"] and a["game_value"] == b["game_value"]
    assert here[0]["game_value"] != here[1]["game_value"]  # bigger bets change the game
    for name in ("excuse=none", "bet_sizes=1,2,4"):
        a = (tmp_path / "here" / name / "strategy.npz").read_bytes()
        assert a == (tmp_path / "there" / name / "strategy.npz").read_bytes()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--ray"], "--ray: only with --vary"),
        (["--vary", "excuse=none", "--vary", "excuse=none"], "--vary: a configuration is given"),
        (["--vary", "cards=0,1,2"], "--vary cards=0,1,2: that rule is also set by --rule"),
        (["--vary", "colour=red"], "--vary colour: not a rule of lith"),
        (["--vary", "nonsense"], "--vary: expected key=value, got 'nonsense'"),
        (["--vary", "excuse=none", "--ray", "x"], "--ray: ray address: local, auto"),
    ],
)
def test_bad_variations_exit_2_before_solving(argv, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        lith_solver_main(["solve", *DECK, *argv, "--out", str(tmp_path / "never")])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "never").exists()
