"""The Lith table (docs/rules.md §3): scripted scenarios with known outcomes, bad input."""

import json

import numpy as np
import pytest

import lith_env.game as game_module
from lith_env.cards import CARDS, card_id
from lith_env.game import Action, IllegalActionError, LithConfig, LithGame, LithHand
from lith_env.history import hand_record
from lith_env.pots import Pot, award_pots, side_pots
from tests.lith_helpers import (
    CALL,
    CHECK,
    FOLD,
    KEEP,
    bet,
    discard,
    play,
    raise_to,
    snapshot,
    stacked_hand,
)

FILLER = [
    ["The Sea", "The Island", "The Borderland"],
    ["The Forest", "The Sailor", "The Savage"],
    ["The Cave", "The Lunatic", "Ace of Moons"],
    ["The Castle", "The Journey", "Ace of Knots"],
]


def names(ids):
    return sorted(CARDS[i].name for i in ids)


# ----------------------------------------------------------------------------- antes, deal, order


def test_antes_deal_and_first_to_act():
    config = LithConfig(num_players=3)
    hand = stacked_hand(
        config, [100, 100, 100], dealer=1, hands={0: FILLER[0], 1: FILLER[1], 2: FILLER[2]}
    )
    assert hand.pot == 3 and hand.stacks == [99, 99, 99]
    assert names(hand.cards[2]) == sorted(FILLER[2])
    assert hand.current == 2  # left of the dealer
    assert hand.phase == "bet" and hand.round == 0


def test_a_player_who_cannot_cover_the_ante_posts_it_all_and_is_all_in():
    config = LithConfig(num_players=3, ante=5)
    hand = stacked_hand(
        config, [100, 3, 100], dealer=0, hands={0: FILLER[0], 1: FILLER[1], 2: FILLER[2]}
    )
    assert hand.stacks == [95, 0, 95] and hand.pot == 13
    assert hand.current == 2  # seat 1 is all-in and skipped in the betting
    play(hand, CHECK, CHECK)
    assert hand.phase == "exchange" and hand.current == 1  # all-in players still exchange


# ----------------------------------------------------------------------------- side pots


def test_three_all_ins_of_different_sizes_make_side_pots():
    config = LithConfig(num_players=4, betting="no-limit")
    hands = {
        1: ["The End", "The Market", "The Origin"],  # Doubly Kindred: best, smallest stack
        2: ["The Pact", "The Diplomat", "The Mountain"],  # Pure Twin Flush
        3: ["The Huntress", "The Bard", "The Merchant"],  # Kindred Pair
        0: ["The Consul", "The Painter", "Ace of Wyrms"],  # Void, biggest stack
    }
    hand = stacked_hand(config, [100, 10, 20, 30], dealer=3, hands=hands)
    play(hand, bet(99), CALL, CALL, CALL)  # seat 0 shoves; three all-in calls for less
    assert hand.phase == "exchange"  # no one left to bet: the exchanges still happen
    play(hand, *[KEEP] * 8)
    assert hand.is_over
    assert [(p.amount, p.eligible) for p in hand.pots] == [
        (40, (0, 1, 2, 3)),
        (30, (0, 2, 3)),
        (20, (0, 3)),
        (70, (0,)),
    ]
    assert hand.pot_winners == [(1,), (2,), (3,), (0,)]
    assert hand.stacks == [70, 40, 30, 20]
    assert hand.net() == [-30, 30, 10, -10]
    assert set(hand.showdown) == {0, 1, 2, 3}


def test_uncalled_part_of_a_bet_comes_back():
    config = LithConfig(num_players=2, betting="no-limit")
    hands = {
        0: ["The Consul", "The Painter", "Ace of Wyrms"],
        1: ["The End", "The Market", "The Origin"],
    }
    hand = stacked_hand(config, [100, 30], dealer=1, hands=hands)
    play(hand, bet(60), CALL, *[KEEP] * 4)
    assert hand.stacks == [70, 60]  # seat 1 wins 30 + 30; seat 0's extra 39 came back


