"""Lith hand categories, ties and the vectorized evaluator (docs/rules.md §2, the rules brief's
examples and table, copied into tests/rules_brief.py)."""

import hashlib
import itertools

import numpy as np
import pytest

from lith_env.cards import CARDS, EXCUSE, card_id, card_ids, deck
from lith_env.hands import (
    CATEGORIES,
    QUALIFIERS,
    beggar_completion,
    category_of,
    classify,
    distribution,
    imposter_choice,
    percentile,
    qualifier_of,
    showdown_result,
    strength,
    strength_table,
    tie_order,
)
from tests.lith_helpers import beggar_distribution
from tests.rules_brief import (
    BRIEF_EXAMPLES,
    BRIEF_TABLE,
    BRIEF_TOTALS,
    EXAMPLE_OVERRIDES,
    KINDRED_SINGLE_FLUSH_PAIRS,
)


def s(*names, **config) -> int:
    """Strength of one hand given by names."""
    return int(strength([card_ids(names)], **config)[0])


def all_hands(pawns_and_courts=True, excuse=False) -> np.ndarray:
    return np.array(list(itertools.combinations(deck(pawns_and_courts, excuse), 3)))


# ----------------------------------------------------------------------------- the rules brief


def test_there_are_24_categories():
    assert len(CATEGORIES) == 24
    assert CATEGORIES[0] == "Doubly Kindred" and CATEGORIES[-1] == "Void"


EXAMPLES = [
    (category, hand)
    for category, pair in BRIEF_EXAMPLES.items()
    for hand in pair
    if hand is not None
]


@pytest.mark.parametrize(("category", "hand"), EXAMPLES, ids=[" / ".join(h) for _, h in EXAMPLES])
def test_seed_example_category(category, hand):
    expected = EXAMPLE_OVERRIDES.get(hand, category)
    assert classify(hand).category == expected


def test_the_overridden_example_is_kindred_pair_by_the_rule_text():
    # The Island, The Window and The Desert are all Locations with a pair of Courts: Kindred
    # Pair, which the ranked list puts above Single Flush Pair, where the rules brief shows it.
    assert classify(["The Island", "The Window", "The Desert"]) == ("Kindred Pair", "kindred")


@pytest.mark.parametrize("category", [c for c, (_, lo) in BRIEF_EXAMPLES.items() if lo])
def test_seed_upper_example_beats_lower(category):
    upper, lower = BRIEF_EXAMPLES[category]
    assert s(*upper) > s(*lower)


def test_every_category_beats_the_next_by_the_examples():
    lowest_of_each = [pair[-1] or pair[0] for pair in BRIEF_EXAMPLES.values()]
    strengths = [s(*hand) for hand in lowest_of_each]
    assert strengths == sorted(strengths, reverse=True)


def test_seed_examples_listed_in_tie_order_except_pairs_first():
    # The rules brief lists each example "in order from high to low according to how they would be
    # evaluated in a tie"; docs/rules.md §2 puts a pair's rank first, which reorders four examples.
    pair_first = {
        ("The Betrayal", "The Mountain", "The Sailor"),
        ("The Castle", "The Journey", "The Savage"),
        ("The Merchant", "The Lunatic", "The Penitent"),
        ("The Pact", "The Forest", "The Discovery"),
    }
    for _, hand in EXAMPLES:
        if hand in pair_first:
            assert tie_order(hand) != list(hand)
            assert (
                CARDS[card_id(tie_order(hand)[0])].rank == CARDS[card_id(tie_order(hand)[1])].rank
            )
        else:
            assert tie_order(hand) == list(hand), hand


# ----------------------------------------------------------------------------- the table


@pytest.mark.parametrize("deck_name", ["extended", "basic"])
def test_enumeration_reproduces_the_seed_table(deck_name):
    rows = {r.category: r for r in distribution(pawns_and_courts=deck_name == "extended")}
    assert list(rows) == list(CATEGORIES)
    assert sum(r.count for r in rows.values()) == BRIEF_TOTALS[deck_name]
    for category, (count, breakdown) in BRIEF_TABLE[deck_name].items():
        row = rows[category]
        if deck_name == "extended" and category == "Kindred Pair":
            assert row.count == count + KINDRED_SINGLE_FLUSH_PAIRS == 123
        elif deck_name == "extended" and category == "Single Flush Pair":
            assert row.count == count - KINDRED_SINGLE_FLUSH_PAIRS == 136
            assert (row.kindred, row.fortune, row.neither) == (0, 30, 106)
        else:
            assert row.count == count, category
            for qualifier, n in breakdown.items():
                assert getattr(row, qualifier) == n, (category, qualifier)
        assert row.kindred + row.fortune + row.neither == row.count
        assert row.probability == pytest.approx(row.count / BRIEF_TOTALS[deck_name])


