"""Several bots' best responses at once (``decktet best-response BOT BOT --ray``): the same
figures and strategies as one after another here."""

from __future__ import annotations

import json

import numpy as np
import pytest

from lith_solver.responder import load_response
from tests.responder_helpers import RULES, saved_abstract_bot
from training.best_response import main
from training.exploiter import run_name

SMALL = [*RULES, "--buckets", "20", "--traversals", "20", "--iterations", "60",
         "--check-every", "30", "--samples", "500", "--hands", "400", "--seed", "4"]  # fmt: skip


@pytest.fixture(scope="module")
def bot(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bot")
    return folder, saved_abstract_bot(folder)


@pytest.mark.slow
def test_bots_on_ray_give_the_figures_given_here(ray_cluster, bot, tmp_path, capsys):
    folder, _ = bot
    bots = ["caller", f"abstract:{folder}"]
    assert main([*bots, *SMALL, "--out", str(tmp_path / "here")]) == 0
    assert main([*bots, *SMALL, "--ray", "--out", str(tmp_path / "there")]) == 0
    here, there = (json.loads((tmp_path / name / "best_responses.json").read_text())
                   for name in ("here", "there"))  # fmt: skip
    for a, b in zip(here, there, strict=True):
        for key in ("bot", "computed", "played", "played_low", "played_high", "policy"):
            assert a[key] == b[key], key
    for name in (run_name(b, None) for b in bots):
        a, b = (load_response(tmp_path / where / name)[1] for where in ("here", "there"))
        assert np.array_equal(a, b)
        assert not (tmp_path / "there" / name / "responder_state.npz").exists()
    for row in there:  # each folder names its bot as here, not by the worker's copy
        name = run_name(row["bot"], None)
        assert json.loads((tmp_path / "there" / name / "best_response.json").read_text()) == row
        assert (
            json.loads((tmp_path / "there" / name / "response.json").read_text())["bot"]
            == row["bot"]
        )
    capsys.readouterr()