# ----------------------------------------------------------------------------- splits


def test_split_pot_odd_chip_goes_to_first_winner_left_of_dealer():
    pots = [Pot(7, (0, 1, 2))]
    won, winners = award_pots(pots, [5, 5, 5], dealer=1)
    assert winners == [(2, 0, 1)] and won == [2, 2, 3]
    won, winners = award_pots([Pot(8, (0, 2))], [5, None, 5], dealer=0)
    assert winners == [(2, 0)] and won == [4, 0, 4]
    won, _ = award_pots([Pot(9, (0, 1, 2)), Pot(5, (1, 2))], [9, 1, 1], dealer=2)
    assert won == [9, 3, 2]  # the side pot splits; its odd chip to seat 1, before seat 2


def test_tied_showdown_splits_with_the_odd_chip(monkeypatch):
    # Distinct real cards never make equal Lith hands (every card has its own rank and suits),
    # so a tie is staged by making the evaluator call every hand equal.
    monkeypatch.setattr(game_module, "hand_strength", lambda cards, **_: (0, 0.5))
    config = LithConfig(num_players=3)
    hand = stacked_hand(config, [100, 100, 100], dealer=2, hands=dict(enumerate(FILLER[:3])))
    play(hand, bet(2), CALL, FOLD)  # seats 0 and 1 in, pot 3 + 4 = 7
    play(hand, *[KEEP] * 2, CHECK, CHECK, *[KEEP] * 2, CHECK, CHECK)
    assert hand.is_over and hand.pot_winners == [(0, 1)]
    assert hand.stacks == [97 + 4, 97 + 3, 99]  # seat 0 is first left of the dealer


def test_side_pots_ignore_folded_seats_as_winners():
    pots = side_pots([11, 31, 31, 5], [False, False, False, True])
    assert pots == [Pot(5 * 4 + 6 * 3, (0, 1, 2)), Pot(40, (1, 2))]


# ----------------------------------------------------------------------------- the exchange ring


def start_exchange(config, stacks, dealer, hands, then=()):
    hand = stacked_hand(config, stacks, dealer, hands, then=then)
    while hand.phase == "bet":
        hand.apply(CHECK)
    return hand


def test_everyone_discards_each_takes_the_left_neighbours_discard():
    config = LithConfig(num_players=3)
    hand = start_exchange(config, [100] * 3, dealer=2, hands=dict(enumerate(FILLER[:3])))
    deck_before = hand.deck_remaining()
    play(hand, discard("The Sea"), discard("The Forest"), discard("The Cave"))  # seats 0, 1, 2
    log = hand.exchanges[0]
    assert log.received == {
        0: (card_id("The Forest"), 1),
        1: (card_id("The Cave"), 2),
        2: (card_id("The Sea"), 0),
    }
    assert log.taken_by == {0: 2, 1: 0, 2: 1} and log.to_bottom == []
    assert hand.deck_remaining() == deck_before  # nobody drew, nothing went under
    assert "The Cave" in names(hand.cards[1])
    view = hand.observe(0)
    assert view.exchanges[0].my_discard == card_id("The Sea")
    assert view.exchanges[0].taken_by == 2  # the player on my right took it
    assert view.exchanges[0].received == card_id("The Forest")
    assert view.exchanges[0].received_from == 1


def test_alternate_seats_discard_draw_from_the_deck_and_discards_go_under():
    config = LithConfig(num_players=4)
    hand = start_exchange(
        config, [100] * 4, dealer=3, hands=dict(enumerate(FILLER)), then=["The Pact", "The Mill"]
    )
    play(hand, discard("The Sea"), KEEP, discard("The Cave"), KEEP)
    log = hand.exchanges[0]
    assert log.received == {0: (card_id("The Pact"), None), 2: (card_id("The Mill"), None)}
    assert log.taken_by == {0: None, 2: None}
    assert log.to_bottom == [card_id("The Sea"), card_id("The Cave")]
    assert hand.deck_remaining()[-2:] == log.to_bottom
    view = hand.observe(1)  # a keeper sees who discarded and who drew, not which cards
    assert view.exchanges[0].discarded == (True, False, True, False)
    assert view.exchanges[0].drew == (True, None, True, None)
    assert view.exchanges[0].my_discard is None


