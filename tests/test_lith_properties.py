"""Invariants of the Lith engine under random play (hypothesis), determinism, privacy, replay."""

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lith_env.cards import card_id
from lith_env.encoding import action_from_id, action_mask
from lith_env.game import Action, IllegalActionError, LithConfig, LithGame, LithHand
from lith_env.history import hand_record, load_records, replay_hand, save_records
from tests.lith_helpers import KEEP, lith_configs, random_action

configs = lith_configs()


def check_invariants(game: LithGame, total: int) -> None:
    hand = game.hand
    # Chips: stacks plus pot never change within a hand.
    assert sum(hand.stacks) + (0 if hand.is_over else hand.pot) == total
    assert all(s >= 0 for s in hand.stacks)
    # Cards: each card in exactly one place (hands or deck; discards stay in hand until resolved).
    places = [c for cards in hand.cards for c in cards] + hand.deck_remaining()
    assert sorted(places) == sorted(game.config.deck)
    # The mask is exactly the engine's legal actions.
    if not game.is_over:
        mask = action_mask(hand)
        for action_id in range(len(mask)):
            try:
                action = action_from_id(hand, action_id)
            except IllegalActionError:
                assert not mask[action_id]
            else:
                assert mask[action_id] and hand.legal_actions().contains(action)


@settings(max_examples=60, deadline=None)
@given(config=configs, seed=st.integers(0, 2**32), policy_seed=st.integers(0, 2**32))
def test_random_play_conserves_chips_and_cards(config, seed, policy_seed):
    game = LithGame(config, seed=seed)
    rng = random.Random(policy_seed)
    total = sum(config.stacks)
    check_invariants(game, total)
    steps = 0
    while not game.is_over:
        game.apply(random_action(game.legal_actions(), rng))
        check_invariants(game, total)
        steps += 1
        assert steps < 10_000
    assert sum(game.stacks) == total
    for record in game.records:
        assert sum(record["net"]) == 0  # each hand is zero-sum
        replay_hand(json.loads(json.dumps(record)))  # and replays to the same result
    assert game.returns().sum() == 0


def random_trajectory(config, seed, policy_seed):
    game = LithGame(config, seed=seed)
    rng = random.Random(policy_seed)
    while not game.is_over:
        game.apply(random_action(game.legal_actions(), rng))
    return game.records


@settings(max_examples=15, deadline=None)
@given(config=configs, seed=st.integers(0, 2**32))
def test_same_seed_and_actions_give_the_same_game(config, seed):
    assert random_trajectory(config, seed, 1) == random_trajectory(config, seed, 1)


def test_different_seeds_deal_differently():
    config = LithConfig(num_players=4)
    decks = {tuple(LithGame(config, seed=s).hand.deck_order) for s in range(20)}
    assert len(decks) == 20


def test_seeded_trajectory_is_stable():
    """A golden record: the first hand of seed 7 with a fixed policy."""
    config = LithConfig(num_players=3)
    game = LithGame(config, seed=7)
    rng = random.Random(0)
    while game.hands_played == 0:
        game.apply(random_action(game.legal_actions(), rng))
    record = game.records[0]
    assert record["deck"][:9] == GOLDEN_DEAL
    assert record["net"] == GOLDEN_NET
    assert len(record["actions"]) == 20


GOLDEN_DEAL = [
    "The Savage",
    "The Battle",
    "The Sailor",
    "The Island",
    "The Penitent",
    "The Pact",
    "The Soldier",
    "The Forest",
    "Ace of Knots",
]
GOLDEN_NET = [-9, 18, -9]


# ----------------------------------------------------------------------------- privacy


