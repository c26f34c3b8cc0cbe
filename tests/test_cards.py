"""The Decktet as data (docs/rules.md §1)."""

import pytest

from lith_env.cards import CARDS, EXCUSE, NUM_CARDS, Suit, Type, card_id, card_ids, deck


def test_45_cards_indexed_by_id():
    assert NUM_CARDS == 45
    assert [c.id for c in CARDS] == list(range(45))
    assert len({c.name for c in CARDS}) == 45


def test_rank_counts():
    ranks = [c.rank for c in CARDS]
    assert ranks.count(1) == 6  # Aces
    assert all(ranks.count(r) == 3 for r in range(2, 10))
    assert ranks.count(10) == 4 and ranks.count(11) == 4  # Pawns, Courts
    assert ranks.count(12) == 6  # Crowns
    assert ranks.count(0) == 1 and CARDS[EXCUSE].name == "The Excuse"


def test_every_suit_appears_on_ten_basic_cards_and_fourteen_extended():
    # One Ace, eight numbered cards (2-9 carry two suits each: 48 marks over six suits), one
    # Crown; Pawns and Courts carry three suits each (24 marks), four per suit.
    for suit in Suit:
        basic = [c for c in CARDS if suit in c.suits and c.rank not in (10, 11)]
        assert len(basic) == 10, suit
        assert len([c for c in CARDS if suit in c.suits]) == 14, suit


def test_known_cards():
    pact = CARDS[card_id("The Pact")]
    assert (pact.rank, pact.suits, pact.types) == (9, (Suit.MOONS, Suit.SUNS), (Type.EVENT,))
    battle = CARDS[card_id("Battle")]
    assert battle.rank == 4  # the rules brief misprints it as a 2
    discovery = CARDS[card_id("discovery")]
    assert discovery.suits == (Suit.SUNS, Suit.WAVES)  # the rules brief misprints Leaves
    watchman = CARDS[card_id("the watchman")]
    assert watchman.suits == (Suit.MOONS, Suit.WYRMS, Suit.KNOTS) and watchman.rank_name == "Pawn"
    end = CARDS[card_id("The End")]
    assert end.types == (Type.LOCATION, Type.EVENT) and end.rank_name == "Crown"
    ace = CARDS[card_id("Ace of Knots")]
    assert ace.types == () and ace.suits == (Suit.KNOTS,) and ace.rank == 1


def test_suits_listed_high_to_low():
    for c in CARDS:
        assert list(c.suits) == sorted(c.suits, reverse=True), c.name


def test_types_only_aces_and_excuse_have_none():
    for c in CARDS:
        assert (c.types == ()) == (c.rank in (0, 1)), c.name
    two_typed = {c.name for c in CARDS if len(c.types) == 2}
    assert two_typed == {"The Origin", "The Market", "The End"}


@pytest.mark.parametrize("name", ["The Pact", "the pact", "PACT", "  Pact ", "The  Pact"])
def test_card_id_accepts_names_loosely(name):
    assert card_id(name) == card_id("The Pact")


def test_card_id_passes_ids_through_and_rejects_bad_ones():
    assert card_id(7) == 7
    with pytest.raises(ValueError, match="out of range"):
        card_id(45)
    with pytest.raises(ValueError, match="out of range"):
        card_id(-1)
    with pytest.raises(ValueError, match="not a card"):
        card_id(True)
    with pytest.raises(ValueError, match="not a card name or id"):
        card_id(3.0)


def test_unknown_name_suggests_closest():
    with pytest.raises(ValueError, match=r"unknown card 'The Mountian'.*The Mountain"):
        card_id("The Mountian")
    with pytest.raises(ValueError, match=r"unknown card 'zzzz'$"):
        card_id("zzzz")


def test_card_ids_rejects_a_single_name():
    with pytest.raises(ValueError, match="sequence of cards"):
        card_ids("The Pact")


def test_decks():
    assert len(deck()) == 44
    assert len(deck(pawns_and_courts=False)) == 36
    assert len(deck(excuse=True)) == 45
    assert len(deck(pawns_and_courts=False, excuse=True)) == 37
    assert deck() == list(range(44))
    assert not any(CARDS[i].rank in (10, 11) for i in deck(pawns_and_courts=False))
    assert EXCUSE in deck(excuse=True) and EXCUSE not in deck()