def test_a_discarder_whose_left_neighbour_kept_draws_and_its_discard_is_taken():
    config = LithConfig(num_players=3)
    hand = start_exchange(
        config, [100] * 3, dealer=2, hands=dict(enumerate(FILLER[:3])), then=["The Pact"]
    )
    play(hand, discard("The Island"), discard("The Sailor"), KEEP)
    log = hand.exchanges[0]
    assert log.received == {0: (card_id("The Sailor"), 1), 1: (card_id("The Pact"), None)}
    assert log.taken_by == {1: 0, 0: None}
    assert log.to_bottom == [card_id("The Island")]


def test_a_folded_player_is_skipped_in_the_ring():
    config = LithConfig(num_players=4)
    hand = stacked_hand(
        config, [100] * 4, dealer=3, hands=dict(enumerate(FILLER)), then=["The Pact"]
    )
    play(hand, bet(2), FOLD, CALL, CALL)  # seat 1 folds
    assert hand.phase == "exchange" and hand.current == 0
    play(hand, discard("The Sea"), discard("The Cave"), KEEP)  # seats 0, 2, 3
    log = hand.exchanges[0]
    assert log.received == {0: (card_id("The Cave"), 2), 2: (card_id("The Pact"), None)}
    assert log.to_bottom == [card_id("The Sea")]  # seat 0's right neighbour still in kept
    assert 1 not in log.discards


def test_second_exchange_may_discard_again():
    config = LithConfig(num_players=2)
    hand = start_exchange(config, [100] * 2, dealer=1, hands=dict(enumerate(FILLER[:2])))
    play(hand, discard("The Sea"), discard("The Forest"), CHECK, CHECK)
    assert hand.phase == "exchange" and len(hand.exchanges) == 2
    play(hand, discard("The Forest"), discard("The Sea"))  # swapped back
    assert names(hand.cards[0]) == sorted(FILLER[0])


# ----------------------------------------------------------------------------- folds


def test_fold_wins_at_once_and_shows_nothing():
    config = LithConfig(num_players=2)
    hand = stacked_hand(config, [100, 100], dealer=1, hands=dict(enumerate(FILLER[:2])))
    play(hand, bet(2), FOLD)
    assert hand.is_over and hand.showdown == {}
    assert hand.net() == [1, -1]
    assert hand.observe(1).showdown == {}


def test_fold_in_the_last_round():
    config = LithConfig(num_players=2)
    hand = start_exchange(config, [100, 100], dealer=1, hands=dict(enumerate(FILLER[:2])))
    play(hand, KEEP, KEEP, CHECK, bet(2), CALL, KEEP, KEEP, bet(4), raise_to(8), FOLD)
    assert hand.is_over and hand.net() == [-7, 7]


def test_cannot_fold_when_checking_is_free():
    config = LithConfig(num_players=2)
    hand = stacked_hand(config, [100, 100], dealer=1, hands=dict(enumerate(FILLER[:2])))
    with pytest.raises(IllegalActionError, match="legal: check, bet to 2"):
        hand.apply(FOLD)


# ----------------------------------------------------------------------------- the demon


@pytest.mark.parametrize(("heads", "winner"), [(True, 0), (False, 1)])
def test_demon_coin_flip_decides_the_excuse(heads, winner):
    config = LithConfig(num_players=2, excuse="demon")
    hands = {
        0: ["The Excuse", "The Pact", "The Diplomat"],  # imposter: Running Twin Flush; beggar: Void
        1: ["The Huntress", "The Bard", "The Merchant"],  # Kindred Pair
    }
    hand = stacked_hand(config, [100, 100], dealer=1, hands=hands, demon_heads=heads)
    play(hand, CHECK, CHECK, KEEP, KEEP, CHECK, CHECK, KEEP, KEEP, CHECK, CHECK)
    assert hand.demon_used == ("heads" if heads else "tails")
    assert hand.pot_winners == [(winner,)]


