"""experiments.calibration: learned best responses against exact ones, as one command."""

from __future__ import annotations

import json

import pytest

from experiments import calibration

pytestmark = pytest.mark.usefixtures("one_torch_thread")

TINY = """
[calibration]
out = "{out}"
rules = {{ rounds = 1 }}
seeds = [1, 2]
budgets = [2_000, 4_096]
final_hands = 40
targets = ["caller", "rock"]
"""


@pytest.mark.slow
def test_a_tiny_calibration_tables_every_target_budget_and_seed(tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text(TINY.format(out=tmp_path / "out"))
    assert calibration.main([str(config)]) == 0
    result = json.loads((tmp_path / "out" / "calibration.json").read_text())
    # the exact figures of docs/exact_solving.md's table (chips/100 hands)
    assert result["exact"]["caller"] == pytest.approx(50.20, abs=0.01)
    assert result["exact"]["rock"] == pytest.approx(11.51, abs=0.01)
    rows = {(r["target"], r["budget"]): r for r in result["rows"]}
    assert sorted(rows) == [("caller", 2_000), ("caller", 4_096), ("rock", 2_000), ("rock", 4_096)]
    for (target, _budget), row in rows.items():
        assert row["seeds"] == [1, 2]
        runs = [
            json.loads((tmp_path / "out" / f"{target}-seed-{s}" / "exploiter.json").read_text())
            for s in (1, 2)
        ]
        # 4,096 steps is one rollout of 64 tables: both budgets end with its update
        gains = [r["gain"]["mean"] for r in runs]
        assert row["gains"] == gains
        assert row["shares"] == [g / result["exact"][target] for g in gains]
    table = (tmp_path / "out" / "calibration.md").read_text()
    assert "| `caller` | 50.20 | 2,000 |" in table and "| `rock` | 11.51 | 4,096 |" in table
    assert (tmp_path / "out" / "calibration.png").stat().st_size > 0
    # a second run keeps what is there
    capsys.readouterr()
    assert calibration.main([str(config)]) == 0
    assert "0 of 4 exploiters to train" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[calibration]\ntargets = []\nbudgets = [1]", "calibration.targets: a list of agent"),
        ("[calibration]\ntargets = ['tag']\nbudgets = [5, 2]", "calibration.budgets: increasing"),
        ("[calibration]\ntargets = ['tag']\nbudgets = [2]\nhands = 3", "calibration.hands: not a"),
        ("[calibration]\ntargets = ['maniac']\nbudgets = [2]", "--target: unknown agent 'maniac'"),
        ("[calibration]\ntargets = ['tag']\nbudgets = [2]\nrules = { rounds = 7 }", "rounds"),
        ("[other]\n", "calibration: the TOML needs a [calibration] table"),
        ("not toml [", "is not valid TOML"),
    ],
)
def test_bad_configs_are_named_before_any_training(text, message, tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text(text)
    with pytest.raises(SystemExit) as exit_:
        calibration.main([str(config)])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_the_shipped_calibration_file_is_valid():
    from pathlib import Path

    table = calibration.load_calibration(Path("experiments/calibration_1round.toml"))
    assert table["budgets"] == [700_000, 2_000_000, 5_000_000] and len(table["targets"]) == 4
