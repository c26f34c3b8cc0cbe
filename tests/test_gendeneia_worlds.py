"""Worlds a seat cannot tell apart (gendeneia_env.worlds): the view read back from the
observation vector, and sampled worlds that show the seat exactly its observation."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gendeneia_env.cards import suit, value
from gendeneia_env.encoding import action_mask, encode, observation_size
from gendeneia_env.game import GendeneiaConfig, GendeneiaGame
from gendeneia_env.worlds import sample_world, unseen_cards, view_from_observation

CONFIGS = [
    GendeneiaConfig(),
    GendeneiaConfig(num_players=4, presum="subtract", max_reshuffles=2),
    GendeneiaConfig(num_players=6, twist_any=(0, 11), twist_suit=(10, 6), twist_suit_rule="must"),
    GendeneiaConfig(num_players=2, discard_ends_turn=True, max_rounds=None, max_reshuffles=4),
    GendeneiaConfig(round_lots=True),
    GendeneiaConfig(num_players=4, round_lots=True, twist_any=(0,), twist_suit=(10,), max_rounds=6),
]


def states(config: GendeneiaConfig, games: int = 12):
    """Every decision point of a few random games: (game, the seat to act)."""
    for seed in range(games):
        game = GendeneiaGame(config, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            yield game, game.current
            game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize(
    "config", CONFIGS, ids=lambda c: f"{c.num_players}p" + ("-round-lots" if c.round_lots else "")
)
def test_a_sampled_world_shows_the_seat_exactly_its_observation(config):
    rng = random.Random(0)
    checked = 0
    for game, seat in states(config):
        obs = encode(game.observe(seat), config)
        view = view_from_observation(obs, config)
        world = sample_world(view, config, rng)
        assert np.array_equal(encode(world.observe(0), config), obs)
        assert sorted(world.card_locations()) == list(range(72))
        assert np.array_equal(action_mask(world), action_mask(game))  # ids are relative
        # The hidden cards are the true ones, placed elsewhere.
        true_hidden = sorted(c for s, h in enumerate(game.hands) if s != seat for c in h)
        true_hidden += [c for pile in game.piles.values() for c in pile.draw]
        world_hidden = [c for s, h in enumerate(world.hands) if s != 0 for c in h]
        world_hidden += [c for pile in world.piles.values() for c in pile.draw]
        assert sorted(world_hidden) == sorted(true_hidden)
        checked += 1
    assert checked > 100


def test_a_world_plays_to_the_end_and_its_seed_fixes_it():
    config = GendeneiaConfig(max_reshuffles=3)
    game = GendeneiaGame(config, seed=4)
    for _ in range(9):
        game.apply(game.legal_actions()[0])
    view = view_from_observation(encode(game.observe(game.current), config), config)
    worlds = [sample_world(view, config, random.Random(s)) for s in (7, 7, 8)]
    assert worlds[0].hands == worlds[1].hands and worlds[0].hands != worlds[2].hands
    for world in worlds:
        while not world.is_over:
            world.apply(world.legal_actions()[-1])
        assert sorted(world.card_locations()) == list(range(72))
    assert worlds[0].scores() == worlds[1].scores()


def test_every_other_seat_is_equally_likely_to_hold_an_unseen_card():
    config = GendeneiaConfig()
    game = GendeneiaGame(config, seed=2)
    view = view_from_observation(encode(game.observe(game.current), config), config)
    card = unseen_cards(view)[0][0]
    rng = random.Random(1)
    held = np.zeros(3)
    for _ in range(3000):
        world = sample_world(view, config, rng)
        for seat in (1, 2):
            held[seat] += card in world.hands[seat]
        held[0] += card in world.piles["choice"].draw
    share = held[1:] / 3000  # one card of the unseen Choices goes to each other seat
    expected = 1 / len(unseen_cards(view)[0])
    assert np.allclose(share, expected, atol=4 * np.sqrt(expected / 3000))


def test_bad_input_is_an_error_naming_it():
    config = GendeneiaConfig()
    with pytest.raises(ValueError, match="obs: not a 3-player Gendeneia observation"):
        view_from_observation(np.zeros(observation_size(config) + 1), config)
    with pytest.raises(ValueError, match="obs: not a 3-player round_lots Gendeneia observation"):
        view_from_observation(np.zeros(10), GendeneiaConfig(round_lots=True))
    game = GendeneiaGame(config, seed=1)
    with pytest.raises(ValueError, match="view: its round_lots do not match"):
        GendeneiaGame.from_view(game.observe(0), GendeneiaConfig(round_lots=True), [], ([], []), 1)


def order_matters(game: GendeneiaGame) -> bool:
    """A temporary lot holds a Quill pair and a Wind pair of different strengths: merged in
    the wrong order, the stronger would trump the weaker."""
    for lot in game.temp_lots or ():
        quills = {value(f) for _, f in lot if suit(f) == "Q"}
        winds = {value(f) for _, f in lot if suit(f) == "W"}
        if quills and winds and quills | winds != quills & winds:
            return True
    return False


@pytest.mark.parametrize("config", [c for c in CONFIGS if c.round_lots], ids=["3p", "4p-twists"])
def test_a_world_with_the_true_hidden_cards_plays_on_exactly_as_the_game(config):
    """Under round_lots the view does not show the order of the round's pairs; the world's
    merge order (strongest Force first) must give what the real order gives. Checked where
    the order matters: a temporary lot holding a Quill pair and a Wind pair."""
    checked = 0
    for seed in range(400):
        game, rng = GendeneiaGame(config, seed=seed), random.Random(seed)
        while not game.is_over and not order_matters(game):
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            continue
        seat = game.current
        real = game.clone(seed=seed)
        hands = [None if s == seat else tuple(h) for s, h in enumerate(game.hands)]
        draws = (list(game.piles["choice"].draw), list(game.piles["force"].draw))
        world = GendeneiaGame.from_view(game.observe(seat), config, hands, draws, seed=seed)
        while not real.is_over:
            for s in range(config.num_players):  # a lot's pairs in any order
                seen = encode(world.observe(s), config)
                assert np.array_equal(seen, encode(real.observe(s), config))
            action = rng.choice(real.legal_actions())
            real.apply(action)
            world.apply(action)
        assert world.scores() == real.scores() and world.end_reason == real.end_reason
        checked += 1
        if checked == 12:
            return
    raise AssertionError(f"only {checked} positions where the merge order matters")