BEGGAR_SHOWDOWN = {
    # The Bard and The End carry the three types, but the Excuse as the beggar brings nothing:
    # the hand ranks just below Pair (The Bard, The End, The Origin), its weakest completion.
    0: ["The Excuse", "The Bard", "The End"],
    1: ["The Author", "The Lunatic", "The Merchant"],  # Kindred: all Personalities
}


@pytest.mark.parametrize(
    ("excuse", "heads", "winner"),
    [("beggar", False, 1), ("demon", False, 1), ("demon", True, 0), ("imposter", False, 0)],
)
def test_beggar_hand_loses_to_a_hand_above_its_weakest_completion(excuse, heads, winner):
    """Rule 4: the beggar is dead weight (it made no Fortune Pair, which beats a Kindred); the
    demon's tails side is the same beggar, its heads side the imposter (a trio of Crowns)."""
    config = LithConfig(num_players=2, excuse=excuse)
    hand = stacked_hand(config, [100, 100], dealer=1, hands=BEGGAR_SHOWDOWN, demon_heads=heads)
    play(hand, CHECK, CHECK, KEEP, KEEP, CHECK, CHECK, KEEP, KEEP, CHECK, CHECK)
    assert hand.showdown[0] == [card_id(c) for c in BEGGAR_SHOWDOWN[0]]
    assert hand.pot_winners == [(winner,)]


def test_beggar_hand_beats_a_hand_below_its_weakest_completion():
    config = LithConfig(num_players=2, excuse="beggar")
    hands = {
        0: ["The Excuse", "The Bard", "The End"],  # just below a Pair of Crowns with a 2
        1: ["The Huntress", "The Sea", "Ace of Knots"],  # Pair of Crowns with an Ace: lower
    }
    hand = stacked_hand(config, [100, 100], dealer=1, hands=hands)
    play(hand, CHECK, CHECK, KEEP, KEEP, CHECK, CHECK, KEEP, KEEP, CHECK, CHECK)
    assert hand.pot_winners == [(0,)]


def test_demon_flip_unused_without_the_excuse_at_showdown():
    config = LithConfig(num_players=2, excuse="demon")
    hand = stacked_hand(config, [100, 100], dealer=1, hands=dict(enumerate(FILLER[:2])))
    play(hand, CHECK, CHECK, KEEP, KEEP, CHECK, CHECK, KEEP, KEEP, CHECK, CHECK)
    assert hand.is_over and hand.demon_used is None


# ----------------------------------------------------------------------------- betting structures


def test_limit_one_bet_and_three_raises_a_round():
    config = LithConfig(num_players=2)
    hand = stacked_hand(config, [100, 100], dealer=1, hands=dict(enumerate(FILLER[:2])))
    play(hand, bet(2), raise_to(4), raise_to(6), raise_to(8))
    legal = hand.legal_actions()
    assert legal.raise_kind is None and str(legal) == "fold, call"
    play(hand, CALL)
    assert hand.phase == "exchange" and hand.pot == 18
    play(hand, KEEP, KEEP)
    assert str(hand.legal_actions()) == "check, bet to 2"
    play(hand, CHECK, CHECK, KEEP, KEEP)
    assert str(hand.legal_actions()) == "check, bet to 4"  # round 3 bet size


def test_limit_short_stack_raises_all_in_for_less_which_reopens_nothing():
    config = LithConfig(num_players=3)
    hand = stacked_hand(config, [100, 4, 100], dealer=2, hands=dict(enumerate(FILLER[:3])))
    play(hand, bet(2))  # seat 0
    legal = hand.legal_actions()  # seat 1: 3 chips behind, 2 to call
    assert (legal.raise_kind, legal.min_to, legal.max_to) == ("raise", 3, 3)
    play(hand, raise_to(3), CALL)  # seat 1 all-in for less; seat 2 calls 3
    legal = hand.legal_actions()  # seat 0 already acted: may only call the extra chip or fold
    assert legal.raise_kind is None and str(legal) == "fold, call"


