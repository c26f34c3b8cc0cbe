"""``ismcts``: a Gendeneía seat that searches (:mod:`agents.ismcts`) before every decision.

It reads its observation back into the table it shows
(:func:`gendeneia_env.worlds.view_from_observation`), deals worlds with the hidden cards (the
other hands and the draw piles' order) placed at random, which is the exact belief here
(``gendeneia_env.worlds``), and searches them. Rollouts play on the engine's state with a
heuristic (``policy``): the engine costs a few microseconds a move, the observation encoding
forty.

Seats in a world are relative, the searching seat being seat 0, so a play onto seat ``k`` is
action id ``2 + k``. Each decision draws its worlds from the agent's own generator, seeded by
``seed`` and ``reset(seed)``: with ``iterations`` the same seed gives the same game; ``ms``
searches as long as the clock allows, which no run repeats.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from agents.ismcts import SearchSettings, draw, final_policy, search
from gendeneia_env.encoding import (
    action_from_id,
    action_id,
    action_mask,
    encode,
    num_actions,
    observation_size,
)
from gendeneia_env.game import DISCARD, KEEP, PASS, GAction, GendeneiaConfig, GendeneiaGame
from gendeneia_env.lookahead import play_delta, removal_delta, score_of
from gendeneia_env.worlds import sample_world, view_from_observation
from tablegame.registry import register

__all__ = [
    "POLICIES",
    "REWARDS",
    "GendeneiaSearchRules",
    "ISMCTSAgent",
    "draw",
    "rollout_move",
]

POLICIES = ("random", "greedy", "spoiler", "mixed", "prior")
REWARDS = ("win", "blend")
MARGIN_SCALE = 24  # a score lead of this many points counts as the blend's full margin
MARGIN_WEIGHT = 0.25


def rollout_move(game: GendeneiaGame, policy: str, rng: random.Random) -> GAction:
    """A rollout's move for the seat to act, on the engine's state: ``random``; ``greedy``
    (keep a hand that lowers the own score, else draw a new one; play it onto the own lots
    when that lowers the score, else onto another seat; remove the pair whose loss lowers the
    own score most); ``spoiler`` (as greedy, but play onto the leading opponent when that
    raises their score by more than the own play would lower the own)."""
    legal = game.legal_actions()
    if policy == "random" or len(legal) == 1:
        return legal[rng.randrange(len(legal))]
    seat, presum, n = game.current, game.config.presum, game.config.num_players
    assert seat is not None
    mine = game.lots[seat]
    if game.phase == "discard":
        choice, force = game.hands[seat]
        return KEEP if play_delta(mine, choice, force, presum) < 0 else DISCARD
    if game.phase == "play":
        choice, force = game.hands[seat]
        gain = -play_delta(mine, choice, force, presum)
        if policy == "spoiler":
            others = [(seat + k) % n for k in range(1, n)]
            leader = min(others, key=lambda s: score_of(game.lots[s], presum))
            harm = play_delta(game.lots[leader], choice, force, presum)
            if harm > max(gain, 0):
                return GAction("play", target=leader)
            if gain <= 0 and harm >= 0:
                return GAction("play", target=leader)
        if gain > 0:
            return GAction("play", target=seat)
        return GAction("play", target=(seat + 1 + rng.randrange(n - 1)) % n)
    best, best_change = (PASS, 0) if PASS in legal else (None, None)
    for action in legal:
        if action.kind == "remove":
            change = removal_delta(mine, action.card, presum)  # type: ignore[arg-type]
            if best_change is None or change < best_change:
                best, best_change = action, change
    assert best is not None
    return best


class GendeneiaSearchRules:
    """The engine as :class:`agents.ismcts.SearchRules`: a seat's information state is its
    view (``observe``), a return its share of the win, plus under ``reward="blend"`` a
    quarter of its score margin over the others' mean (over 24 points, clipped to ±1).
    ``network`` (a ``ppo:`` agent, :class:`agents.ppo.PPOAgent`) gives PUCT's priors and,
    under ``policy="prior"``, plays the rollouts."""

    def __init__(
        self,
        policy: str = "spoiler",
        reward: str = "win",
        network: Any = None,
        config: GendeneiaConfig | None = None,
    ) -> None:
        if policy == "prior" and network is None:
            raise ValueError("policy=prior: needs a network (prior=PATH)")
        self.policy, self.reward, self.network = policy, reward, network
        self.config = config or GendeneiaConfig()

    def to_act(self, state: GendeneiaGame) -> int | None:
        return state.current

    def legal(self, state: GendeneiaGame) -> list[GAction]:
        return state.legal_actions()

    def apply(self, state: GendeneiaGame, action: GAction) -> None:
        state.apply(action)

    def key(self, state: GendeneiaGame, seat: int) -> Any:
        return state.observe(seat)

    def returns(self, state: GendeneiaGame) -> list[float]:
        shares = state.win_shares()
        if self.reward == "win":
            return shares
        scores = state.scores()
        n = len(scores)
        out = []
        for seat, share in enumerate(shares):
            others = (sum(scores) - scores[seat]) / (n - 1)
            margin = max(-1.0, min(1.0, (others - scores[seat]) / MARGIN_SCALE))
            out.append(share + MARGIN_WEIGHT * margin)
        return out

    def network_probabilities(self, state: GendeneiaGame) -> np.ndarray:
        """The network's probability of each action id for the seat to act."""
        seat = state.current
        assert seat is not None and self.network is not None
        obs = encode(state.observe(seat), self.config)
        return self.network.policy_probabilities(obs, action_mask(state))

    def prior(self, state: GendeneiaGame, seat: int, legal: list[GAction]) -> list[float]:
        probabilities = self.network_probabilities(state)
        n = self.config.num_players
        return [float(probabilities[action_id(action, seat, n)]) for action in legal]

    def rollout(self, state: GendeneiaGame, rng: random.Random) -> list[float]:
        policies = [self.policy] * self.config.num_players
        if self.policy == "mixed":  # each seat greedy or spoiler, drawn for this rollout
            policies = [("greedy", "spoiler")[rng.randrange(2)] for _ in policies]
        while state.current is not None:
            if self.policy == "prior" and len(state.legal_actions()) > 1:
                probabilities = self.network_probabilities(state)
                ids = np.flatnonzero(probabilities > 0)
                chosen = int(ids[draw(probabilities[ids], rng)])
                state.apply(action_from_id(state, chosen))
            else:
                state.apply(rollout_move(state, policies[state.current], rng))
        return self.returns(state)