def test_the_eight_hands_that_differ_from_the_seed_table():
    hands = all_hands()
    keys = strength(hands)
    kindred_pairs = hands[category_of(keys) == CATEGORIES.index("Kindred Pair")]
    differing = []
    for hand in kindred_pairs:
        suits = [set(CARDS[i].suits) for i in hand]
        if suits[0] & suits[1] & suits[2]:
            differing.append(sorted(CARDS[i].name for i in hand))
    assert len(differing) == KINDRED_SINGLE_FLUSH_PAIRS
    assert sorted(["The Desert", "The Island", "The Window"]) in differing


def test_qualifiers_fit_their_categories():
    keys = strength(all_hands())
    cats, quals = category_of(keys), qualifier_of(keys)
    for name in ("Doubly Kindred", "Kindred Pair", "Kindred Single Flush", "Kindred"):
        assert set(quals[cats == CATEGORIES.index(name)]) == {QUALIFIERS.index("kindred")}
    for name in ("Full Spread", "Fortune Single Flush", "Fortune Pair", "Fortune"):
        assert set(quals[cats == CATEGORIES.index(name)]) == {QUALIFIERS.index("fortune")}


def test_golden_order_of_all_hands():
    """Guards the whole evaluator: the sorted order of every hand, ties grouped."""
    digests = {}
    for pawns_and_courts, excuse in [
        (True, None),
        (False, None),
        (True, "imposter"),
        (True, "beggar"),
    ]:
        hands = all_hands(pawns_and_courts, excuse is not None)
        keys = strength(hands, pawns_and_courts=pawns_and_courts, excuse=excuse)
        order = np.lexsort((np.arange(len(keys)), keys))
        dense = np.unique(keys, return_inverse=True)[1]
        blob = np.stack([order, dense[order]]).astype(np.int64).tobytes()
        digests[(pawns_and_courts, excuse)] = hashlib.sha256(blob).hexdigest()[:16]
    assert digests == GOLDEN


GOLDEN = {
    (True, None): "2f775fe702bdbf1f",
    (False, None): "84f2e797bfde9775",
    (True, "imposter"): "0060def908fb88f0",
    (True, "beggar"): "193f91b6840503fc",
}


# ----------------------------------------------------------------------------- ties


def test_qualifier_breaks_ties_before_rank():
    kindred = s("The End", "The Calamity", "The Windfall")  # Crowns sharing Event
    fortune_pawns = s("The Watchman", "The Borderland", "The Harvest")  # P, L, E
    neither_crowns = s("The Huntress", "The Bard", "The Sea")  # P, P, L
    for hand in ("kindred", "fortune_pawns", "neither_crowns"):
        assert category_of(locals()[hand]) == CATEGORIES.index("Trio")
    assert kindred > fortune_pawns > neither_crowns  # Pawn trio beats Crown trio on fortune


def test_pair_rank_comes_before_the_highest_card():
    nines = s("The Pact", "The Merchant", "Ace of Waves")
    eights_with_crown = s("The Diplomat", "The Mill", "The Sea")
    assert classify(["The Pact", "The Merchant", "Ace of Waves"]).category == "Pair"
    assert classify(["The Diplomat", "The Mill", "The Sea"]).category == "Pair"
    assert nines > eights_with_crown


def test_ranks_compare_highest_card_first_then_down():
    # Void hands with the same top card: the second card decides, then the third.
    a = ("The Huntress", "The Betrayal", "The Painter")  # Crown, 8, 3
    b = ("The Huntress", "The Mill", "The Author")  # Crown, 8, 2
    c = ("The Huntress", "The Cave", "The Penitent")  # Crown, 7, 6
    for hand in (a, b, c):
        assert classify(hand) == ("Void", "neither"), hand
    assert s(*a) > s(*b) > s(*c)