@pytest.mark.parametrize("betting", ["limit", "pot-limit", "no-limit"])
def test_nobody_may_raise_when_every_other_seat_is_all_in(betting):
    """A raise nobody can answer is not poker: facing the last other stack's all-in, a seat
    may only call or fold, in every structure."""
    config = LithConfig(num_players=2, betting=betting)
    hand = stacked_hand(config, [100, 3], dealer=0, hands=dict(enumerate(FILLER[:2])))
    play(hand, bet(2))  # seat 1 (2 chips behind after the ante) is all in
    assert hand.stacks == [99, 0]
    legal = hand.legal_actions()  # seat 0
    assert legal.raise_kind is None and str(legal) == "fold, call"
    with pytest.raises(IllegalActionError, match="legal: fold, call"):
        hand.apply(raise_to(10))


def test_a_raise_stays_legal_while_another_seat_can_answer_it():
    config = LithConfig(num_players=3, betting="no-limit")
    hand = stacked_hand(config, [100, 4, 100], dealer=2, hands=dict(enumerate(FILLER[:3])))
    play(hand, bet(2), raise_to(3))  # seat 0 bets, seat 1 is all in for less
    legal = hand.legal_actions()  # seat 2 has not acted and seat 0 still has chips
    assert legal.raise_kind == "raise"


def test_pot_limit_bounds():
    config = LithConfig(num_players=3, betting="pot-limit")
    hand = stacked_hand(config, [100] * 3, dealer=2, hands=dict(enumerate(FILLER[:3])))
    legal = hand.legal_actions()  # pot 3 (antes), nothing to call
    assert (legal.raise_kind, legal.min_to, legal.max_to) == ("bet", 2, 3)
    play(hand, bet(3))
    legal = hand.legal_actions()  # pot 6, 3 to call: raise to 3 + (6 + 3) = 12
    assert (legal.min_to, legal.max_to) == (6, 12)


def test_no_limit_min_raise_is_the_last_raise():
    config = LithConfig(num_players=3, betting="no-limit")
    hand = stacked_hand(config, [100] * 3, dealer=2, hands=dict(enumerate(FILLER[:3])))
    play(hand, bet(10))
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (20, 99)
    play(hand, raise_to(35))
    assert hand.legal_actions().min_to == 60  # raise by at least the last raise (25)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Action("bet", amount=1), "legal: check, bet to 2-99"),
        (Action("bet", amount=100), "legal: check, bet to 2-99"),
        (Action("raise", amount=4), "illegal action raise to 4"),
        (Action("bet", amount=2.5), "illegal action bet to 2.5"),
        (CALL, "illegal action call"),
        (KEEP, "illegal action keep"),
        (discard("The Sea"), "illegal action discard The Sea"),
        (Action("shove"), "illegal action shove"),
        ("fold", "illegal action fold"),
    ],
)
def test_illegal_actions_raise_and_change_nothing(action, message):
    config = LithConfig(num_players=2, betting="no-limit")
    hand = stacked_hand(config, [100, 100], dealer=1, hands=dict(enumerate(FILLER[:2])))
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=message):
        hand.apply(action)
    assert snapshot(hand) == before
    # callers that catch ValueError (the commands' option checks) catch the engine's refusal
    with pytest.raises(ValueError, match=message):
        hand.apply(action)
    assert snapshot(hand) == before


# Each turns an integer into a look-alike of another type (True equals 1).
NOT_INTEGERS = {
    "float": float,
    "numpy float": np.float64,
    "str": str,
    "bool": bool,
    "numpy bool": np.bool_,
    "list": lambda x: [x],
}


