"""The vectorized evaluator against the plain per-hand reference written from the rule text."""

import functools
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lith_env import hands_reference
from lith_env.cards import deck
from lith_env.hands import CATEGORIES, QUALIFIERS, category_of, qualifier_of, strength
from lith_env.hands_reference import reference_category, reference_key

CONFIGS = [
    (True, None),
    (False, None),
    (True, "beggar"),
    (False, "beggar"),
    (True, "imposter"),
    (False, "imposter"),
]


def test_the_production_order_of_categories_and_qualifiers_is_the_seeds():
    """The reference types the rules brief's ranked list in itself; the production evaluator's order
    must be the same, highest first (docs/rules.md §2)."""
    assert len(hands_reference.CATEGORIES) == len(set(hands_reference.CATEGORIES)) == 24
    assert CATEGORIES == hands_reference.CATEGORIES
    assert QUALIFIERS == hands_reference.QUALIFIERS == ("neither", "fortune", "kindred")


@functools.cache
def enumerated(pawns_and_courts, excuse):
    hands = np.array(list(itertools.combinations(deck(pawns_and_courts, excuse is not None), 3)))
    config = dict(pawns_and_courts=pawns_and_courts, excuse=excuse)
    keys = strength(hands, **config)
    ref = [reference_key(h.tolist(), **config) for h in hands]
    return hands, keys, ref


@pytest.mark.slow
@pytest.mark.parametrize(("pawns_and_courts", "excuse"), CONFIGS)
def test_every_hand_same_category_and_qualifier(pawns_and_courts, excuse):
    hands, keys, ref = enumerated(pawns_and_courts, excuse)
    cats, quals = category_of(keys), qualifier_of(keys)
    names, qualifiers = hands_reference.CATEGORIES, hands_reference.QUALIFIERS
    for i, key in enumerate(ref):
        # by name, each side's index read in its own order
        assert CATEGORIES[cats[i]] == names[len(names) - 1 - key[0]], hands[i]
        assert QUALIFIERS[quals[i]] == qualifiers[key[1]], hands[i]


@pytest.mark.parametrize(("pawns_and_courts", "excuse"), CONFIGS)
def test_every_hand_same_order_and_ties(pawns_and_courts, excuse):
    """Sorted by the reference key, strengths rise exactly where the reference key rises."""
    hands, keys, ref = enumerated(pawns_and_courts, excuse)
    order = sorted(range(len(ref)), key=lambda i: ref[i])
    for a, b in itertools.pairwise(order):
        if ref[a] == ref[b]:
            assert keys[a] == keys[b], (hands[a], hands[b])
        else:
            assert keys[a] < keys[b], (hands[a], hands[b])


@settings(max_examples=300, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    data=st.data(),
)
def test_random_pairs_compare_alike(config, data):
    pawns_and_courts, excuse = config
    cards = deck(pawns_and_courts, excuse is not None)
    pick = st.lists(st.sampled_from(cards), min_size=3, max_size=3, unique=True)
    first, second = data.draw(pick), data.draw(pick)
    kw = dict(pawns_and_courts=pawns_and_courts, excuse=excuse)
    ours = np.sign(int(strength([first], **kw)[0]) - int(strength([second], **kw)[0]))
    a, b = reference_key(first, **kw), reference_key(second, **kw)
    assert ours == (a > b) - (a < b)
    assert reference_category(first, **kw)[0] in hands_reference.CATEGORIES


def test_many_random_pairs_in_one_batch():
    rng = np.random.default_rng(7)
    cards = np.array(deck())
    hands = np.array([rng.choice(cards, 3, replace=False) for _ in range(4000)])
    keys = strength(hands)
    ref = [reference_key(h.tolist()) for h in hands]
    for i in range(0, 4000, 2):
        ours = np.sign(keys[i] - keys[i + 1])
        assert ours == (ref[i] > ref[i + 1]) - (ref[i] < ref[i + 1]), (hands[i], hands[i + 1])


def test_reference_beggar_sits_just_below_its_weakest_completion():
    beggar = reference_key(["The Bard", "The End", "The Excuse"], excuse="beggar")
    weakest = reference_key(["The Bard", "The End", "The Origin"])
    assert beggar == (*weakest[:4], 0) and beggar < weakest
    assert reference_category(["The Bard", "The End", "The Excuse"], excuse="beggar") == (
        "Pair",
        "neither",
    )
    with pytest.raises(ValueError, match="the Excuse needs a role"):
        reference_key(["The Bard", "The End", "The Excuse"])
