"""The one-play look-ahead and the observation fields built from it."""

import numpy as np
import pytest

from gendeneia_env.cards import parse_card, parse_pair
from gendeneia_env.encoding import EFFECT_SCALE, encode
from gendeneia_env.encoding import layout as obs_layout
from gendeneia_env.game import KEEP, GAction
from gendeneia_env.lookahead import after_play, play_delta, removal_delta, score_of
from tests.gendeneia_helpers import arrange, new_game

# Collars 5, Hope 0, Blood 3: score |5 - 3| + |0 - 3| = 5
MINE = [[parse_pair("5C/2Q")], [], [parse_pair("3B/4W")]]


def field(obs, config, name):
    start, size = obs_layout(config.num_players, config.round_lots)[name]
    return obs[start : start + size]


def test_score_and_play_delta_of_known_lots():
    assert score_of(MINE) == 5
    assert play_delta(MINE, *parse_pair("4H/6Q")) == -2  # Hope 4: |5 - 3| + |4 - 3| = 3
    assert play_delta([[], [], []], *parse_pair("4H/6Q")) == 4
    assert score_of(MINE, presum="subtract") == abs(5 - (-3)) + abs(0 - (-3))  # 3B is Wind-side


def test_play_delta_counts_trumping():
    # A Wind of 5 removes the lower Quill 5C/2Q: Collars becomes 6 alone: |6 - 3| + |0 - 3| = 6
    assert after_play(MINE, *parse_pair("6C/5W"))[0] == [parse_pair("6C/5W")]
    assert play_delta(MINE, *parse_pair("6C/5W")) == 6 - 5
    assert MINE[0] == [parse_pair("5C/2Q")]  # the seat's own lots are untouched


def test_removal_delta():
    assert removal_delta(MINE, parse_card("5C")) == (3 + 3) - 5  # Collars 0
    assert removal_delta(MINE, parse_card("3B")) == (5 + 0) - 5  # Blood 0
    assert removal_delta(MINE, parse_card("9C")) == 0  # not held


def test_observation_carries_gaps_and_play_effects():
    game = arrange(
        new_game(),
        hands={0: "4H/6Q"},
        lots={0: {"Collars": ["5C/2Q"], "Blood": ["3B/4W"]}, 2: {"Hope": ["2H/1W"]}},
    )
    game.apply(KEEP)
    obs = encode(game.observe(0), game.config)
    gaps = field(obs, game.config, "score gaps")
    np.testing.assert_allclose(gaps * EFFECT_SCALE, [0, -5, 2 - 5], atol=1e-5)
    plays = field(obs, game.config, "play effects")
    # onto me: -2; seat +1 (empty): +4; seat +2: the 6 Quill trumps 2H/1W, Hope 2 -> 4: +2
    np.testing.assert_allclose(plays * EFFECT_SCALE, [-2, 4, 2], atol=1e-5)
    assert not field(obs, game.config, "removal effects").any()
    # Seat 1 sees the gaps from its own seat, and the effects of its own hand
    view = game.observe(1)
    other = encode(view, game.config)
    np.testing.assert_allclose(field(other, game.config, "score gaps") * EFFECT_SCALE, [0, 2, 5])
    expected = [play_delta(view.lots[s], *view.hand) for s in (1, 2, 0)]
    np.testing.assert_allclose(field(other, game.config, "play effects") * EFFECT_SCALE, expected)


def test_observation_carries_removal_effects_while_one_is_owed():
    game = arrange(
        new_game(twist_any=("Zelteta",), twist_any_rule="may"),
        hands={0: "4C/0T"},  # 0T is Zelteta: a removal from any lot
        lots={0: {"Collars": ["5C/2Q"], "Blood": ["3B/4W"]}, 1: {"Hope": ["7H/3Q"]}},
    )
    game.apply(KEEP)
    game.apply(GAction("play", target=0))
    assert game.phase == "remove"
    obs = encode(game.observe(0), game.config)
    removals = field(obs, game.config, "removal effects") * EFFECT_SCALE
    # my lots are now Collars 5 + 4 (the Twist pair stays), Blood 3: |9 - 3| + |0 - 3| = 9
    assert removals[parse_card("5C")] == pytest.approx((1 + 3) - 9)  # Collars 4
    assert removals[parse_card("3B")] == pytest.approx((9 + 0) - 9)  # Blood 0
    assert removals[parse_card("7H")] == pytest.approx(0 - 7)  # seat 1 drops to 0
    assert removals[parse_card("4C")] == 0  # a Twist pair is never removed


def test_effects_are_clipped():
    game = arrange(
        new_game(), hands={0: "11H/6Q"}, lots={1: {"Collars": ["11C/1Q", "10C/2Q", "9C/3Q"]}}
    )
    game.apply(KEEP)
    obs = encode(game.observe(0), game.config)
    assert field(obs, game.config, "score gaps")[1] == 1.0  # 60 / 24, clipped
