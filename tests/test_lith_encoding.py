"""The observation vector and action ids of Lith, field by field (docs/lith_env.md)."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lith_env.cards import card_id
from lith_env.encoding import (
    PHASES,
    action_from_id,
    action_mask,
    action_names,
    encode,
    hand_features,
    layout,
    observation_size,
)
from lith_env.game import LithConfig, LithHand
from lith_env.hands import CATEGORIES, classify, percentile
from lith_env.incremental import IncrementalEncoder
from lith_env.table import LithTable
from tests.lith_helpers import (
    CALL,
    CHECK,
    KEEP,
    bet,
    discard,
    lith_configs,
    play,
    raise_to,
    stacked_hand,
)

HANDS = {
    0: ["The Pact", "The Diplomat", "The Mountain"],
    1: ["The Forest", "The Sailor", "The Savage"],
    2: ["The Cave", "The Lunatic", "Ace of Moons"],
}


def field(obs, n, name):
    start, size = layout(n)[name]
    return obs[start : start + size]


def table(n=3, then=(), **config):
    config = LithConfig(num_players=n, **config)
    return stacked_hand(config, [100] * n, dealer=n - 1, hands=HANDS, then=then)


def test_layout_covers_the_vector_without_gaps():
    for n in range(2, 11):
        where = layout(n)
        spans = sorted(v for k, v in where.items() if k != "size")
        position = 0
        for start, size in spans:
            assert start == position
            position += size
        assert position == where["size"][0] == observation_size(LithConfig(num_players=n))


def test_own_cards_category_and_percentile():
    hand = table()
    obs = encode(hand.observe(0), hand.config)
    own = field(obs, 3, "own cards")
    assert sorted(np.flatnonzero(own)) == sorted(card_id(c) for c in HANDS[0])
    features = field(obs, 3, "hand")
    assert (
        CATEGORIES[int(np.argmax(features[:24]))]
        == classify(HANDS[0]).category
        == "Pure Twin Flush"
    )
    assert features[24 + 1] == 1  # fortune
    ids = [card_id(c) for c in HANDS[0]]
    assert features[-1] == pytest.approx(percentile([ids])[0])


def test_demon_averages_both_readings():
    features = hand_features(
        tuple(card_id(c) for c in ["The Excuse", "The Pact", "The Diplomat"]),
        LithConfig(excuse="demon"),
    )
    assert features[:24].sum() == pytest.approx(1.0)
    assert sorted(features[:24][features[:24] > 0]) == [0.5, 0.5]


def test_phase_chips_and_seats_from_my_seat():
    hand = table()
    play(hand, bet(2))  # seat 0 bets; seat 1 to act
    obs = encode(hand.observe(1), hand.config)
    assert PHASES[int(np.argmax(field(obs, 3, "phase")))] == "bet 1"
    total = 300.0
    pot, to_call, highest, low, high = field(obs, 3, "chips")
    assert (pot, to_call, highest) == pytest.approx((5 / total, 2 / total, 2 / total))
    assert (low, high) == pytest.approx((4 / total, 4 / total))  # my raise-to range (limit)
    seats = field(obs, 3, "seats").reshape(3, 9)
    # rows: me (seat 1), seat 2 (the dealer), seat 0
    assert seats[0, 8] == 1 and seats[1, 7] == 1  # I act; the next seat deals
    assert seats[2, 1] == pytest.approx(2 / total)  # seat 0's bet
    assert seats[0, 0] == pytest.approx(99 / total)
    other_view = encode(hand.observe(2), hand.config)
    assert field(other_view, 3, "chips")[3:].tolist() == [0, 0]  # not my turn: no range


def test_betting_history_and_exchange_fields():
    hand = table(then=["The Sea"])
    play(hand, bet(2), raise_to(4), CALL, CALL)  # seats 0, 1, 2, 0
    history = field(encode(hand.observe(0), hand.config), 3, "history").reshape(3, 3, 5)
    assert history[0, 0].tolist() == pytest.approx([0, 0.25, 0.25, 0, 4 / 300])  # me: bet, call
    assert history[0, 1].tolist() == pytest.approx([0, 0, 0.25, 0, 4 / 300])  # seat 1 raised
    assert field(encode(hand.observe(0), hand.config), 3, "raises")[0] == 0.5
    play(hand, discard("The Pact"), KEEP, discard("The Cave"))  # seats 0, 1, 2
    obs = encode(hand.observe(0), hand.config)
    flags = field(obs, 3, "exchange 1 seats").reshape(3, 4)
    assert flags[0].tolist() == [1, 0, 1, 0]  # I discarded and drew (seat 1 kept)
    assert flags[1].tolist() == [0, 1, 0, 0]
    assert flags[2].tolist() == [1, 0, 0, 1]  # seat 2 took my discard
    assert np.flatnonzero(field(obs, 3, "exchange 1 gave")).tolist() == [card_id("The Pact")]
    assert np.flatnonzero(field(obs, 3, "exchange 1 taken by")).tolist() == [2]  # 2 seats on
    assert np.flatnonzero(field(obs, 3, "exchange 1 got")).tolist() == [card_id("The Sea")]
    assert field(obs, 3, "exchange 1 got from").tolist() == [1, 0]  # from the deck


@pytest.mark.parametrize("chips", [97, 7_000_001])  # the second: past float32's integers
def test_history_is_the_float32_product_of_counts_and_scales(chips):
    """The history block is float32(count) * float32(scale), capped at 1, in seat order from
    me, whichever way encode computes it (plain Python below 2**24 chips, numpy above)."""
    config = LithConfig(num_players=3, betting="no-limit", starting_chips=chips)
    rng = np.random.default_rng(1)
    hand = LithHand(config, config.stacks, 0, list(config.deck))
    n, width = 3, 5
    scale = np.array([1.0, 0.25, 0.25, 1.0, 1.0 / config.total_chips], dtype=np.float32)
    while not hand.is_over:
        for me in range(n):
            view = hand.observe(me)
            counts = np.array(view.betting, dtype=np.float32).reshape(3, n, width)
            rotated = np.roll(counts, -me, axis=1)  # seat order from me
            want = np.minimum(rotated * scale, np.float32(1.0)).ravel()
            obs = encode(view, config)
            assert field(obs, n, "history").tolist() == want.tolist()
            raises = np.minimum(0.25 * counts[:, :, 2].sum(axis=1), 1.0).astype(np.float32)
            assert field(obs, n, "raises").tolist() == raises.tolist()
        hand.apply(action_from_id(hand, int(rng.choice(np.flatnonzero(action_mask(hand))))))


def test_vector_never_shows_another_seats_hidden_cards():
    config = LithConfig(num_players=3)
    a = table()
    twin = stacked_hand(
        config, [100] * 3, dealer=2, hands={**HANDS, 2: ["The End", "The Market", "The Origin"]}
    )
    for step in (CHECK, CHECK, CHECK, KEEP, KEEP, KEEP, bet(2), CALL, CALL):
        assert np.array_equal(encode(a.observe(0), config), encode(twin.observe(0), config))
        a.apply(step)
        twin.apply(step)
    assert not np.array_equal(encode(a.observe(2), config), encode(twin.observe(2), config))


def test_every_entry_in_the_unit_interval_under_random_play():
    rng = np.random.default_rng(0)
    for n, betting in [(2, "no-limit"), (6, "pot-limit"), (10, "limit")]:
        config = LithConfig(num_players=n, betting=betting, starting_chips=30)
        hand = LithHand(config, config.stacks, 0, list(config.deck))
        while not hand.is_over:
            for seat in range(n):
                obs = encode(hand.observe(seat), config)
                assert obs.dtype == np.float32 and obs.min() >= 0 and obs.max() <= 1
            mask = action_mask(hand)
            hand.apply(action_from_id(hand, int(rng.choice(np.flatnonzero(mask)))))


def test_raise_menu_sizes_in_no_limit():
    hand = table(betting="no-limit")
    names = action_names(hand.config)
    amounts = {names[i]: action_from_id(hand, i).amount for i in range(2, 6)}
    # pot 3 after antes, nothing to call: min bet 2, half pot 1 -> 2, pot 3, all-in 99
    assert amounts == {
        "bet/raise min": 2,
        "bet/raise half pot": 2,
        "bet/raise pot": 3,
        "bet/raise max": 99,
    }


def test_discard_ids_follow_own_cards_sorted_by_id():
    hand = table()
    play(hand, CHECK, CHECK, CHECK)
    ids = sorted(card_id(c) for c in HANDS[0])
    assert [action_from_id(hand, 4 + k).card for k in range(3)] == ids


# ----------------------------------------------------------------------------- the live encoder

live_configs = lith_configs(
    starting_chips=st.sampled_from([3, 12, 100, 20_000_000]),  # the last: past 2**24 chips
    ante=st.integers(0, 2),
    max_hands=st.integers(1, 4),
)


@settings(max_examples=60, deadline=None)
@given(config=live_configs, seed=st.integers(0, 2**32), policy_seed=st.integers(0, 2**32))
def test_incremental_encoder_equals_encoding_the_view(config, seed, policy_seed):
    """The live encoder behind LithTable.encode gives every seat exactly encode(observe(seat))
    however many actions passed since it last looked (a random few seats after each action),
    through every hand of a match."""
    table = LithTable(config, episode="match")
    table.reset(seed)
    encoder = IncrementalEncoder(table.config)
    rng = random.Random(policy_seed)
    while True:
        hand = table.game.hand
        for seat in rng.sample(range(config.num_players), rng.randint(0, config.num_players)):
            want = encode(hand.observe(seat), table.config)
            assert encoder.encode(hand, seat).tolist() == want.tolist()
            assert table.encode(seat).tolist() == want.tolist()
        if table.is_over:
            break
        table.apply_id(rng.choice(np.flatnonzero(table.action_mask()).tolist()))


def test_table_encode_rejects_a_bad_seat():
    table = LithTable(LithConfig(num_players=3))
    table.reset(0)
    for seat in (3, -1, "0", 1.0):
        with pytest.raises(ValueError, match="seat: must be 0-2"):
            table.encode(seat)
