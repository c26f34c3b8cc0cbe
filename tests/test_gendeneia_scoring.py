"""Gendeneía scoring (docs/rules.md §4) and the written card and pair forms."""

import pytest

from gendeneia_env import score_player
from gendeneia_env.cards import TWIST_NAMES, card, card_name, parse_card, parse_pair, value
from gendeneia_env.scoring import lot_value, score

# The rules brief's worked example: "a player with the final cards ... would have 5/Q Blood, 8/W
# Collars, and 8/Q + 3/T Hope ... a total score of 13 C-B + 6 H-B = 19 points."
SEED_LOTS = {
    "Blood": ["3B/2Q", "2B/5Q"],
    "Collars": ["2C/8W", "4C/3W"],
    "Hope": ["9H/6Q", "1H/1W", "3H/5T"],
}


def test_seed_example_with_the_lot_values_it_states_scores_19():
    collars, hope, blood = -8, 8 + 3, 5  # 8 on the Wind side is -8 under subtraction
    assert score(collars, hope, blood) == 13 + 6 == 19


def test_seed_example_with_the_cards_it_lists_scores_17():
    # Collars 2C/8W + 4C/3W is 6 on the Wind side, not 8: |-6 - 5| + |11 - 5| = 11 + 6.
    assert score_player(SEED_LOTS, presum="subtract") == 17


def test_seed_example_without_pre_summing_and_with_ignore():
    assert score_player(SEED_LOTS) == abs(6 - 5) + abs(13 - 5) == 9
    # ignore: Hope drops its smaller Wind side (1): 9 + 3 Twist = 12.
    assert score_player(SEED_LOTS, presum="ignore") == abs(6 - 5) + abs(12 - 5) == 8


def test_subtract_lot_values_are_signed():
    pairs = [parse_pair(p) for p in SEED_LOTS["Collars"]]
    assert lot_value(pairs, "subtract") == -6
    assert lot_value(pairs, "ignore") == 6
    assert lot_value(pairs) == 6


def test_zero_counts_twelve():
    assert value(card(0, "C")) == 12 and value(card(11, "Q")) == 11
    assert score_player({"Collars": ["0C/1Q"]}) == 12 + 0
    assert lot_value([parse_pair("0H/0T")]) == 12


def test_lot_names_and_missing_lots():
    assert score_player({"collars": ["5C/2Q"], "BLOOD": ["1B/3W"]}) == abs(5 - 1) + abs(0 - 1)
    assert score_player({}) == 0


@pytest.mark.parametrize(
    ("lots", "message"),
    [
        ({"Collars": ["13C/2Q"]}, "'13C/2Q'.*numbers run 0-11"),
        ({"Collars": ["2Q/3C"]}, "'2Q/3C'.*a Choice .* then a Force"),
        ({"Collars": ["2H/3Q"]}, "pair '2H/3Q' does not belong in the Collars lot"),
        ({"Hope": ["3H"]}, "not a pair: '3H'"),
        ({"Hope": ["3X/2Q"]}, "'3X/2Q'.*not a card"),
        ({"Hope": ["3H/4B"]}, "'3H/4B'.*a Choice .* then a Force"),
        ({"Spades": ["3H/4Q"]}, "unknown lot 'Spades'"),
    ],
)
def test_malformed_input_names_the_pair(lots, message):
    with pytest.raises(ValueError, match=message):
        score_player(lots)


def test_bad_presum():
    with pytest.raises(ValueError, match="presum"):
        score_player(SEED_LOTS, presum="add")


def test_written_forms_round_trip():
    for c in range(72):
        assert parse_card(card_name(c)) == c
    assert parse_pair("3B/2Q") == (card(3, "B"), card(2, "Q"))
    assert TWIST_NAMES[7] == "Akoa" and TWIST_NAMES[11] == "Stillanivía"
