"""The game-agnostic search (agents.ismcts): its settings checked at the door, its final
policies, untried actions before any repeat, and the same answers as OpenSpiel's own ISMCTS
bot on Kuhn poker."""

from __future__ import annotations

import random
from typing import ClassVar

import numpy as np
import pytest

from agents.ismcts import SearchSettings, SpielRules, final_policy, search


@pytest.mark.parametrize(
    "kwargs, named",
    [
        ({"iterations": 0}, "iterations"),
        ({"iterations": 2.5}, "iterations"),
        ({"iterations": True}, "iterations"),
        ({"ms": 0}, "ms"),
        ({"ms": float("nan")}, "ms"),
        ({"ms": "10"}, "ms"),
        ({"c": -0.1}, "c"),
        ({"c": float("nan")}, "c"),
        ({"final": "best"}, "final"),
        ({"tree": "deep"}, "tree"),
        ({"select": "ucb"}, "select"),
    ],
)
def test_bad_settings_are_refused_naming_the_setting(kwargs, named):
    with pytest.raises(ValueError, match=rf"^{named}: "):
        SearchSettings(**kwargs)


class Pick:
    """One decision of seat 0 between actions worth 0.1, 0.9 and 0.5 (a forced move first),
    then a forced move to the end: the search needs no hidden cards to be tested."""

    values: ClassVar[dict[str, float]] = {"a": 0.1, "b": 0.9, "c": 0.5}

    def to_act(self, state):
        return None if state[-1] == "end" else 0

    def legal(self, state):
        if state[-1] == "start":
            return ["forced"]
        if state[-1] == "forced":
            return list(self.values)
        return ["end"]

    def apply(self, state, action):
        state.append(action)

    def key(self, state, seat):
        return tuple(state)

    def rollout(self, state, rng):
        while state[-1] != "end":
            state.append("end")
        return [self.values[state[-2]]]


def test_every_action_is_tried_once_before_any_is_tried_again():
    root = search(Pick(), lambda rng: ["start"], SearchSettings(iterations=3), random.Random(0))
    assert {a: stats[0] for a, stats in root.items()} == {"a": 1, "b": 1, "c": 1}
    assert {a: stats[2] for a, stats in root.items()} == {"a": 3, "b": 3, "c": 3}


def test_the_best_action_draws_the_visits_and_the_final_policies_read_them():
    settings = SearchSettings(iterations=200, c=0.3)
    root = search(Pick(), lambda rng: ["start"], settings, random.Random(0))
    visits = {a: stats[0] for a, stats in root.items()}
    assert sum(visits.values()) == 200 and visits["b"] > 150
    legal = ["a", "b", "c"]
    assert final_policy(root, "max_visits", legal) == {"a": 0.0, "b": 1.0, "c": 0.0}
    assert final_policy(root, "max_value", legal) == {"a": 0.0, "b": 1.0, "c": 0.0}
    shares = final_policy(root, "visits", legal)
    assert shares == pytest.approx({a: v / 200 for a, v in visits.items()})


class PickWithPriors(Pick):
    def __init__(self, priors):
        self.priors = priors
        self.asked = 0

    def prior(self, state, seat, legal):
        self.asked += 1
        return [self.priors[a] for a in legal]


def test_puct_asks_for_priors_once_a_node_and_follows_them_then_the_values():
    rules = PickWithPriors({"a": 0.98, "b": 0.01, "c": 0.01})
    few = search(
        rules, lambda rng: ["start"], SearchSettings(iterations=3, select="puct"), random.Random(0)
    )
    assert rules.asked == 1 and few["a"][0] == 3  # a prior this strong is tried first
    assert few["a"][3] == 0.98
    many = search(
        rules,
        lambda rng: ["start"],
        SearchSettings(iterations=400, c=1.0, select="puct"),
        random.Random(0),
    )
    assert max(many, key=lambda a: many[a][0]) == "b"  # the values win out


class Punish:
    """Seat 0 plays safe (0 each) or risky; after risky, seat 1 punishes (-1 to seat 0, +1 to
    seat 1) or lets it pass (+1, -1). A world also deals a card neither seat sees (the first
    item of the state), so the worlds differ in it and in nothing a seat sees."""

    returns: ClassVar[dict[tuple[str, ...], list[float]]] = {
        ("safe",): [0.0, 0.0],
        ("risky", "punish"): [-1.0, 1.0],
        ("risky", "pass"): [1.0, -1.0],
    }

    def to_act(self, state):
        actions = tuple(state[1:])
        return 0 if not actions else 1 if actions == ("risky",) else None

    def legal(self, state):
        return ["safe", "risky"] if len(state) == 1 else ["punish", "pass"]

    def apply(self, state, action):
        state.append(action)

    def key(self, state, seat):
        return (seat, tuple(state[1:]))  # what the seat sees: the actions, not the card

    def rollout(self, state, rng):
        while self.to_act(state) is not None:
            legal = self.legal(state)
            state.append(legal[rng.randrange(len(legal))])
        return self.returns[tuple(state[1:])]