def test_suits_break_remaining_ties_card_by_card_high_to_low():
    # Same ranks (Crown, 3, Ace), same category: the Crown's suit decides first.
    moons_crown = ("The Huntress", "The Painter", "Ace of Wyrms")
    suns_crown = ("The Bard", "The Journey", "Ace of Knots")
    assert classify(moons_crown).category == classify(suns_crown).category == "Void"
    assert s(*moons_crown) > s(*suns_crown)
    # Same Crown: the next card's suits compare as a sequence (Moons/Waves > Suns/Knots).
    journey = ("The Sea", "The Journey", "Ace of Knots")
    painter = ("The Sea", "The Painter", "Ace of Wyrms")
    assert classify(journey).category == classify(painter).category == "Void"
    assert s(*journey) > s(*painter)


def test_better_suited_card_of_a_pair_compares_first():
    # Pairs of 8s with an Ace: the first hand's pair is led by the Diplomat (Moons, Suns), the
    # second's by the Mill (Waves, Leaves); that decides before the Aces' suits are reached.
    first = ("The Diplomat", "The Betrayal", "Ace of Waves")
    second = ("The Mill", "The Betrayal", "Ace of Moons")
    assert tie_order(first)[0] == "The Diplomat" and tie_order(second)[0] == "The Mill"
    assert classify(first).category == classify(second).category == "Pair"
    assert s(*first) > s(*second)


def test_card_order_in_a_hand_does_not_matter():
    hands = all_hands()
    base = strength(hands)
    for perm in itertools.permutations(range(3)):
        np.testing.assert_array_equal(strength(hands[:, perm]), base)


def test_distinct_real_hands_never_tie():
    # Every real card has a distinct (rank, suits), so only the Excuse can make equal hands.
    for pawns_and_courts in (True, False):
        keys = strength(all_hands(pawns_and_courts), pawns_and_courts=pawns_and_courts)
        assert len(np.unique(keys)) == len(keys)


def test_runs_follow_the_ladder_of_the_deck_in_play():
    # 9-Crown-? is no run with Pawns and Courts; without them 9 is followed by Crown.
    hand = ["The Sea", "The Darkness", "The Mill"]  # Crown, 9, 8
    assert classify(hand, pawns_and_courts=False).category in {"Run", "Running Single Flush"}
    assert "Run" not in classify(hand).category
    assert classify(["The Huntress", "Ace of Moons", "The Author"]).category != "Run"  # no wrap
    assert classify(["The Sea", "The Island", "The Borderland"]).category == "Running Single Flush"


# ----------------------------------------------------------------------------- the Excuse


@pytest.mark.parametrize("pawns_and_courts", [True, False], ids=["extended", "basic"])
def test_beggar_hand_ranks_just_below_its_weakest_completion(pawns_and_courts):
    """Rule 4: for every pair of real cards, the hand with the beggar is below the pair with
    every real third card of the deck in play, and above every hand (real or beggar) strictly
    below the weakest of those; beggar hands below the same hand split."""
    config = dict(pawns_and_courts=pawns_and_courts, excuse="beggar")
    real = deck(pawns_and_courts)
    real_strengths = np.sort(strength(all_hands(pawns_and_courts), **config))
    # Real hands are worth the same with or without the Excuse in the deck.
    np.testing.assert_array_equal(
        real_strengths,
        np.sort(strength(all_hands(pawns_and_courts), pawns_and_courts=pawns_and_courts)),
    )
    pairs = np.array(list(itertools.combinations(real, 2)))
    beggar = strength(np.column_stack([pairs, np.full(len(pairs), EXCUSE)]), **config)
    weakest = np.empty(len(pairs), dtype=np.int64)
    for i, (a, b) in enumerate(pairs):
        thirds = [c for c in real if c not in (a, b)]
        completions = strength([[a, b, c] for c in thirds], **config)
        weakest[i] = completions.min()
        assert (beggar[i] < completions).all(), [CARDS[a].name, CARDS[b].name]
    # Above every real hand below the weakest completion: the next one down, if any.
    below = np.searchsorted(real_strengths, weakest, side="left") - 1
    has_below = below >= 0
    assert (beggar[has_below] > real_strengths[below[has_below]]).all()
    # Among themselves, beggar hands compare as their weakest completions, equal ones split.
    for i in range(len(pairs)):
        np.testing.assert_array_equal(np.sign(beggar - beggar[i]), np.sign(weakest - weakest[i]))
    assert len(np.unique(weakest)) < len(weakest)  # such splits exist


