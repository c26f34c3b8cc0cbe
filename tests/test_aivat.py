"""tournaments.aivat: an unbiased control variate for head-to-head figures."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tournaments import aivat

FOURTEEN = {"rounds": 2, "cards": list(range(0, 28, 2))}
# bluffer's exact chips/100 hands against tag, both seats, from the exact games' walks:
# one round: OneRoundGame.game_value of the two agents' profiles (lith_solver.agent_strategy);
# two rounds on 14 cards: exchanges.profile_value of their exchange strategies.
EXACT = {"one round": -22.069, "fourteen": -21.253}


@pytest.mark.slow
def test_every_figure_is_unbiased_on_a_game_with_draws():
    result = aivat.aivat_match(aivat.make_judge("bluffer", "tag", FOURTEEN), 4_000)
    for name in ("plain", "chance", "all"):
        assert result[name]["low"] <= EXACT["fourteen"] <= result[name]["high"], name
    # the draws' terms take out luck the duplicate deals leave
    assert result["chance"]["narrower"] > 1.1 and result["all"]["narrower"] > 1.1


@pytest.mark.slow
def test_on_one_round_the_deal_terms_cancel_in_duplicate():
    result = aivat.aivat_match(aivat.make_judge("bluffer", "tag", {"rounds": 1}), 4_000)
    assert result["chance"]["mean"] == pytest.approx(result["plain"]["mean"], abs=1e-9)
    assert result["all"]["low"] <= EXACT["one round"] <= result["all"]["high"]


def test_the_terms_have_no_mean_when_an_agent_plays_itself():
    judge = aivat.make_judge("tag", "tag", FOURTEEN)
    chance = [judge.play(deal, 0)[1] for deal in range(300)]
    assert abs(sum(chance) / len(chance)) < 0.5  # chips: each term is zero on average
    assert any(c != 0 for c in chance)


@pytest.mark.slow
def test_the_terms_have_no_mean_between_different_agents():
    """Between unlike agents (bluffer, which mixes, against tag) nothing cancels by symmetry:
    the terms of bluffer's decisions and of the draws (a deal's two hands, whose deal terms
    cancel) each average zero, within three standard errors, over 400 deals (here -2.0 and
    -0.8 of them); a decision's term valued at the likeliest action rather than the one
    taken is off by 20, one over uniform odds rather than the agent's by 10."""
    judge = aivat.make_judge("bluffer", "tag", FOURTEEN)
    played = np.array([[judge.play(deal, seat) for seat in (0, 1)] for deal in range(400)])
    draws = played[:, :, 1].sum(axis=1)  # the deal terms of the two seats cancel
    decisions = played[:, :, 2].sum(axis=1)
    # bluffer mixes at most of its decisions; a deal's two hands draw alike but in 25 here
    assert np.count_nonzero(decisions) > 250 and np.count_nonzero(draws) > 20
    for terms in (draws, decisions):
        error = terms.std(ddof=1) / np.sqrt(len(terms))
        assert abs(terms.mean()) < 3 * error, (terms.mean(), error)


def test_a_draws_term_averages_zero_over_every_card_that_could_have_come():
    """A draw's term, E[V] - V(the card drawn), is zero on average over the draw itself:
    recomputed for every card the deck could have given (the cards nobody has held), its
    mean is zero to rounding, at every draw of bluffer's hands against tag."""
    judge = aivat.make_judge("bluffer", "tag", FOURTEEN)
    term = judge._draw_term
    means = []

    def every_card(seat, drawer, hands, drawn, held):
        could = [c for c in judge.deck if c not in held]
        assert drawn in could
        values = []
        for card in could:
            other = [h.copy() for h in hands]
            other[drawer][other[drawer] == drawn] = card
            values.append(term(seat, drawer, other, card, held))
        means.append(float(np.mean(values)))
        return term(seat, drawer, hands, drawn, held)

    judge._draw_term = every_card
    for deal in range(150):
        for seat in (0, 1):
            judge.play(deal, seat)
    assert len(means) > 50
    assert means == pytest.approx([0.0] * len(means), abs=1e-9)


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
