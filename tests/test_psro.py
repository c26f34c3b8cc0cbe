"""``training.psro``: exploiters of a finished population's equilibrium join it, PSRO's step."""

from __future__ import annotations

import json

import numpy as np
import pytest

import train
from training.psro import main, psro_iterations

pytestmark = pytest.mark.usefixtures("one_torch_thread")

TINY = [
    "--opponents", "tag,self", "--mixture", "nash", "--meta-units", "40",
    "--timesteps", "512", "--n-envs", "2", "--n-steps", "128", "--batch-size", "64",
    "--n-epochs", "1", "--eval-every", "0", "--checkpoint-every", "0",
    "--self-play-every", "256", "--net-arch", "16", "--no-progress-bar",
]  # fmt: skip


@pytest.fixture(scope="module")
def population_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("psro") / "run"
    assert train.main([*TINY, "--out", str(out)]) == 0
    return out


@pytest.mark.slow
def test_an_exploiter_of_the_mixture_joins_and_the_equilibrium_is_solved_again(
    population_run, tmp_path
):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(population_run, run)
    before = json.loads((run / "pool" / "population.json").read_text())
    log = psro_iterations(run, iterations=2, exploiter_steps=256, seed=3, say=lambda _: None)
    after = json.loads((run / "pool" / "population.json").read_text())
    assert after["members"] == [*before["members"], "exploiter_psro1.zip", "exploiter_psro2.zip"]
    payoffs = np.array(after["payoffs"])
    assert np.allclose(
        payoffs[: len(before["members"]), : len(before["members"])], before["payoffs"]
    )
    assert np.allclose(payoffs, -payoffs.T)  # heads-up Lith: zero-sum
    first = json.loads((run / "pool" / "exploiter_psro1" / "exploiter.json").read_text())
    assert first["spec"]["target"] == f"mixture:{run}"  # the equilibrium as it stood
    assert [e["iteration"] for e in log] == [1, 2]
    assert log[0]["gain"]["mean"] == pytest.approx(first["gain"]["mean"])
    assert json.loads((run / "pool" / "psro.json").read_text()) == log
    mixture = json.loads((run / "pool" / "mixture.json").read_text())
    assert mixture["members"] == after["members"]
    assert sum(mixture["weights"]) == pytest.approx(1.0)
    # another call goes on numbering where the last stopped
    psro_iterations(run, iterations=1, exploiter_steps=256, seed=3, say=lambda _: None)
    assert json.loads((run / "pool" / "population.json").read_text())["members"][-1] == (
        "exploiter_psro3.zip"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--iterations", "0"], "--iterations: must be at least 1, got 0"),
        (["--exploiter-steps", "-5"], "--exploiter-steps: must be at least 1, got -5"),
        (["--seed", "-1"], "--seed: must be at least 0, got -1"),
        (["--margin", "-0.5"], "mixture: margin must be a number of at least 0, got -0.5"),
        (["--margin", "50"], "no mixture of the population beats tag by margin 50"),
        (["--margin", "x"], "argument --margin: invalid float value: 'x'"),
    ],
)
def test_bad_options_exit_2_naming_them(population_run, argv, message, capsys):
    before = (population_run / "pool" / "population.json").read_text()
    with pytest.raises(SystemExit) as stop:
        main([str(population_run), *argv])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
    assert (population_run / "pool" / "population.json").read_text() == before  # untouched


def test_a_folder_without_a_population_is_named(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main([str(tmp_path)])
    assert stop.value.code == 2
    assert "run: no pool/population.json in" in capsys.readouterr().err