def swap(order, a, b):
    order = list(order)
    i, j = order.index(a), order.index(b)
    order[i], order[j] = order[j], order[i]
    return order


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    policy_seed=st.integers(0, 2**32),
    betting=st.sampled_from(["limit", "no-limit"]),
)
def test_another_players_hidden_cards_never_reach_my_observation(n, seed, policy_seed, betting):
    """Two hands that differ only in another seat's cards look the same to me until showdown,
    as long as that seat never passes me a card (it keeps) and does not show (it folds)."""
    config = LithConfig(num_players=n, betting=betting)
    base = LithGame(config, seed=seed).hand
    me, other = 0, 1
    rest = base.deck_remaining()
    twin_order = base.deck_order
    for k, card in enumerate(base.cards[other]):
        twin_order = swap(twin_order, card, rest[-1 - k])  # trade with the deck's bottom cards
    a = LithHand(config, base.start_stacks, base.dealer, base.deck_order)
    b = LithHand(config, base.start_stacks, base.dealer, twin_order)
    assert a.cards[other] != b.cards[other] and a.cards[me] == b.cards[me]
    rng = random.Random(policy_seed)
    while not a.is_over:
        assert a.observe(me) == b.observe(me)
        seat = a.current
        if seat == other:
            legal = a.legal_actions()
            action = KEEP if a.phase == "exchange" else legal.actions[0]  # fold, or check
        else:
            action = random_action(a.legal_actions(), rng)
        a.apply(action)
        b.apply(action)
    if a.showdown.get(other) is None:
        assert a.observe(me) == b.observe(me)


def test_observation_hides_others_discards_but_shows_mine():
    config = LithConfig(num_players=2)
    game = LithGame(config, seed=1)
    hand = game.hand
    while hand.phase == "bet":
        hand.apply(Action("check"))
    mine = sorted(hand.cards[0 if hand.current == 0 else 1])[0]
    first = hand.current
    hand.apply(Action("discard", card=mine))
    second = hand.current
    hand.apply(Action("discard", card=sorted(hand.cards[second])[0]))
    view_first = hand.observe(first)
    discard_entries = [a for a in view_first.actions if a["kind"] == "discard"]
    assert {a["seat"]: a["card"] for a in discard_entries}[second] is None
    assert view_first.exchanges[0].my_discard == mine


# ----------------------------------------------------------------------------- histories


def test_histories_save_load_and_replay(tmp_path):
    config = LithConfig(num_players=4, betting="no-limit", excuse="demon", max_hands=5)
    game = LithGame(config, seed=11)
    rng = random.Random(2)
    while not game.is_over:
        game.apply(random_action(game.legal_actions(), rng))
    path = tmp_path / "hands.jsonl"
    save_records(game.records, path)
    loaded = load_records(path)
    assert loaded == json.loads(json.dumps(game.records))
    for record in loaded:
        hand = replay_hand(record)
        assert hand_record(hand, seed=record["seed"], index=record["hand"]) == record


