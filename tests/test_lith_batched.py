"""The batched Lith engine against the reference engine, hand for hand and entry for entry."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lith_env.batched import BatchedLith, award_showdowns
from lith_env.encoding import layout
from lith_env.game import LithConfig
from lith_env.pots import award_pots, side_pots
from lith_env.table import LithTable
from tablegame.engine import IllegalActionError
from tests.lith_helpers import stacked_hand

CONFIGS = [
    {"num_players": 2},
    {"num_players": 2, "betting": "no-limit", "starting_chips": 20},
    {"num_players": 3, "betting": "pot-limit", "excuse": "beggar"},
    {"num_players": 4, "excuse": "demon", "ante": 2, "bet_sizes": (1, 3, 5), "max_raises": 1},
    {"num_players": 5, "betting": "no-limit", "starting_chips": (5, 10, 20, 30, 3)},
    {"num_players": 6, "pawns_and_courts": False, "excuse": "imposter"},
    {"num_players": 7, "betting": "pot-limit", "starting_chips": 12, "ante": 0},
    {"num_players": 8, "excuse": "demon", "betting": "no-limit"},
    {"num_players": 9, "pawns_and_courts": False, "starting_chips": 30},
    {"num_players": 10, "betting": "limit", "starting_chips": 15},
]


def differential(config, episode, tables, hands, seed):
    """Drive the batched engine and one reference table per row with the same seeds and the
    same random legal actions; compare everything each seat sees at every step. Returns the
    number of hands played."""
    engine = BatchedLith(config, tables, episode=episode, decks="reference")
    reference = [LithTable(config, episode=episode) for _ in range(tables)]
    rng = np.random.default_rng(seed)
    next_seed = iter(range(seed * 10**6, seed * 10**6 + 10**6))
    rows = np.arange(tables)

    def restart(rows):
        seeds = [next(next_seed) for _ in rows]
        for t, s in zip(rows, seeds, strict=True):
            reference[t].game.reset(s, first_dealer=None)
        engine.reset(np.array(seeds, dtype=object), tables=rows)

    restart(rows)
    played = 0
    n = config.num_players
    while played < hands:
        for seat in range(n):
            got = engine.encode(np.full(tables, seat))
            for t, table in enumerate(reference):
                want = table.encode(seat)
                if not np.array_equal(want, got[t]):
                    bad = np.flatnonzero(want != got[t])
                    fields = {f for i in bad for f, (a, z) in layout(n).items() if a <= i < a + z}
                    raise AssertionError(f"table {t} seat {seat}: observation differs in {fields}")
        masks = engine.action_masks()
        for t, table in enumerate(reference):
            assert engine.current[t] == (-1 if table.is_over else table.current_player)
            np.testing.assert_array_equal(masks[t], table.action_mask(), err_msg=f"table {t}")
        np.testing.assert_array_equal(engine.returns(), [t.returns() for t in reference])
        actions = np.zeros(tables, dtype=np.int64)
        for t, table in enumerate(reference):
            actions[t] = rng.choice(np.flatnonzero(masks[t]))
            table.apply_id(int(actions[t]))
        before = engine.hands_played.sum()
        engine.step(actions)
        played += int(engine.hands_played.sum() - before)
        np.testing.assert_array_equal(engine.stacks, [t.game.hand.stacks for t in reference])
        over = np.flatnonzero(engine.match_over)
        assert all(reference[t].is_over for t in over)
        if len(over):
            restart(over)
    return played


@pytest.mark.slow
@pytest.mark.parametrize("rules", CONFIGS, ids=lambda r: "-".join(f"{v}" for v in r.values()))
def test_batched_engine_equals_the_reference_hand_by_hand(rules):
    config = LithConfig(**rules)
    played = differential(config, "hand", tables=24, hands=240, seed=1)
    assert played >= 240


@pytest.mark.slow
@pytest.mark.parametrize("rules", CONFIGS[::3], ids=lambda r: f"{r['num_players']}p")
def test_batched_engine_equals_the_reference_over_matches(rules):
    """Matches: stacks carried over, the deal passing left, bust-outs, match ends."""
    config = dataclasses.replace(LithConfig(**rules), max_hands=30)
    assert differential(config, "match", tables=8, hands=150, seed=2) >= 150


# Fewer betting rounds and a subset of the deck (``rounds``, ``cards``): the smallest decks
# the rules allow for the table, and the Excuse among the cards.
SMALL_GAMES = {
    "2p-1-round": {"num_players": 2, "rounds": 1},
    "2p-2-rounds-no-limit": {
        "num_players": 2,
        "rounds": 2,
        "betting": "no-limit",
        "starting_chips": 15,
    },
    "4p-2-rounds-demon": {"num_players": 4, "rounds": 2, "excuse": "demon", "ante": 2},
    "2p-9-cards": {"num_players": 2, "cards": (0, 6, 9, 13, 18, 24, 31, 37, 43)},
    "2p-8-cards-pot-limit": {
        "num_players": 2,
        "betting": "pot-limit",
        "starting_chips": 12,
        "cards": (1, 2, 7, 8, 12, 20, 33, 40),
    },
    "3p-12-cards": {"num_players": 3, "cards": tuple(range(0, 36, 3))},
    "3p-11-cards-excuse-2-rounds": {
        "num_players": 3,
        "rounds": 2,
        "excuse": "imposter",
        "cards": (3, 5, 10, 14, 19, 22, 27, 32, 36, 41, 44),
    },
    "5p-1-round-basic-15-cards": {
        "num_players": 5,
        "rounds": 1,
        "pawns_and_courts": False,
        "cards": (0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 38, 42),
    },
}


@pytest.mark.parametrize("seed", [3, 4, 5])
@pytest.mark.parametrize("rules", SMALL_GAMES.values(), ids=SMALL_GAMES.keys())
def test_batched_engine_equals_the_reference_in_small_games(rules, seed):
    """``rounds`` and ``cards``, hand by hand under random play, several seeds."""
    config = LithConfig(**rules)
    assert differential(config, "hand", tables=12, hands=80, seed=seed) >= 80


@pytest.mark.parametrize("name", ["2p-1-round", "2p-9-cards", "3p-11-cards-excuse-2-rounds"])
def test_batched_engine_equals_the_reference_over_small_matches(name):
    config = dataclasses.replace(LithConfig(**SMALL_GAMES[name]), max_hands=20)
    assert differential(config, "match", tables=6, hands=80, seed=6) >= 80


def test_batched_engine_equals_the_reference_when_one_round_hands_have_no_decision():
    """One round and short stacks: a seat left with the ante alone is all-in from the deal, and
    with nobody else to bet against the hand goes straight to the showdown and the next deal."""
    config = LithConfig(
        num_players=3, rounds=1, betting="no-limit", starting_chips=(2, 3, 9), cards=range(9)
    )
    assert differential(config, "match", tables=16, hands=150, seed=7) >= 150


# ----------------------------------------------------------------------------- side pots


@settings(max_examples=300, deadline=None)
@given(
    st.integers(2, 10).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 40), min_size=n, max_size=n),
            st.lists(st.booleans(), min_size=n, max_size=n),
            st.lists(st.integers(0, 3), min_size=n, max_size=n),  # few values: many ties
            st.integers(0, n - 1),
        )
    )
)
def test_side_pots_splits_and_odd_chips_equal_the_reference(case):
    committed, live, strength, dealer = case
    if not any(live) or not any(c > 0 for c, in_ in zip(committed, live, strict=True) if in_):
        return  # the reference needs a live seat with chips in
    folded = [not x for x in live]
    pots = side_pots(committed, folded)
    want, _ = award_pots(
        pots, [s if x else None for s, x in zip(strength, live, strict=True)], dealer
    )
    got = award_showdowns(
        np.array([committed]), np.array([live]), np.array([strength]), np.array([dealer])
    )[0]
    assert got.tolist() == want
    assert got.sum() == sum(committed)


# ----------------------------------------------------------------------------- the beggar


@pytest.mark.parametrize(
    ("excuse", "heads", "winner"),
    [("beggar", False, 1), ("demon", False, 1), ("demon", True, 0), ("imposter", True, 0)],
)
def test_beggar_showdown_follows_the_weakest_completion(excuse, heads, winner):
    """The Excuse as the beggar with The Bard and The End ranks just below their weakest
    completion, a Pair: a Kindred beats it (the demon's tails side too)."""
    config = LithConfig(num_players=2, excuse=excuse)
    hands = {
        0: ["The Excuse", "The Bard", "The End"],
        1: ["The Author", "The Lunatic", "The Merchant"],
    }
    order = stacked_hand(config, [100, 100], dealer=1, hands=hands).deck_order
    engine = BatchedLith(config, 1, episode="hand")
    engine.reset_to_decks(np.array([order]), np.array([1]), np.array([heads]))
    while not engine.match_over[0]:
        betting = engine.action_masks()[0, engine.keep_id] == 0
        engine.step(np.array([1 if betting else engine.keep_id]))  # check, or keep
    assert engine.returns()[0].tolist() == ([1, -1] if winner == 0 else [-1, 1])


# ----------------------------------------------------------------------------- bad input


def test_illegal_action_names_the_table_and_changes_nothing():
    engine = BatchedLith(LithConfig(num_players=3), 4)
    engine.reset(7)
    state = {  # every array but the cache of masks (filled by the step's own check)
        k: v.copy() for k, v in vars(engine).items() if isinstance(v, np.ndarray) and k != "_masks"
    }
    actions = np.ones(4, dtype=np.int64)
    actions[2] = engine.keep_id  # keep is not legal in a betting round
    with pytest.raises(IllegalActionError, match=r"tables 2: id 3, legal ids \[1, 2\]"):
        engine.step(actions)
    for name, value in state.items():
        np.testing.assert_array_equal(getattr(engine, name), value, err_msg=name)
    with pytest.raises(ValueError, match="actions: need shape"):
        engine.step(np.ones(3, dtype=np.int64))
    for ids in (np.full(4, 1.0), np.full(4, 1.7), np.ones(4, dtype=bool)):
        with pytest.raises(IllegalActionError, match="actions: must be integer action ids"):
            engine.step(ids)
    for name, value in state.items():
        np.testing.assert_array_equal(getattr(engine, name), value, err_msg=name)
    engine.step(np.ones(4, dtype=np.uint8))  # any integer dtype: check or call everywhere


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"episode": "season"}, "episode"),
        ({"decks": "marked"}, "decks"),
        ({"num_tables": 0}, "num_tables"),
    ],
)
def test_bad_engine_options(kwargs, message):
    options = {"num_tables": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        BatchedLith(LithConfig(), **options)


def test_numpy_decks_are_seeded():
    def play(seed):
        engine = BatchedLith(LithConfig(num_players=4), 16, episode="match")
        engine.reset(seed)
        rng = np.random.default_rng(0)
        for _ in range(60):
            masks = engine.action_masks()
            engine.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
        return engine.stacks.copy(), engine.cards.copy()

    a, b, c = play(5), play(5), play(6)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[1], c[1])


