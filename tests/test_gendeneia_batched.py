"""The batched Gendeneía engine against the reference engine, action by action.

Every table of a :class:`BatchedGendeneia` is played beside a :class:`GendeneiaGame` with the
same seed and the same (random legal) actions; after every action the whole state (hands,
lots in play order, draw and discard piles in order, turn, phase, removal owed, counts, end),
the legal-action mask and every seat's observation must be equal. Its Mersenne Twister is
checked against ``random.Random`` on its own.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

from gendeneia_env import encoding, mersenne
from gendeneia_env.batched import BatchedGendeneia
from gendeneia_env.game import GendeneiaConfig, GendeneiaGame, IllegalActionError

CONFIGS = {
    "defaults": GendeneiaConfig(),
    "2p": GendeneiaConfig(num_players=2),
    "6p long": GendeneiaConfig(num_players=6, max_rounds=30),
    "reshuffles": GendeneiaConfig(max_rounds=None, max_reshuffles=3),
    "no reshuffle": GendeneiaConfig(max_rounds=None, max_reshuffles=0),
    "both ends": GendeneiaConfig(num_players=4, max_rounds=25, max_reshuffles=2),
    "discard ends turn": GendeneiaConfig(discard_ends_turn=True, max_rounds=20),
    "ignore": GendeneiaConfig(presum="ignore", twist_any=(0, 11, 5)),
    "subtract": GendeneiaConfig(presum="subtract", twist_suit=(10, 6, 4, 2)),
    "twists may": GendeneiaConfig(twist_any=(0, 11, 5), twist_suit=(10, 6, 4, 2), max_rounds=25),
    "twists must": GendeneiaConfig(
        num_players=4,
        twist_any=(0, 5),
        twist_any_rule="must",
        twist_suit=(10, 2),
        twist_suit_rule="must",
        max_rounds=30,
    ),
    "round lots": GendeneiaConfig(round_lots=True, max_rounds=20),
    "round lots, twists": GendeneiaConfig(
        num_players=5,
        round_lots=True,
        twist_any=(0, 11, 5),
        twist_suit=(10, 6),
        twist_suit_rule="must",
        presum="subtract",
        max_rounds=None,
        max_reshuffles=4,
    ),
}


def reference_state(game: GendeneiaGame) -> dict:
    return {
        "hands": [list(hand) for hand in game.hands],
        "lots": [[list(lot) for lot in lots] for lots in game.lots],
        "temp_lots": None if game.temp_lots is None else [list(t) for t in game.temp_lots],
        "draw": [game.piles[k].draw for k in ("choice", "force")],
        "discard": [game.piles[k].discard for k in ("choice", "force")],
        "phase": game.phase,
        "current": game.current,
        "opener": game.opener,
        "round": game.round,
        "turns_in_round": game.turns_in_round,
        "reshuffles": game.reshuffles,
        "pending": game.pending,
        "end_reason": game.end_reason,
    }


def play_both(config: GendeneiaConfig, tables: int, seed: int) -> int:
    """Random legal games at ``tables`` tables on both engines; returns the actions checked."""
    engine = BatchedGendeneia(config, tables)
    rng = np.random.default_rng(seed)
    seeds = [int(s) for s in rng.integers(0, 2**63, size=tables)]
    firsts = [None if t % 2 else t % config.num_players for t in range(tables)]
    games = []
    for t in range(tables):
        engine.reset([seeds[t]], tables=[t], first_player=firsts[t])
        games.append(GendeneiaGame(config, seed=seeds[t], first_player=firsts[t]))
    checked = 0
    all_seats = np.arange(config.num_players)
    while True:
        live = np.flatnonzero(~engine.match_over)
        for t in range(tables):
            assert engine.table_state(t) == reference_state(games[t]), t
            observations = engine.encode(all_seats, np.full(config.num_players, t))
            for seat in all_seats:
                expected = encoding.encode(games[t].observe(int(seat)), config)
                np.testing.assert_array_equal(observations[seat], expected)
        if not len(live):
            break
        masks = engine.action_masks(live)
        actions = np.full(tables, -1, dtype=np.int64)  # finished tables' entries are ignored
        for i, t in enumerate(live):
            np.testing.assert_array_equal(masks[i], encoding.action_mask(games[t]))
            actions[t] = rng.choice(np.flatnonzero(masks[i]))
            games[t].apply(encoding.action_from_id(games[t], int(actions[t])))
            checked += 1
        engine.step(actions, tables=live if checked % 2 else None)
    np.testing.assert_array_equal(engine.scores(), [g.scores() for g in games])
    np.testing.assert_array_equal(engine.win_shares(), [g.win_shares() for g in games])
    return checked


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_table_plays_the_reference_game(name):
    assert play_both(CONFIGS[name], tables=12, seed=len(name)) > 200


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_many_more_games(name):
    assert play_both(CONFIGS[name], tables=64, seed=1000 + len(name)) > 1000


def test_many_rows_are_encoded_on_threads_as_few_are_on_one():
    """``encode`` shares big batches among numba's threads: the same observations."""
    from gendeneia_env import batched_rules

    config = CONFIGS["twists may"]
    engine = BatchedGendeneia(config, 700)
    engine.reset(np.arange(700))
    rng = np.random.default_rng(5)
    for _ in range(40):
        masks = engine.action_masks()
        engine.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks]))
    seats = rng.integers(0, 3, size=700)
    threaded = engine.encode(seats)  # 700 rows: above the threshold
    assert len(seats) >= batched_rules.PARALLEL_ROWS
    one_by_one = np.concatenate(
        [engine.encode(seats[i : i + 100], np.arange(i, i + 100)) for i in range(0, 700, 100)]
    )
    np.testing.assert_array_equal(threaded, one_by_one)


