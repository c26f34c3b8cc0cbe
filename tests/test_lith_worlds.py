"""Worlds a Lith seat cannot tell apart (lith_env.worlds, LithHand.from_view): the view read
back from the observation vector, hands rebuilt mid-play from a view and the hidden cards,
and sampled worlds that show the seat exactly its observation and keep what it saw in the
exchanges."""

from __future__ import annotations

import copy
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lith_env import game as lith_game
from lith_env.encoding import action_from_id, encode, legal_mask, observation_size
from lith_env.game import LithConfig, LithHand
from lith_env.worlds import sample_world, view_from_observation
from tests.lith_helpers import lith_configs

CONFIGS = [
    LithConfig(),
    LithConfig(num_players=3, betting="no-limit", starting_chips=(12, 30, 7)),
    LithConfig(num_players=6, betting="pot-limit", excuse="demon", starting_chips=15),
    LithConfig(num_players=10, pawns_and_courts=False, excuse="beggar"),  # 6 cards left undealt
    LithConfig(num_players=4, rounds=2, betting="no-limit", ante=2, starting_chips=20),
    LithConfig(num_players=3, rounds=1, cards=range(12), starting_chips=(9, 4, 40)),
    LithConfig(num_players=2, betting="no-limit", max_raises=5, starting_chips=(60, 8)),
]
IDS = ["2p", "3p-nl-short", "6p-pl-demon", "10p-basic", "4p-2rounds", "3p-1round-cards", "2p-nl"]


def engine_copy(hand: LithHand) -> LithHand:
    """A deep copy that keeps the engine's shared actions (masks test them by identity)."""
    shared = (lith_game.FOLD, lith_game.CHECK, lith_game.CALL, lith_game.KEEP)
    return copy.deepcopy(hand, {id(a): a for a in (*shared, *lith_game.DISCARDS)})


def decisions(config: LithConfig, hands: int, seed: int = 0, folds: bool = True):
    """Every decision of a few hands of random legal play (never folding unless ``folds``):
    (hand, the seat to act)."""
    rng = random.Random(seed)
    for _ in range(hands):
        order = list(config.deck)
        rng.shuffle(order)
        dealers = [s for s, chips in enumerate(config.stacks) if chips > 0]
        hand = LithHand(config, config.stacks, rng.choice(dealers), order, rng.random() < 0.5)
        while not hand.is_over:
            yield hand, hand.current
            ids = np.flatnonzero(legal_mask(hand))
            if not folds and len(ids) > 1:
                ids = ids[ids != 0]
            hand.apply(action_from_id(hand, int(ids[rng.randrange(len(ids))])))


def same_play(one: LithHand, other: LithHand, rng: random.Random) -> None:
    """Play the same random ids on both to the end: the same masks all along, the same net."""
    while not one.is_over:
        mask = legal_mask(one)
        assert np.array_equal(mask, legal_mask(other))
        ids = np.flatnonzero(mask)
        chosen = int(ids[rng.randrange(len(ids))])
        one.apply(action_from_id(one, chosen))
        other.apply(action_from_id(other, chosen))
    assert other.is_over and one.net() == other.net() and one.pots == other.pots


def reopened_by_nothing(hand: LithHand, seat: int) -> bool:
    """Whether another seat still has to act but may not raise: an all-in raise for less
    put it back to act without reopening the betting, which no view shows."""
    return hand.phase == "bet" and any(
        s != seat and hand.can_bet(s) and not hand.acted[s] and not hand.open_to_raise[s]
        for s in range(hand.n)
    )


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_hand_rebuilt_from_a_view_and_the_hidden_cards_is_the_same_hand(config):
    rng = random.Random(1)
    checked = skipped = 0
    for hand, seat in decisions(config, hands=25):
        if reopened_by_nothing(hand, seat):
            skipped += 1
            continue
        rebuilt = LithHand.from_view(
            hand.observe(seat),
            config,
            hand.cards,
            hand.deck_remaining(),
            copy.deepcopy(hand.exchanges),
            hand.demon_heads,
        )
        for x in range(config.num_players):
            seen = encode(rebuilt.observe(x), config)
            assert np.array_equal(seen, encode(hand.observe(x), config))
        same_play(rebuilt, engine_copy(hand), rng)
        checked += 1
    assert checked > 60 and skipped < checked / 10  # short stacks: many all-ins


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_view_read_back_from_an_observation_is_the_seats_view_turned_to_it(config):
    n = config.num_players
    for hand, seat in decisions(config, hands=15):
        real = hand.observe(seat)
        view = view_from_observation(encode(real, config), config)

        def turned(values, seat=seat):
            return tuple(values[(seat + k) % n] for k in range(n))

        assert view.seat == 0 and view.cards == real.cards and view.actions == ()
        assert (view.phase, view.round) == (real.phase, real.round)
        assert view.dealer == (real.dealer - seat) % n
        assert view.current_player == 0 and view.raise_range == real.raise_range
        assert (view.pot, view.highest) == (real.pot, real.highest)
        for name in ("stacks", "bets", "committed", "folded", "dealt_in"):
            assert getattr(view, name) == turned(getattr(real, name)), name
        assert len(view.exchanges) == len(real.exchanges)
        for got, want in zip(view.exchanges, real.exchanges, strict=True):
            assert got.discarded == turned(want.discarded) and got.drew == turned(want.drew)
            assert (got.my_discard, got.received, got.resolved) == (
                want.my_discard,
                want.received,
                want.resolved,
            )
            pairs = ((got.taken_by, want.taken_by), (got.received_from, want.received_from))
            for mine, theirs in pairs:
                assert mine == (None if theirs is None else (theirs - seat) % n)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_sampled_world_shows_the_seat_exactly_its_observation(config):
    rng = random.Random(2)
    checked = 0
    for hand, seat in decisions(config, hands=25):
        obs = encode(hand.observe(seat), config)
        world = sample_world(view_from_observation(obs, config), config, rng)
        assert np.array_equal(encode(world.observe(0), config), obs)
        assert np.array_equal(legal_mask(world), legal_mask(hand))
        everything = [c for cards in world.cards for c in cards] + world.deck_remaining()
        assert sorted(everything) == config.deck_ids
        # The world's other seats see a coherent hand too: their observations encode.
        for x in range(config.num_players):
            encode(world.observe(x), config)
        same_play(world, engine_copy(world), rng)
        checked += 1
    assert checked > 60