def test_beggar_reads_as_its_weakest_completion():
    beggar = dict(excuse="beggar")
    # The Bard and The End carry the three types, but the beggar brings nothing: no Fortune
    # Pair. The weakest completion is the pair of Crowns with The Origin (Location, Event).
    hand = ["The Bard", "The End", "The Excuse"]
    assert beggar_completion(hand) == "The Origin"
    assert classify(hand, **beggar) == classify(["The Bard", "The End", "The Origin"])
    assert classify(hand, **beggar) == ("Pair", "neither")
    assert s(*hand, **beggar) < s("The Bard", "The End", "The Origin", **beggar)
    kindred = s("The Author", "The Lunatic", "The Merchant", **beggar)
    assert classify(["The Author", "The Lunatic", "The Merchant"]).category == "Kindred"
    assert s(*hand, **beggar) < kindred  # a Kindred beats it: it is no Fortune Pair
    # Two beggar hands below the same hand split.
    first = ["Ace of Moons", "The Origin", "The Excuse"]
    second = ["Ace of Moons", "The Battle", "The Excuse"]
    assert beggar_completion(first) == "The Battle" and beggar_completion(second) == "The Origin"
    assert s(*first, **beggar) == s(*second, **beggar)
    # Only real cards of the deck in play complete the hand.
    assert beggar_completion(hand, pawns_and_courts=False) == "The Origin"
    with pytest.raises(ValueError, match="no Excuse"):
        beggar_completion(["The Bard", "The End", "The Sea"])


def test_imposter_takes_the_best_card_not_in_the_hand():
    imposter = dict(excuse="imposter")
    hand = ["The Pact", "The Diplomat", "The Excuse"]
    assert classify(hand, **imposter) == ("Running Twin Flush", "neither")
    assert imposter_choice(hand) == "The Harvest"
    assert s(*hand, **imposter) == s("The Harvest", "The Pact", "The Diplomat", **imposter)
    # It may copy a card another player holds: The Origin makes Doubly Kindred here.
    assert (
        classify(["The End", "The Market", "The Excuse"], **imposter).category == "Doubly Kindred"
    )
    # Only cards of the deck in play: without Pawns and Courts, no Harvest.
    assert classify(hand, pawns_and_courts=False, **imposter) == ("Pure Twin Flush", "fortune")
    assert imposter_choice(hand, pawns_and_courts=False) == "The Mountain"


def test_imposter_hand_splits_with_the_hand_it_copies():
    imposter = dict(excuse="imposter")
    keys = strength(all_hands(excuse=True), **imposter)
    with_excuse = (all_hands(excuse=True) == EXCUSE).any(axis=1)
    assert np.isin(keys[with_excuse], keys[~with_excuse]).all()


def test_demon_is_the_engine_coin_flip():
    with pytest.raises(ValueError, match="coin flip"):
        classify(["The Pact", "The Diplomat", "The Excuse"], excuse="demon")
    with pytest.raises(ValueError, match="coin flip"):
        strength([[0, 1, 44]], excuse="demon")


def test_distribution_with_the_excuse():
    for pawns_and_courts, total in ((True, 14190), (False, 7770)):
        for role in ("beggar", "imposter"):
            rows = distribution(pawns_and_courts, role)
            assert sum(r.count for r in rows) == total
    # The imposter only ever improves a hand.
    beggar = {r.category: r.count for r in distribution(True, "beggar")}
    imposter = {r.category: r.count for r in distribution(True, "imposter")}
    assert imposter["Void"] < beggar["Void"]