def one_record():
    game = LithGame(LithConfig(num_players=3), seed=5)
    rng = random.Random(0)
    while game.hands_played == 0:
        game.apply(random_action(game.legal_actions(), rng))
    return json.loads(json.dumps(game.records[0]))


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda r: r.update(format="poker/9"), "^format:"),
        (lambda r: r.pop("deck"), "^deck: missing"),
        (lambda r: r["deck"].__setitem__(0, "The Joker"), "^deck: unknown card 'The Joker'"),
        (lambda r: r["config"].update(num_players=11), "^num_players:"),
        (lambda r: r["config"].update(colour="red"), "^config:"),
        (
            lambda r: r["actions"][0].update(seat=(r["actions"][0]["seat"] + 1) % 3),
            r"^actions\[0\]: seat",
        ),
        (lambda r: r["actions"][0].update(kind="shove"), r"^actions\[0\]: illegal action shove"),
        (lambda r: r["actions"].pop(), "^actions: the hand is not over"),
        (lambda r: r.update(net=[5, -5, 0]), "^net: the replay gives"),
        (lambda r: r.update(stacks=[100, 100]), "^stacks:"),
        (lambda r: r["deck"].reverse(), "^(cards|net|pots|actions|exchanges)"),
        (lambda r: r.update(stacks=5), "^stacks: need 3 non-negative integers, got 5"),
        (lambda r: r.update(actions=None), "^actions: must be a list, got NoneType"),
        (lambda r: r["actions"].__setitem__(0, [1]), r"^actions\[0\]: must be an object"),
        (lambda r: r.update(demon_heads="no"), "^demon_heads: must be true or false"),
        (lambda r: r.update(hand="x"), "^hand: must be the hand's number"),
        (lambda r: r.update(seed=1.5), "^seed: must be an integer or null"),
        # The log is checked entry by entry, not only the actions' kinds.
        (lambda r: r["actions"][0].update(chips=77), r"^actions\[0\]: the replay logs"),
        (lambda r: r["actions"][0].update(phase="zzz"), r"^actions\[0\]: the replay logs"),
        (lambda r: r["actions"][0].update(round=2), r"^actions\[0\]: the replay logs"),
        # Values and JSON types: true is not 1, 1.0 is not 1.
        (lambda r: r["actions"][0].update(seat=float(r["actions"][0]["seat"])), r"^actions\[0\]"),
        (lambda r: r["pots"][0].update(winners=[True]), "^pots: the replay gives"),
        # Every field of the format must be there.
        (lambda r: r.pop("pots"), "^pots: missing from the record"),
        (lambda r: r.pop("stacks_after"), "^stacks_after: missing from the record"),
        (lambda r: r.update(dealer=(r["dealer"] + 1) % 3), "^(dealer|actions|cards)"),
    ],
)
def test_malformed_history_raises_naming_the_field(corrupt, message):
    record = one_record()
    corrupt(record)
    with pytest.raises(ValueError, match=message):
        replay_hand(record)


def test_fields_outside_the_format_are_left_alone():
    record = one_record()
    record["agents"] = ["tag", "rock", "random"]  # what a tournament adds
    assert replay_hand(record).net() == record["net"]


def test_numpy_amounts_and_configs_give_json_records():
    """numpy integers are legal amounts and config values; records still hold plain ints."""
    config = LithConfig(
        num_players=np.int64(2), betting="no-limit", bet_sizes=np.array([2, 2, 4]), max_hands=1
    )
    game = LithGame(config, seed=3)
    game.apply(Action("bet", np.int64(5)))
    game.apply(Action("fold"))
    record = json.loads(json.dumps(game.records[0]))
    assert record["actions"][0] == {
        "phase": "bet",
        "round": 0,
        "seat": record["actions"][0]["seat"],
        "kind": "bet",
        "amount": 5,
        "chips": 5,
    }
    assert all(type(s) is int for s in game.stacks)
    assert replay_hand(record).net() == record["net"]


def test_load_records_names_a_bad_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "lith-hand/1"}\nnot json\n')
    with pytest.raises(ValueError, match="bad.jsonl:2: not a JSON record"):
        load_records(path)


def test_record_holds_what_the_issue_lists():
    record = one_record()
    for key in ("seed", "dealer", "stacks", "deck", "cards", "actions", "exchanges", "pots", "net"):
        assert key in record
    assert all(isinstance(name, str) for name in record["deck"])
    # the deck in dealing order: the config's whole deck, each card once
    dealt = [card_id(name) for name in record["deck"]]
    assert sorted(dealt) == sorted(LithConfig(num_players=3).deck)
    assert dealt != sorted(dealt)  # shuffled
    assert np.sum(record["net"]) == 0


@pytest.mark.parametrize("size", [0, 1, 2, 36, 45, 46])
def test_deals_shuffle_exactly_as_python_random(size):
    """lith_env.game.shuffle is random.Random.shuffle written out: same order, same generator
    state after (so the demon coin and later draws match too)."""
    from lith_env.game import shuffle

    for seed in range(300):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(size)), list(range(size))
        shuffle(a, ours)
        theirs.shuffle(b)
        assert a == b
        assert ours.getstate() == theirs.getstate()