@register("gendeneia", "ismcts")
class ISMCTSAgent:
    """Information-set MCTS from the seat's observation: ``iterations`` worlds a decision (or
    ``ms`` milliseconds of them), exploration ``c``, rollouts by ``policy`` (random, greedy,
    spoiler, mixed: each seat greedy or spoiler at random for each rollout, prior: the
    network, or ``ppo:PATH``: that network file), returns ``reward`` (win, blend), ``final``
    (max_visits, visits, max_value) and ``tree`` (ismcts, or flat Monte Carlo over worlds).
    ``prior``: a ``ppo:`` model file (expert iteration's network) whose policy guides the
    search (PUCT)."""

    needs_observation = True
    path_parameters = ("prior",)  # files Ray ships to the workers (distributed.files)

    def __init__(
        self,
        seed: int | None = None,
        config: GendeneiaConfig | None = None,
        iterations: int = 150,
        ms: float | None = None,
        c: float = 1.4,
        policy: str = "mixed",
        reward: str = "blend",
        final: str = "max_visits",
        tree: str = "ismcts",
        prior: str | None = None,
    ) -> None:
        self.config = config or GendeneiaConfig()
        rollout_network = None
        if isinstance(policy, str) and policy.startswith("ppo:"):  # rollouts by a network
            rollout_network, policy = policy.partition(":")[2], "prior"
            if prior is not None and prior != rollout_network:
                raise ValueError(
                    f"ismcts: policy=ppo:{rollout_network} and prior={prior} name two networks"
                )
        if policy not in POLICIES:
            raise ValueError(f"ismcts: policy must be one of {', '.join(POLICIES)}; got {policy!r}")
        if reward not in REWARDS:
            raise ValueError(f"ismcts: reward must be one of {', '.join(REWARDS)}; got {reward!r}")
        select = "uct" if prior is None else "puct"
        label = "prior" if rollout_network is None else "policy"
        prior = prior if rollout_network is None else rollout_network
        try:
            self.settings = SearchSettings(iterations, ms, c, final, tree, select)
        except ValueError as error:
            raise ValueError(f"ismcts: {error}") from None
        network = None
        if prior is not None:
            import torch

            from agents.ppo import PPOAgent

            torch.set_num_threads(1)  # a small network a node: one thread is fastest
            try:
                network = PPOAgent(str(prior), deterministic=False)
            except ValueError as error:
                raise ValueError(f"ismcts: {label}: {error}") from None
            misfits = network.misfits(observation_size(self.config), num_actions(self.config))
            if misfits:
                space, got, table = misfits[0]
                raise ValueError(
                    f"ismcts: {label}: the model's {space} space has size {got}, "
                    f"the table's {table}"
                )
        try:
            self.rules = GendeneiaSearchRules(policy, reward, network, self.config)
        except ValueError as error:
            raise ValueError(f"ismcts: {error}") from None
        self.seed = seed
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
            self.rng = random.Random(seed)

    def search_policy(self, observation: Any, action_mask: np.ndarray) -> np.ndarray:
        """The probability of each action id after one search (the final policy), drawing
        the search's worlds from the agent's generator."""
        mask = np.asarray(action_mask)
        out = np.zeros(num_actions(self.config), dtype=np.float64)
        legal_ids = np.flatnonzero(mask)
        if len(legal_ids) == 0:
            raise ValueError("action_mask: no legal action")
        if len(legal_ids) == 1:
            out[legal_ids[0]] = 1.0
            return out
        view = view_from_observation(observation, self.config)
        config = self.config
        root = search(
            self.rules, lambda rng: sample_world(view, config, rng), self.settings, self.rng
        )
        legal = list(root)
        n = config.num_players
        for action, p in final_policy(root, self.settings.final, legal).items():
            out[action_id(action, 0, n)] = p
        if (mask[out > 0] == 0).any():
            raise ValueError("action_mask: differs from the legal actions the observation shows")
        return out

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        probabilities = self.search_policy(observation, action_mask)
        self.last_probabilities = probabilities  # what this move was drawn from
        ids = np.flatnonzero(probabilities)
        if len(ids) == 1:
            return int(ids[0])
        return int(ids[draw(probabilities[ids], self.rng)])