def test_the_other_seat_learns_at_one_node_across_worlds_that_differ_in_what_it_cannot_see():
    """Seat 1's node after risky is reached from every world, so it learns to punish and
    seat 0 learns to play safe. Were it a node a world (keyed by the hidden card too), each
    would be a new leaf, played out at random: risky would look worth 0, as much as safe."""
    root = search(
        Punish(),
        lambda rng: [rng.randrange(10**9)],
        SearchSettings(iterations=400, c=1.4),
        random.Random(0),
    )
    safe, risky = root["safe"], root["risky"]
    assert safe[0] + risky[0] == 400
    # Here risky is tried 15 times at a mean of -0.73; a node a world tries it 74 to 282
    # times (over seeds 0-7) at a mean of -0.22 to 0.12.
    assert risky[0] < 40 and risky[1] / risky[0] < -0.5


def test_ties_share_the_final_policy_and_unvisited_actions_get_nothing():
    root = {"a": [3, 1.0, 5], "b": [3, 2.0, 5], "c": [1, 1.0, 5]}
    assert final_policy(root, "max_visits", ["a", "b", "c", "d"]) == {
        "a": 0.5,
        "b": 0.5,
        "c": 0.0,
        "d": 0.0,
    }
    assert final_policy(root, "max_value", ["a", "b", "c", "d"])["c"] == 1.0


def test_a_time_budget_runs_at_least_one_iteration():
    root = search(Pick(), lambda rng: ["start"], SearchSettings(ms=1e-6), random.Random(0))
    assert sum(stats[0] for stats in root.values()) >= 1


def test_the_same_generator_gives_the_same_search():
    def run():
        settings = SearchSettings(iterations=50)
        return search(Pick(), lambda rng: ["start"], settings, random.Random(4))

    assert run() == run()


# ----------------------------------------------------------------------------- OpenSpiel


KUHN = [  # (cards dealt, actions, the player to act's information state)
    ((0, 2), (), "0"),  # the Jack, first to act
    ((1, 2), (0, 1), "1pb"),  # the Queen, passed and facing a bet
    ((2, 0), (1,), "0b"),  # the Jack facing a bet
    ((0, 2), (1,), "2b"),  # the King facing a bet
]


@pytest.mark.openspiel
def test_kuhn_poker_policies_match_openspiels_ismcts_bot():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("kuhn_poker")
    rules = SpielRules(seed=0)
    for cards, actions, infostate in KUHN:
        state = game.new_initial_state()
        for action in (*cards, *actions):
            state.apply_action(action)
        assert state.information_state_string() == infostate
        settings = SearchSettings(iterations=3000, c=2.0)
        worlds = lambda rng, s=state: rules.sample_world(s, rng)  # noqa: E731
        root = search(rules, worlds, settings, random.Random(1))
        ours = final_policy(root, "visits", state.legal_actions())
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
            2.0,
            3000,
            random_state=np.random.RandomState(1),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT,
        )
        theirs = dict(bot.get_policy(state))
        for action in state.legal_actions():
            assert ours[action] == pytest.approx(theirs[action], abs=0.05), (infostate, action)


@pytest.mark.openspiel
def test_a_flat_search_values_its_actions_against_random_play_after_them():
    pyspiel = pytest.importorskip("pyspiel")
    state = pyspiel.load_game("kuhn_poker").new_initial_state()
    for action in (0, 2):  # the Jack, first to act
        state.apply_action(action)
    rules = SpielRules(seed=0)
    settings = SearchSettings(iterations=4000, c=20.0, tree="flat")  # both well sampled
    root = search(rules, lambda rng: rules.sample_world(state, rng), settings, random.Random(2))
    means = {action: stats[1] / stats[0] for action, stats in root.items()}
    # against random play: a bet is folded to half the time (+1), else called (-2); a pass
    # meets a pass (-1) or a bet, then folds (-1) or calls (-2) at random
    assert means[1] == pytest.approx(0.5 * 1 + 0.5 * -2, abs=0.1)
    assert means[0] == pytest.approx(0.5 * -1 + 0.25 * -1 + 0.25 * -2, abs=0.1)
