"""Gendeneía under random play (hypothesis): all 72 cards conserved at every step and at the
end (round lots merged), masks equal the engine's legal actions, zero-sum returns, determinism,
replay."""

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gendeneia_env.encoding import action_from_id, action_mask, encode
from gendeneia_env.game import GendeneiaConfig, GendeneiaGame, IllegalActionError
from gendeneia_env.history import game_record, replay_game
from gendeneia_env.scoring import score_player
from gendeneia_env.table import GendeneiaTable

configs = st.builds(
    GendeneiaConfig,
    num_players=st.integers(2, 6),
    max_rounds=st.sampled_from([None, 3, 12]),
    max_reshuffles=st.sampled_from([0, 1, 3]),
    discard_ends_turn=st.booleans(),
    presum=st.sampled_from([None, "ignore", "subtract"]),
    twist_any=st.sets(st.sampled_from([0, 11, 5])).map(tuple),
    twist_any_rule=st.sampled_from(["may", "must"]),
    twist_suit=st.sets(st.sampled_from([10, 6, 4, 2])).map(tuple),
    twist_suit_rule=st.sampled_from(["may", "must"]),
    round_lots=st.booleans(),
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(config=configs, seed=st.integers(0, 2**32), policy=st.integers(0, 2**32))
def test_random_play_conserves_every_card(config, seed, policy):
    game = GendeneiaGame(config, seed=seed)
    rng = random.Random(policy)
    steps = 0
    while not game.is_over:
        assert sorted(game.card_locations()) == list(range(72))
        mask = action_mask(game)
        for action_id in range(len(mask)):
            try:
                action = action_from_id(game, action_id)
            except IllegalActionError:
                assert not mask[action_id]
            else:
                assert mask[action_id] and action in game.legal_actions()
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
        assert steps < 20_000
    assert sorted(game.card_locations()) == list(range(72))
    replay_game(json.loads(json.dumps(game_record(game))))


@settings(max_examples=60, deadline=None)
@given(
    config=st.builds(
        GendeneiaConfig,
        num_players=st.integers(2, 6),
        max_rounds=st.sampled_from([None, None, 8]),
        max_reshuffles=st.integers(0, 3),
        discard_ends_turn=st.booleans(),
        twist_any=st.sets(st.sampled_from([0, 11, 5])).map(tuple),
        twist_suit=st.sets(st.sampled_from([10, 6, 4, 2])).map(tuple),
        round_lots=st.just(True),
    ),
    seed=st.integers(0, 2**32),
    policy=st.integers(0, 2**32),
)
def test_round_lots_games_end_with_every_card_in_a_lot_hand_or_pile(config, seed, policy):
    """However the game ends, mid-round included, the round's pairs are merged into the
    leader's lots: none is left on the temporary lots, unscored."""
    game = GendeneiaGame(config, seed=seed)
    rng = random.Random(policy)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.temp_lots == [[], [], []]
    cards = [c for seat_lots in game.lots for lot in seat_lots for pair in lot for c in pair]
    cards += [c for hand in game.hands for c in hand if c is not None]
    cards += [c for pile in game.piles.values() for c in pile.draw + pile.discard]
    assert sorted(cards) == list(range(72))
    for seat in range(config.num_players):
        assert game.scores()[seat] == score_player(game.written_lots(seat), config.presum)


@settings(max_examples=25, deadline=None)
@given(config=configs, seed=st.integers(0, 2**32))
def test_returns_are_zero_sum_and_observations_bounded(config, seed):
    for reward in ("final", "shaped", "shaped_win"):
        table = GendeneiaTable(config, reward=reward)
        table.reset(seed)
        rng = np.random.default_rng(0)
        while not table.is_over:
            assert abs(table.returns().sum()) < 1e-9
            seat = table.current_player
            obs = table.encode(seat)
            assert obs.min() >= table.observation_low and obs.max() <= 1
            table.apply_id(int(rng.choice(np.flatnonzero(table.action_mask()))))
        assert abs(table.returns().sum()) < 1e-9


def run(config, seed, policy):
    game = GendeneiaGame(config, seed=seed)
    rng = random.Random(policy)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game_record(game)


def deal(config, seed):
    """The seats' hands and the draw piles as ``seed`` deals them."""
    game = GendeneiaGame(config, seed=seed)
    return game.hands, {kind: list(pile.draw) for kind, pile in game.piles.items()}


def without_seed(record):
    """A record less its seed field, which alone would tell two seeds' games apart."""
    return {key: value for key, value in record.items() if key != "seed"}


@settings(max_examples=15, deadline=None)
@given(config=configs, seed=st.integers(0, 2**32))
def test_same_seed_same_game(config, seed):
    first = run(config, seed, 1)
    assert first == run(config, seed, 1)
    assert deal(config, seed) == deal(config, seed)
    # another seed, the same random player: another deal of the 72 cards, another game
    assert deal(config, seed + 1) != deal(config, seed)
    assert without_seed(run(config, seed + 1, 1)) != without_seed(first)


def test_other_seats_hands_stay_hidden():
    config = GendeneiaConfig(num_players=3)
    a = GendeneiaGame(config, seed=4, first_player=0)
    b = GendeneiaGame(config, seed=4, first_player=0)
    # Swap seat 2's hand with two cards deep in the draw piles: seat 0 must not see it.
    for kind, slot in (("choice", 0), ("force", 1)):
        pile = b.piles[kind].draw
        b.hands[2][slot], pile[0] = pile[0], b.hands[2][slot]
    assert encode(a.observe(0), config).tolist() == encode(b.observe(0), config).tolist()
    assert encode(a.observe(2), config).tolist() != encode(b.observe(2), config).tolist()


def _snapshot(game: GendeneiaGame) -> tuple:
    """Everything a game shows any seat, and how it ends."""
    seats = range(game.config.num_players)
    return (
        tuple(game.observe(s) for s in seats), game.scores(), game.end_reason,
        game.is_over, tuple(game.legal_actions()) if not game.is_over else (),
    )  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(
    config=configs,
    seed=st.integers(0, 2**32),
    policy=st.integers(0, 2**32),
    split=st.integers(0, 200),
)
def test_a_clone_plays_on_exactly_as_its_original(config, seed, policy, split):
    """Cloned at any point, a game and its clone given the same actions stay equal in every
    seat's view, score and ending (reshuffles too: the clone's generator continues the
    original's), and playing one leaves the other untouched."""
    game = GendeneiaGame(config, seed=seed)
    rng = random.Random(policy)
    for _ in range(split):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    clone = game.clone()
    before = _snapshot(game)
    assert _snapshot(clone) == before
    moves = random.Random(policy + 1)
    while not clone.is_over:  # the clone alone first: the original must not move
        clone.apply(moves.choice(clone.legal_actions()))
        assert sorted(clone.card_locations()) == list(range(72))
    assert _snapshot(game) == before
    moves = random.Random(policy + 1)
    twin = game.clone()
    while not game.is_over:
        action = moves.choice(game.legal_actions())
        game.apply(action)
        twin.apply(action)
        assert _snapshot(twin) == _snapshot(game)
    assert _snapshot(game) == _snapshot(clone) and game.actions == clone.actions
    replay_game(json.loads(json.dumps(game_record(clone))))


def test_a_clone_with_a_seed_reshuffles_its_own_way():
    config = GendeneiaConfig(num_players=3, max_reshuffles=3)
    game = GendeneiaGame(config, seed=5)
    worlds = [game.clone(seed=s) for s in (1, 1, 2)]
    orders = []
    for world in worlds:
        while world.reshuffles == 0 and not world.is_over:
            world.apply(world.legal_actions()[-1])
        assert world.reshuffles >= 1
        orders.append([list(pile.draw) for pile in world.piles.values()])
    assert orders[0] == orders[1] and orders[0] != orders[2]  # a seed, its own reshuffle
    with pytest.raises(ValueError, match="seed: must be None or an integer, got 'x'"):
        game.clone(seed="x")