def exchange_positions(config: LithConfig, seed: int):
    """Decisions after at least one exchange in which the seat to act discarded."""
    for hand, seat in decisions(config, hands=40, seed=seed, folds=False):
        if any(log.discards.get(seat) is not None for log in hand.exchanges[:1]) and (
            hand.round >= 1 and hand.phase == "bet"
        ):
            yield hand, seat


@pytest.mark.parametrize(
    "config",
    [CONFIGS[0], LithConfig(num_players=6, excuse="demon"), CONFIGS[3]],
    ids=["2p", "6p", "10p"],
)
def test_worlds_keep_what_the_seat_saw_in_the_exchanges(config):
    """The card the seat gave is in its taker's hand (until the taker discards again), the card
    it got came from its left neighbour or the deck, its card sent under sits at its place."""
    rng = random.Random(3)
    n, checked, under = config.num_players, 0, 0
    for hand, seat in exchange_positions(config, seed=4):
        obs = encode(hand.observe(seat), config)
        view = view_from_observation(obs, config)
        for _ in range(5):
            world = sample_world(view, config, rng)
            first = world.exchanges[0]
            given = first.discards[0]
            assert given == hand.exchanges[0].discards[seat]
            taker = first.taken_by[0]
            assert taker == (
                None
                if hand.exchanges[0].taken_by[seat] is None
                else (hand.exchanges[0].taken_by[seat] - seat) % n
            )
            card, source = first.received[0]
            assert card == hand.exchanges[0].received[seat][0]
            if source is not None:
                assert first.discards[source] == card
            if len(world.exchanges) == 1:  # nobody has exchanged again
                if taker is not None:
                    assert given in world.cards[taker]
                else:
                    place = first.to_bottom.index(given) - len(first.to_bottom)
                    assert world.deck_remaining()[place] == given
                    under += 1
            checked += 1
    assert checked > 40 and under > 0


def test_the_unseen_cards_are_spread_evenly_over_the_other_hands():
    config = LithConfig(num_players=3)
    hand = next(h for h, _ in decisions(config, hands=1))
    obs = encode(hand.observe(hand.current), config)
    view = view_from_observation(obs, config)
    rng = random.Random(5)
    where = Counter()
    worlds = 3000
    for _ in range(worlds):
        world = sample_world(view, config, rng)
        for seat in (1, 2):
            where.update((seat, c) for c in world.cards[seat])
    unseen = [c for c in config.deck if c not in view.cards]
    expected = worlds * 3 / len(unseen)
    for seat in (1, 2):
        counts = [where[(seat, c)] for c in unseen]
        # each count is binomial(3000, 3/41): sd about 14 around 220
        assert all(abs(k - expected) < 5 * np.sqrt(expected) for k in counts)


@given(config=lith_configs(max_hands=st.none()), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=25, deadline=None)
def test_any_table_any_point_gives_worlds_that_match(config, seed):
    rng = random.Random(seed)
    for hand, seat in decisions(config, hands=1, seed=seed):
        obs = encode(hand.observe(seat), config)
        world = sample_world(view_from_observation(obs, config), config, rng)
        assert np.array_equal(encode(world.observe(0), config), obs)


def test_bad_inputs_are_errors_naming_them():
    config = LithConfig()
    hand, seat = next(decisions(config, hands=1))
    view = hand.observe(seat)
    with pytest.raises(ValueError, match="obs: not a 2-player Lith observation"):
        view_from_observation(np.zeros(observation_size(LithConfig(num_players=3))), config)
    with pytest.raises(ValueError, match="obs: not a 2-player"):
        view_from_observation(np.zeros((2, observation_size(config))), config)
    deck = hand.deck_remaining()
    with pytest.raises(ValueError, match="cards: need three cards"):
        LithHand.from_view(view, config, [hand.cards[0], []], deck, [])
    other = hand.cards[1 - seat]
    with pytest.raises(ValueError, match=f"cards: seat {seat} holds"):
        swapped = [other, hand.cards[seat]] if seat == 0 else [hand.cards[seat], other]
        LithHand.from_view(view, config, swapped, deck, [])
    with pytest.raises(ValueError, match="cards, deck: must hold every card"):
        LithHand.from_view(view, config, hand.cards, deck[:-1], [])
    with pytest.raises(ValueError, match="view: a 2-player view for a 3-player table"):
        LithHand.from_view(view, LithConfig(num_players=3), hand.cards, deck, [])