@pytest.mark.parametrize(("players", "pawns_and_courts"), [(2, True), (4, False), (10, True)])
def test_numpy_decks_deal_distinct_cards_uniformly(players, pawns_and_courts):
    """The numpy decks' top cards (a shuffle stopped after the places a hand can read) are
    distinct cards of the deck, each place uniform over the deck: per place, a chi-square
    test of the card counts over 30,000 deals."""
    from lith_env.batched import NumpyDecks

    config = LithConfig(num_players=players, pawns_and_courts=pawns_and_courts)
    size = len(config.deck)
    cards = min(5 * players, size)
    source = NumpyDecks(config, 30_000, None, cards=cards)
    source.start(np.arange(30_000), 1)
    orders, demons = source.deal(np.arange(30_000))
    top = orders[:, :cards].astype(np.int64)
    assert (np.sort(orders, axis=1) == np.array(config.deck)).all()  # each deck whole
    assert 0.48 < demons.mean() < 0.52
    expected = 30_000 / size
    ids = np.array(config.deck)
    for place in range(cards):
        counts = (top[:, place][:, None] == ids[None, :]).sum(axis=0)
        chi2 = ((counts - expected) ** 2 / expected).sum()
        # size - 1 degrees of freedom (35 or 44): far below this bound unless biased
        assert chi2 < 2.0 * size, (place, chi2)