@pytest.mark.parametrize("pawns_and_courts", [True, False], ids=["extended", "basic"])
def test_beggar_distribution_counts_each_hand_as_its_weakest_completion(pawns_and_courts):
    expected = beggar_distribution(pawns_and_courts)  # enumerated with the reference evaluator
    rows = {r.category: r for r in distribution(pawns_and_courts, "beggar")}
    for category, by_qualifier in expected.items():
        row = rows[category]
        assert (row.kindred, row.fortune, row.neither) == (
            by_qualifier["kindred"],
            by_qualifier["fortune"],
            by_qualifier["neither"],
        ), category
    # The beggar adds hands only where real hands are: no category exists only through it.
    plain = {r.category: r.count for r in distribution(pawns_and_courts)}
    assert all(rows[c].count >= plain[c] for c in CATEGORIES)
    assert {c for c in CATEGORIES if rows[c].count} == {c for c in CATEGORIES if plain[c]}


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("hand", "config", "message"),
    [
        (["The Pact", "The Diplomat"], {}, "exactly three cards, got 2"),
        (["The Pact", "The Diplomat", "The Sea", "The End"], {}, "exactly three cards, got 4"),
        (["The Pact", "pact", "The Sea"], {}, "duplicate card in hand: The Pact"),
        ([3, 3, 4], {}, "duplicate card in hand: Ace of Leaves"),
        (["The Pact", "The Diplomat", "The Excuse"], {}, "The Excuse is not in the deck"),
        (
            ["The Pact", "The Diplomat", "The Consul"],
            {"pawns_and_courts": False},
            "The Consul is not",
        ),
        (["The Pact", "The Diplomat", "The Mountian"], {}, "did you mean 'The Mountain'"),
        ("The Pact", {}, "sequence of three cards"),
        (["The Pact", "The Diplomat", 99], {}, "out of range"),
        (["The Pact", "The Diplomat", "The Sea"], {"excuse": "fool"}, "excuse must be"),
    ],
)
def test_classify_rejects_bad_input(hand, config, message):
    with pytest.raises(ValueError, match=message):
        classify(hand, **config)


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ([0, 1], r"shape \(\.\.\., 3\)"),
        ([[0.0, 1.0, 2.0]], r"integer array"),
        ([[0, 1, 2], [5, 5, 6]], r"hand at index \(1,\) \[5, 5, 6\]: duplicate card"),
        ([[0, 1, 45]], r"card id outside 0-44"),
        ([[-1, 1, 2]], r"card id outside 0-44"),
        ([[0, 1, EXCUSE]], r"The Excuse is not in the deck"),
    ],
)
def test_strength_rejects_bad_input(hands, message):
    with pytest.raises(ValueError, match=message):
        strength(hands)


def test_strength_rejects_cards_outside_the_basic_deck():
    with pytest.raises(ValueError, match="The Watchman is not in the deck in play"):
        strength([[card_id("The Watchman"), 0, 1]], pawns_and_courts=False)


# ----------------------------------------------------------------------------- shapes, percentile


def test_strength_accepts_any_batch_shape_and_integer_dtype():
    hands = all_hands()[:24]
    base = strength(hands)
    assert base.dtype == np.int64 and base.shape == (24,)
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64):
        np.testing.assert_array_equal(strength(hands.astype(dtype)), base)
    np.testing.assert_array_equal(strength(hands.reshape(2, 3, 4, 3)), base.reshape(2, 3, 4))
    assert strength(np.zeros((0, 3), dtype=np.int32)).shape == (0,)
    many = np.tile(all_hands(), (5, 1))  # several blocks of the chunked lookup
    np.testing.assert_array_equal(strength(many), np.tile(strength(all_hands()), 5))


def test_strength_table_is_read_only_and_cached():
    table = strength_table()
    assert table is strength_table()
    with pytest.raises(ValueError):
        table[0] = 1


def test_percentile_is_the_share_of_hands_beaten():
    hands = all_hands()
    p = percentile(hands)
    keys = strength(hands)
    assert ((p > 0) & (p < 1)).all()
    best = np.argmax(keys)
    assert p[best] == pytest.approx(1 - 0.5 / len(hands))
    assert percentile([card_ids(["The End", "The Market", "The Origin"])])[0] == p[best]
    order = np.argsort(keys)
    assert (np.diff(p[order]) > 0).all()
    assert p.mean() == pytest.approx(0.5)


def test_showdown_result_is_the_sign_of_strength_and_averages_the_demon_roles():
    rng = np.random.default_rng(5)
    cards = np.array(deck(True, excuse=True))
    hands = np.stack([rng.choice(cards, 6, replace=False) for _ in range(500)])
    mine, theirs = hands[:, :3], hands[:, 3:]
    for excuse in (None, "imposter", "beggar"):
        deck_hands = ~np.isin(hands, EXCUSE).any(axis=1) if excuse is None else slice(None)
        a = strength(mine[deck_hands], excuse=excuse)
        b = strength(theirs[deck_hands], excuse=excuse)
        got = showdown_result(mine[deck_hands], theirs[deck_hands], excuse=excuse)
        assert np.array_equal(got, np.sign(a - b))
    demon = showdown_result(mine, theirs, excuse="demon")
    halves = [showdown_result(mine, theirs, excuse=role) for role in ("imposter", "beggar")]
    assert np.array_equal(demon, (halves[0] + halves[1]) / 2)
    assert (halves[0] != halves[1]).any()  # hands where the two roles disagree