@pytest.mark.parametrize("make", NOT_INTEGERS.values(), ids=NOT_INTEGERS)
def test_a_discard_card_must_be_an_integer(make):
    config = LithConfig(num_players=2)
    hands = {0: ["Ace of Suns", "The Island", "The Borderland"], 1: FILLER[1]}
    hand = start_exchange(config, [100, 100], dealer=1, hands=hands)
    assert card_id("Ace of Suns") == 1  # True and 1.0 would name a card seat 0 holds
    before, log = snapshot(hand), list(hand.actions)
    with pytest.raises(IllegalActionError, match=r"card: must be an integer, got .*seat 0 to"):
        hand.apply(Action("discard", card=make(1)))
    assert snapshot(hand) == before and hand.actions == log


@pytest.mark.parametrize("make", NOT_INTEGERS.values(), ids=NOT_INTEGERS)
@pytest.mark.parametrize("kind", ["bet", "check", "discard"])
def test_an_amount_must_be_an_integer(make, kind):
    config = LithConfig(num_players=2, betting="no-limit")
    hand = stacked_hand(config, [100, 100], dealer=1, hands=dict(enumerate(FILLER[:2])))
    before, log = snapshot(hand), list(hand.actions)
    with pytest.raises(IllegalActionError, match=r"amount: must be an integer, got "):
        hand.apply(Action(kind, amount=make(2)))
    assert snapshot(hand) == before and hand.actions == log


def test_numpy_integer_cards_and_amounts_are_kept_as_python_ints():
    config = LithConfig(num_players=2, betting="no-limit")
    hand = stacked_hand(config, [100, 100], dealer=1, hands=dict(enumerate(FILLER[:2])))
    play(hand, Action("bet", amount=np.int32(4)), CALL)
    sea, forest = card_id("The Sea"), card_id("The Forest")
    play(hand, Action("discard", card=np.int64(sea)), Action("discard", card=np.uint8(forest)))
    assert type(hand.actions[0]["amount"]) is int
    discards = hand.exchanges[0].discards
    assert discards == {0: sea, 1: forest} and all(type(c) is int for c in discards.values())
    while not hand.is_over:
        hand.apply(CHECK if hand.phase == "bet" else KEEP)
    record = hand_record(hand)
    assert json.loads(json.dumps(record)) == record


def test_malformed_actions_are_described_in_the_error():
    config = LithConfig(num_players=2)
    hand = start_exchange(config, [100, 100], dealer=1, hands=dict(enumerate(FILLER[:2])))
    with pytest.raises(IllegalActionError, match="illegal action discard 99; seat 0"):
        hand.apply(Action("discard", card=99))  # no such card: not in the hand either
    with pytest.raises(IllegalActionError, match="illegal action 5; seat 0"):
        hand.apply(Action(5))


def test_exchange_illegal_actions_name_the_legal_ones():
    config = LithConfig(num_players=2)
    hand = start_exchange(config, [100, 100], dealer=1, hands=dict(enumerate(FILLER[:2])))
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match="legal: keep, discard .*The Island"):
        hand.apply(discard("The Pact"))  # not in seat 0's hand
    with pytest.raises(IllegalActionError, match="seat 0 to act in exchange 1"):
        hand.apply(CHECK)
    assert snapshot(hand) == before


def test_no_action_once_the_hand_is_over():
    config = LithConfig(num_players=2)
    hand = stacked_hand(config, [100, 100], dealer=1, hands=dict(enumerate(FILLER[:2])))
    play(hand, bet(2), FOLD)
    with pytest.raises(IllegalActionError, match="the hand is over"):
        hand.apply(CHECK)


# ----------------------------------------------------------------------------- configuration


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"num_players": 1}, "num_players"),
        ({"num_players": 11}, "num_players"),
        ({"num_players": 2.0}, "num_players"),
        ({"betting": "spread-limit"}, "betting"),
        ({"bet_sizes": (2, 2)}, "bet_sizes"),
        ({"bet_sizes": (2, 0, 4)}, "bet_sizes"),
        ({"max_raises": -1}, "max_raises"),
        ({"pawns_and_courts": "yes"}, "pawns_and_courts"),
        ({"excuse": "joker"}, "excuse"),
        ({"starting_chips": 0}, "starting_chips"),
        ({"starting_chips": -5}, "starting_chips"),
        ({"starting_chips": (10, 10, 10)}, "starting_chips"),
        ({"ante": -1}, "ante"),
        ({"max_hands": 0}, "max_hands"),
    ],
)
def test_bad_configuration_names_the_field(kwargs, field):
    with pytest.raises(ValueError, match=f"^{field}:"):
        LithConfig(**kwargs)


