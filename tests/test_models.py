"""The bots kept in models/ play, and measure what models/README.md says they measure."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lith_env.game import LithConfig
from lith_solver.exploitability import best_response_to, solvable_game
from tablegame.registry import make_agent

ROOT = Path(__file__).resolve().parents[1]
ROWS = [
    line for line in (ROOT / "models" / "README.md").read_text().splitlines()
    if line.startswith("| ") and "`" in line and "one round" in line
]  # fmt: skip


def _spec_and_figure(row: str) -> tuple[str, float]:
    spec = re.search(r"`((?:abstract|ppo|solved):[^`]+)`", row).group(1)
    cells = [c.strip() for c in row.strip("|").split("|")]
    figure = float(re.match(r"[0-9.]+", cells[6]).group(0))
    return spec, figure


def test_every_one_round_bot_is_listed():
    assert len(ROWS) >= 2


@pytest.mark.slow
@pytest.mark.parametrize("row", ROWS, ids=lambda row: _spec_and_figure(row)[0])
def test_a_kept_bot_measures_its_listed_exploitability(row, monkeypatch):
    monkeypatch.chdir(ROOT)  # the specs name files relative to the repository
    spec, figure = _spec_and_figure(row)
    config = LithConfig(rounds=1)
    agent = make_agent(spec, "lith", seed=0, config=config)
    measured = best_response_to(agent, solvable_game(config), spec)["exploitability"]
    digits = len(str(figure).split(".")[1])
    assert measured == pytest.approx(figure, abs=0.6 * 10**-digits)


FULL_GAME_ROWS = [
    line for line in (ROOT / "models" / "README.md").read_text().splitlines()
    if line.startswith("| ") and "`abstract:" in line and "full game" in line
]  # fmt: skip


def test_the_full_game_bots_are_listed():
    """The zoo's heads-up bot and the first kept one, which earlier results name."""
    specs = {re.search(r"`(abstract:[^`]+)`", row).group(1) for row in FULL_GAME_ROWS}
    assert specs == {"abstract:models/lith_hu_full_gift", "abstract:models/lith_hu_full_mccfr"}


@pytest.mark.slow
@pytest.mark.parametrize(
    "row", FULL_GAME_ROWS, ids=lambda row: re.search(r"`abstract:models/([^`]+)`", row).group(1)
)
def test_the_full_game_bot_replays_its_listed_result_against_tag(row, monkeypatch):
    """No exact figure exists for the full game: the kept bot replays the duplicate match
    against ``tag`` its row lists (20,000 hands, seed 2), to the listed digit."""
    from tournaments.batched_tables import run_batched_tournament
    from tournaments.spec import TournamentSpec

    monkeypatch.chdir(ROOT)
    spec = re.search(r"`(abstract:[^`]+)`", row).group(1)
    listed = float(re.search(r"against `tag` ([+-][0-9.]+)", row).group(1))
    match = TournamentSpec(
        game="lith", agents=(spec, "tag"), players=2, units=20_000, seed=2, rules={},
        lineup=(0, 1),
    )  # fmt: skip
    result = run_batched_tournament(match, progress=False)
    assert result["agents_results"][spec]["chips_per_100"]["mean"] == pytest.approx(
        listed, abs=0.05
    )
