"""tournaments.aivat: an unbiased control variate for head-to-head figures."""

from __future__ import annotations

import json

import pytest

from tournaments import aivat

FOURTEEN = {"rounds": 2, "cards": list(range(0, 28, 2))}
# bluffer's exact chips/100 hands against tag, both seats, from the exact games' walks:
# one round: OneRoundGame.game_value of the two agents' profiles (lith_solver.agent_strategy);
# two rounds on 14 cards: exchanges.profile_value of their exchange strategies.
EXACT = {"one round": -22.069, "fourteen": -21.253}


def test_every_figure_is_unbiased_on_a_game_with_draws():
    result = aivat.aivat_match(aivat.make_judge("bluffer", "tag", FOURTEEN), 4_000)
    for name in ("plain", "chance", "all"):
        assert result[name]["low"] <= EXACT["fourteen"] <= result[name]["high"], name
    # the draws' terms take out luck the duplicate deals leave
    assert result["chance"]["narrower"] > 1.1 and result["all"]["narrower"] > 1.1


def test_on_one_round_the_deal_terms_cancel_in_duplicate():
    result = aivat.aivat_match(aivat.make_judge("bluffer", "tag", {"rounds": 1}), 4_000)
    assert result["chance"]["mean"] == pytest.approx(result["plain"]["mean"], abs=1e-9)
    assert result["all"]["low"] <= EXACT["one round"] <= result["all"]["high"]


def test_the_terms_have_no_mean_when_an_agent_plays_itself():
    judge = aivat.make_judge("tag", "tag", FOURTEEN)
    chance = [judge.play(deal, 0)[1] for deal in range(300)]
    assert abs(sum(chance) / len(chance)) < 0.5  # chips: each term is zero on average
    assert any(c != 0 for c in chance)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tag", "rock", "--hands", "3"], "--hands: must be even"),
        (["tag", "rock", "--rule", "betting=no-limit"], "heads-up limit Lith"),
        (["tag", "maniac"], "unknown agent 'maniac' for lith"),
        (["tag", "rock", "--hands", "x"], "--hands: must be an integer"),
    ],
)
def test_bad_options_exit_2_naming_them(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        aivat.main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_the_command_prints_three_figures_and_writes_json(tmp_path, capsys):
    out = tmp_path / "a.json"
    assert aivat.main(["bluffer", "tag", "--hands", "40", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "plain:" in printed and "chance terms:" in printed and "and its decisions:" in printed
    saved = json.loads(out.read_text())
    assert saved["hands"] == 40 and saved["opponent"] == "tag"
