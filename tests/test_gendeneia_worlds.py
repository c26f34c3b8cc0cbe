"""Worlds a seat cannot tell apart (gendeneia_env.worlds): the view read back from the
observation vector, and sampled worlds that show the seat exactly its observation."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gendeneia_env.encoding import action_mask, encode, observation_size
from gendeneia_env.game import GendeneiaConfig, GendeneiaGame
from gendeneia_env.worlds import sample_world, unseen_cards, view_from_observation

CONFIGS = [
    GendeneiaConfig(),
    GendeneiaConfig(num_players=4, presum="subtract", max_reshuffles=2),
    GendeneiaConfig(num_players=6, twist_any=(0, 11), twist_suit=(10, 6), twist_suit_rule="must"),
    GendeneiaConfig(num_players=2, discard_ends_turn=True, max_rounds=None, max_reshuffles=4),
]


def states(config: GendeneiaConfig, games: int = 12):
    """Every decision point of a few random games: (game, the seat to act)."""
    for seed in range(games):
        game = GendeneiaGame(config, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            yield game, game.current
            game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.num_players}p")
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
    with pytest.raises(ValueError, match="round_lots: an observation does not show"):
        view_from_observation(np.zeros(10), GendeneiaConfig(round_lots=True))