def test_bad_hand_setup_names_the_field():
    config = LithConfig(num_players=2)
    with pytest.raises(ValueError, match="^stacks:"):
        LithHand(config, [100], 0, config.deck)
    with pytest.raises(ValueError, match="^stacks: at least two"):
        LithHand(config, [100, 0], 0, config.deck)
    with pytest.raises(ValueError, match="^dealer:"):
        LithHand(config, [100, 100], 2, config.deck)
    with pytest.raises(ValueError, match="^deck_order:"):
        LithHand(config, [100, 100], 0, [*config.deck[:-1], 0])
    with pytest.raises(ValueError, match="^first_dealer:"):
        LithGame(config, first_dealer=5)
    with pytest.raises(ValueError, match="^seat:"):
        LithGame(config).observe(2)


# ----------------------------------------------------------------------------- the match


def play_out_hand(game: LithGame, action_for_seat) -> None:
    hands = game.hands_played
    while not game.is_over and game.hands_played == hands:
        game.apply(action_for_seat(game))


def test_busted_player_leaves_the_match_and_the_deal_skips_them():
    config = LithConfig(num_players=3, starting_chips=(3, 50, 50), betting="no-limit")
    for seed in range(50):
        game = LithGame(config, seed=seed, first_dealer=2)

        def shove_and_call(g):
            legal = g.legal_actions()
            if g.hand.phase == "exchange":
                return KEEP
            if g.hand.current == 0 and legal.raise_kind:
                return Action(legal.raise_kind, amount=legal.max_to)
            return CALL if CALL in legal.actions else CHECK

        play_out_hand(game, shove_and_call)
        if game.stacks[0] == 0:
            break
    else:
        pytest.fail("seat 0 never lost its all-in in 50 seeds")
    assert game.hand.dealt_in == [False, True, True]
    assert game.dealer == 1  # passed left from seat 2, skipping busted seat 0
    assert game.hand.committed == [0, 1, 1]  # the busted seat antes nothing
    assert game.observe(0).cards == ()
    assert not game.is_over


def test_match_ends_when_one_player_holds_every_chip():
    config = LithConfig(num_players=2, starting_chips=6, betting="no-limit")
    game = LithGame(config, seed=3)

    def always_shove(g):
        legal = g.legal_actions()
        if legal.raise_kind:
            return Action(legal.raise_kind, amount=legal.max_to)
        return legal.actions[-1] if g.hand.phase == "bet" else KEEP

    while not game.is_over:
        game.apply(always_shove(game))
    assert sorted(game.stacks) == [0, 12]
    assert game.current_player is None
    assert game.winners() == [int(np.argmax(game.stacks))]
    assert game.returns().tolist() == [s - 6 for s in game.stacks]
    with pytest.raises(IllegalActionError, match="the match is over"):
        game.apply(CHECK)


def test_match_ends_after_the_hand_limit_and_the_deal_passes_left():
    config = LithConfig(num_players=3, max_hands=3)
    game = LithGame(config, seed=0, first_dealer=0)
    dealers = []
    while not game.is_over:
        if not dealers or dealers[-1][0] != game.hands_played:
            dealers.append((game.hands_played, game.hand.dealer))
        game.apply(CHECK if CHECK in game.legal_actions().actions else KEEP)
    assert game.hands_played == 3 and len(game.records) == 3
    assert [d for _, d in dealers] == [0, 1, 2]
    assert game.winners() == [s for s in range(3) if game.stacks[s] == max(game.stacks)]
