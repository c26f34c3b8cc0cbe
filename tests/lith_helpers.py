"""Helpers for Lith engine tests: stacked decks and random legal play."""

from __future__ import annotations

import copy
import functools
import itertools
import random
from collections import Counter

from hypothesis import strategies as st

from agents.lith_heuristics import CallerAgent
from lith_env.cards import EXCUSE, card_id, deck
from lith_env.game import Action, LegalActions, LithConfig, LithHand
from lith_env.hands import CATEGORIES, QUALIFIERS
from lith_env.hands_reference import reference_key


def lith_configs(
    starting_chips: st.SearchStrategy | None = None,
    ante: st.SearchStrategy | None = None,
    max_hands: st.SearchStrategy | None = None,
) -> st.SearchStrategy[LithConfig]:
    """Hypothesis: table rules of every kind (players, structure, deck, Excuse), with the given
    stacks, antes and match lengths (by default 1-40 chips, antes 0-3, 1-6 hands)."""
    return st.builds(
        LithConfig,
        num_players=st.integers(2, 10),
        betting=st.sampled_from(["limit", "pot-limit", "no-limit"]),
        pawns_and_courts=st.booleans(),
        excuse=st.sampled_from([None, "beggar", "imposter", "demon"]),
        starting_chips=st.integers(1, 40) if starting_chips is None else starting_chips,
        ante=st.integers(0, 3) if ante is None else ante,
        max_hands=st.integers(1, 6) if max_hands is None else max_hands,
    )


def stacked_hand(
    config: LithConfig,
    stacks: list[int],
    dealer: int,
    hands: dict[int, list[str]],
    then: list[str] = (),
    demon_heads: bool = False,
) -> LithHand:
    """A hand whose deal gives ``hands[seat]`` to each seat, with ``then`` on top of the rest of
    the deck (the cards drawn in exchanges, in order)."""
    n = config.num_players
    order = [s for s in ((dealer + 1 + i) % n for i in range(n)) if stacks[s] > 0]
    top: list[int] = []
    for k in range(3):
        for seat in order:
            top.append(card_id(hands[seat][k]))
    top += [card_id(c) for c in then]
    rest = [c for c in config.deck if c not in top]
    return LithHand(config, stacks, dealer, top + rest, demon_heads=demon_heads)


def random_action(legal: LegalActions, rng: random.Random) -> Action:
    """A uniformly chosen legal action; bet/raise amounts uniform over the legal range."""
    choices = list(legal.actions)
    if legal.raise_kind is not None:
        choices.append(Action(legal.raise_kind, amount=rng.randint(legal.min_to, legal.max_to)))
    return rng.choice(choices)


def snapshot(obj) -> dict:
    """A deep copy of an engine's state, for checking that nothing changed."""
    return copy.deepcopy({k: v for k, v in vars(obj).items() if k != "_legal"})  # _legal: a cache


def play(hand: LithHand, *actions: Action) -> LithHand:
    for a in actions:
        hand.apply(a)
    return hand


FOLD, CHECK, CALL, KEEP = Action("fold"), Action("check"), Action("call"), Action("keep")


def bet(x: int) -> Action:
    return Action("bet", amount=x)


def raise_to(x: int) -> Action:
    return Action("raise", amount=x)


def discard(name: str) -> Action:
    return Action("discard", card=card_id(name))


class PatientCaller(CallerAgent):
    """The built-in caller, but it fails the test after ``limit`` decisions instead of letting
    an env that never hands the turn back run forever."""

    def __init__(self, config: LithConfig, limit: int = 5_000) -> None:
        super().__init__(config=config)
        self.limit, self.calls = limit, 0

    def _count(self) -> None:
        self.calls += 1
        if self.calls > self.limit:
            raise RuntimeError(f"still playing after {self.limit} decisions: the env is stuck")

    def act(self, observation, action_mask):
        self._count()
        return super().act(observation, action_mask)

    def act_batch(self, observations, action_masks):
        self._count()
        return super().act_batch(observations, action_masks)


@functools.cache
def beggar_distribution(pawns_and_courts: bool) -> dict[str, dict[str, int]]:
    """Category -> qualifier -> number of hands of the deck with the Excuse as the beggar,
    enumerated from the rule text with the plain reference evaluator: a hand of real cards
    counts as itself; a hand with the Excuse as the weakest hand its two other cards make
    with a real third card (the beggar ranks just below that hand)."""
    real = deck(pawns_and_courts)
    key = {
        frozenset(h): reference_key(h, pawns_and_courts=pawns_and_courts)
        for h in itertools.combinations(real, 3)
    }
    counted = list(key.values())
    for a, b in itertools.combinations(real, 2):
        counted.append(min(key[frozenset((a, b, c))] for c in real if c not in (a, b)))
    counts = Counter((CATEGORIES[len(CATEGORIES) - 1 - k[0]], QUALIFIERS[k[1]]) for k in counted)
    assert len(counted) == len(list(itertools.combinations([*real, EXCUSE], 3)))
    return {c: {q: counts[(c, q)] for q in QUALIFIERS} for c in CATEGORIES}


def one_round_exploitability(model_path) -> float:
    """The exact exploitability (chips a hand) of a PPO model's sampling policy on the
    one-round heads-up game."""
    from games import game_config
    from lith_solver.exploitability import best_response_to, solvable_game
    from tablegame.registry import make_agent

    config = game_config("lith", 2, {"rounds": 1})
    agent = make_agent(f"ppo:{model_path}:deterministic=false", "lith", config=config)
    return best_response_to(agent, solvable_game(config))["exploitability"]