def test_the_variants_happen():
    """The games above reach what they are meant to check: reshuffles, trumping, removals
    of either rule, merges and every end."""
    config = CONFIGS["round lots, twists"]
    engine = BatchedGendeneia(config, 200)
    engine.reset(np.arange(200))
    rng = np.random.default_rng(0)
    removals = passes = 0
    while not engine.match_over.all():
        live = np.flatnonzero(~engine.match_over)
        masks = engine.action_masks(live)
        ids = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        removals += int(((ids >= 2 + config.num_players) & (ids < 38 + config.num_players)).sum())
        passes += int((ids == 38 + config.num_players).sum())
        actions = np.zeros(200, dtype=np.int64)
        actions[live] = ids
        engine.step(actions)
    assert removals > 50 and passes > 50
    reasons = {engine.end_reason(t) for t in range(200)}
    assert "4 reshuffle(s)" in reasons


# ---------------------------------------------------------------------- the generator


@njit
def _randbelows(mt, position, bounds, out):
    for i in range(len(bounds)):
        out[i] = mersenne.randbelow(mt, position, 0, bounds[i])


@njit
def _shuffle(mt, position, cards, length):
    mersenne.shuffle(mt, position, 0, cards, length)


@pytest.mark.parametrize("seed", [0, 1, 42, 2**32 - 1, 2**32, 2**63 - 5, -7])
def test_mersenne_twister_is_pythons(seed):
    mt = np.zeros(mersenne.N, dtype=np.uint32)
    position = np.array([mersenne.seed_state(mt, *mersenne.seed_keys(seed))])
    state = random.Random(seed).getstate()[1]
    assert mt.tolist() == list(state[:624]) and position[0] == state[624]
    reference = random.Random(seed)
    bounds = np.array([3, 7, 1, 36, 2**31 - 1, 5] * 300)  # past one regeneration of the state
    out = np.zeros(len(bounds), dtype=np.int64)
    _randbelows(mt, position, bounds, out)
    assert out.tolist() == [reference.randrange(int(b)) for b in bounds]
    for length in (36, 17, 2, 1):
        cards = np.arange(36, dtype=np.int8)
        _shuffle(mt, position, cards, length)
        expected = list(range(length))
        reference.shuffle(expected)
        assert cards[:length].tolist() == expected


def test_a_seed_of_64_bits_is_refused():
    with pytest.raises(ValueError, match="seed"):
        mersenne.seed_keys(2**64)


# ---------------------------------------------------------------------- bad input


def test_an_illegal_action_is_refused_and_nothing_changes():
    engine = BatchedGendeneia(GendeneiaConfig(), 3)
    engine.reset([1, 2, 3])
    before = [engine.table_state(t) for t in range(3)]
    with pytest.raises(
        IllegalActionError, match=r"illegal action id 5 at table 1 .* legal ids: \[0, 1\]"
    ):
        engine.step(np.array([0, 5, 0]))
    with pytest.raises(IllegalActionError, match="integer action ids"):
        engine.step(np.array([0.0, 1.0, 0.0]))
    with pytest.raises(IllegalActionError, match="3 integer action ids, one per table"):
        engine.step(np.array([0, 1]))
    with pytest.raises(IllegalActionError, match="illegal action id -1"):
        engine.step(np.array([0, -1, 0]))
    assert [engine.table_state(t) for t in range(3)] == before


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda e: e.reset([1.5, 2, 3]), "seeds"),
        (lambda e: e.reset([1, 2, 3], first_player=3), "first_player"),
        (lambda e: e.reset([1], tables=[3]), "tables"),
        (lambda e: e.encode([0, 1, 3]), "seats"),
    ],
)
def test_bad_input_names_what_is_wrong(call, match):
    engine = BatchedGendeneia(GendeneiaConfig(), 3)
    engine.reset([1, 2, 3])
    with pytest.raises(ValueError, match=match):
        call(engine)


@pytest.mark.parametrize("bad", [0, -2, 1.5, True, "4"])
def test_table_count_is_checked(bad):
    with pytest.raises(ValueError, match="num_tables"):
        BatchedGendeneia(GendeneiaConfig(), bad)
