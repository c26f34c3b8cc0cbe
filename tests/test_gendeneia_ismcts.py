"""The Gendeneía search agent (``ismcts``): it sees only its seat's observation, repeats
under a seed, plays legal moves under every rule set it accepts, finds a winning last play,
and takes part in tournaments and the terminal game like any agent."""

from __future__ import annotations

import io
import json
import random

import numpy as np
import pytest

from agents.gendeneia_ismcts import GendeneiaSearchRules, ISMCTSAgent, rollout_move
from gendeneia_env import play as gendeneia_play
from gendeneia_env.encoding import action_from_id, action_mask, encode
from gendeneia_env.game import GAction, GendeneiaConfig, GendeneiaGame
from gendeneia_env.worlds import unseen_cards
from tablegame.registry import make_agent
from tournaments import cli as tournament


def played_to(config: GendeneiaConfig, seed: int, moves: int) -> GendeneiaGame:
    game, rng = GendeneiaGame(config, seed=seed), random.Random(seed)
    for _ in range(moves):
        game.apply(rng.choice(game.legal_actions()))
    return game


def rearranged(game: GendeneiaGame, rng: random.Random) -> GendeneiaGame:
    """The same table with the cards hidden from the seat to act dealt again: the other
    seats' hands and the draw piles' order differ, nothing the seat sees does."""
    view = game.observe(game.current)
    choices, forces = unseen_cards(view)
    rng.shuffle(choices)
    rng.shuffle(forces)
    others = [s for s in range(view.num_players) if s != view.seat]
    hands = [None] * view.num_players
    for i, seat in enumerate(others):
        hands[seat] = (choices[i], forces[i])
    draws = (choices[len(others) :], forces[len(others) :])
    return GendeneiaGame.from_view(view, game.config, hands, draws, seed=1)


@pytest.mark.parametrize("moves", [4, 21, 40])
def test_states_differing_only_in_hidden_cards_get_the_same_decision(moves):
    config = GendeneiaConfig(twist_any=(0,), twist_suit=(10,))
    game = played_to(config, seed=moves, moves=moves)
    other = rearranged(game, random.Random(moves))
    seat = game.current
    assert other.hands != game.hands and other.current == seat
    obs, other_obs = encode(game.observe(seat), config), encode(other.observe(seat), config)
    assert np.array_equal(obs, other_obs) and np.array_equal(action_mask(game), action_mask(other))
    decisions = []
    for state, seen in ((game, obs), (other, other_obs)):
        agent = ISMCTSAgent(seed=3, config=config, iterations=40)
        mask = action_mask(state)
        decisions.append((agent.search_policy(seen, mask).tolist(), agent.act(seen, mask)))
    assert decisions[0] == decisions[1]


@pytest.mark.parametrize(("moves", "seat"), [(1, 0), (4, 1), (6, 2), (21, 1), (40, 2)])
def test_a_node_is_keyed_by_what_the_seat_to_act_sees(moves, seat):
    """Worlds that differ only in cards the seat to act cannot see (the other hands, the draw
    piles' order) are one node of that seat, whichever seat it is: its statistics are
    shared. Another seat, whose hand differs between them, is at two nodes."""
    config = GendeneiaConfig(twist_any=(0,), twist_suit=(10,))
    rules = GendeneiaSearchRules(config=config)
    game = played_to(config, seed=moves, moves=moves)
    assert game.current == seat
    for seed in range(5):
        other = rearranged(game, random.Random(seed))
        assert other.hands != game.hands
        key, other_key = rules.key(game, seat), rules.key(other, seat)
        assert key == other_key and hash(key) == hash(other_key)
        for watcher in set(range(config.num_players)) - {seat}:
            same = game.hands[watcher] == other.hands[watcher]
            assert (rules.key(game, watcher) == rules.key(other, watcher)) == same


@pytest.mark.parametrize("final", ["max_visits", "visits"])
def test_the_last_probabilities_are_the_search_the_move_was_drawn_from(final):
    """After a move, ``last_probabilities`` (what the browser game shows) is that move's
    search policy: a twin seeded alike searches the same observation to the same numbers,
    and the move played has weight (all of it under max_visits, barring ties)."""
    config = GendeneiaConfig()
    searched = 0
    for moves in (0, 3, 5, 9):
        game = played_to(config, seed=moves, moves=moves)
        seat, mask = game.current, action_mask(game)
        if mask.sum() < 2:
            continue
        seen = encode(game.observe(seat), config)
        agent = ISMCTSAgent(seed=7, config=config, iterations=30, final=final)
        twin = ISMCTSAgent(seed=7, config=config, iterations=30, final=final)
        choice = agent.act(seen, mask)
        expected = twin.search_policy(seen, mask)
        np.testing.assert_array_equal(agent.last_probabilities, expected)
        assert expected[choice] > 0
        if final == "max_visits":
            assert expected[choice] == expected.max() >= 0.5
        searched += 1
    assert searched >= 3


def test_the_same_seed_gives_the_same_game_and_reset_reproduces_it():
    config = GendeneiaConfig(max_rounds=4)

    def game_of(agent):
        game = GendeneiaGame(config, seed=9)
        other = make_agent("spoiler", "gendeneia", seed=1, config=config)
        while not game.is_over:
            seat, mask = game.current, action_mask(game)
            actor = agent if seat == 0 else other
            game.apply(action_from_id(game, actor.act(encode(game.observe(seat), config), mask)))
        return game.actions

    agent = ISMCTSAgent(seed=5, config=config, iterations=25, final="visits")
    first = game_of(agent)
    agent.reset(seed=5)
    assert game_of(agent) == first
    assert game_of(ISMCTSAgent(seed=5, config=config, iterations=25, final="visits")) == first
    assert game_of(ISMCTSAgent(seed=6, config=config, iterations=25, final="visits")) != first


@pytest.mark.parametrize(
    "config, options",
    [
        (GendeneiaConfig(max_rounds=3), {"policy": "random", "tree": "flat"}),
        (
            GendeneiaConfig(
                num_players=4, presum="ignore", twist_any=(0, 11), twist_any_rule="must"
            ),
            {"policy": "greedy", "reward": "blend"},
        ),
        (
            GendeneiaConfig(
                num_players=2, discard_ends_turn=True, max_rounds=None, max_reshuffles=1
            ),
            {"final": "max_value"},
        ),
        (
            GendeneiaConfig(num_players=5, presum="subtract", twist_suit=(6, 10), max_rounds=2),
            {"final": "visits", "c": 1.4},
        ),
        (GendeneiaConfig(round_lots=True, twist_any=(0,), max_rounds=4), {"policy": "mixed"}),
    ],
    ids=["3p", "4p-twists", "2p-discard-ends", "5p-subtract", "3p-round-lots"],
)
def test_whole_games_under_the_variants_take_only_legal_actions(config, options):
    n = config.num_players
    agents = [ISMCTSAgent(seed=s, config=config, iterations=12, **options) for s in range(n)]
    game = GendeneiaGame(config, seed=2)
    while not game.is_over:
        seat, mask = game.current, action_mask(game)
        choice = agents[seat].act(encode(game.observe(seat), config), mask)
        assert mask[choice], f"seat {seat} chose {choice}, illegal under {mask}"
        game.apply(action_from_id(game, choice))
    assert sorted(game.card_locations()) == list(range(72))


def last_plays_with_one_winner(limit: int = 4):
    """Last decisions of one-round games (the last seat's play) where exactly one target
    wins the game for the seat: (game, the target's action id)."""
    config = GendeneiaConfig(max_rounds=1)
    found = []
    for seed in range(400):
        game, rng = GendeneiaGame(config, seed=seed), random.Random(seed)
        while not (game.turns_in_round == 2 and game.phase == "play"):
            game.apply(rng.choice(game.legal_actions()))
        seat, wins = game.current, []
        for target in range(3):
            after = game.clone()
            after.apply(GAction("play", target=target))
            assert after.is_over
            wins.append(after.win_shares()[seat] == 1.0)
        if sum(wins) == 1:
            found.append((game, 2 + (wins.index(True) - seat) % 3))
        if len(found) == limit:
            return config, found
    raise AssertionError("too few positions found")


@pytest.mark.parametrize("policy", ["random", "spoiler"])
def test_the_search_finds_the_only_winning_last_play(policy):
    config, found = last_plays_with_one_winner()
    for game, winning_id in found:
        agent = ISMCTSAgent(seed=0, config=config, iterations=30, policy=policy)
        seen = encode(game.observe(game.current), config)
        assert agent.act(seen, action_mask(game)) == winning_id


def test_rollout_moves_are_legal_and_the_spoiler_hits_the_leader():
    config = GendeneiaConfig()
    rng = random.Random(0)
    for seed in range(30):
        game = GendeneiaGame(config, seed=seed)
        while not game.is_over:
            for policy in ("random", "greedy", "spoiler"):
                assert rollout_move(game, policy, rng) in game.legal_actions()
            game.apply(rollout_move(game, "spoiler", rng))


@pytest.mark.parametrize(
    "spec, message",
    [
        ("ismcts:iterations=0", "ismcts: iterations: must be a positive integer"),
        ("ismcts:ms=-5", "ismcts: ms: must be a positive number"),
        (
            "ismcts:policy=ppo",
            "ismcts: policy must be one of random, greedy, spoiler, mixed, prior",
        ),
        ("ismcts:policy=prior", "ismcts: policy=prior: needs a network"),
        ("ismcts:prior=nowhere.zip", "ismcts: prior: ppo: no model file at 'nowhere.zip'"),
        ("ismcts:reward=score", "ismcts: reward must be one of win, blend"),
        ("ismcts:final=best", "ismcts: final: must be one of max_visits, visits, max_value"),
        ("ismcts:depth=3", "bad parameter 'depth=3'"),
    ],
)
def test_bad_specs_are_errors_naming_the_parameter(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, "gendeneia", config=GendeneiaConfig())


def test_a_mask_the_observation_does_not_allow_is_an_error():
    config = GendeneiaConfig()
    game = played_to(config, seed=1, moves=2)
    mask = np.zeros_like(action_mask(game))
    mask[-1] = mask[-2] = 1  # removals, in a play phase
    agent = ISMCTSAgent(seed=0, config=config, iterations=5)
    with pytest.raises(ValueError, match="action_mask"):
        agent.act(encode(game.observe(game.current), config), mask)


def test_a_tournament_ranks_it_beside_the_heuristics(tmp_path, capsys):
    argv = ["--game", "gendeneia", "--players", "3", "--agents", "ismcts:iterations=8,spoiler"]
    argv += ["--lineup", "0,1,1", "--games", "6", "--seed", "3", "--out", str(tmp_path)]
    assert tournament.main(argv) == 0
    results = json.loads((tmp_path / "results.json").read_text())["agents_results"]
    assert results["ismcts:iterations=8"]["games"] == 6 and results["spoiler"]["games"] == 12


def test_a_person_plays_against_it_in_the_terminal(tmp_path, capsys):
    argv = ["--seed", "2", "--bots", "ismcts:iterations=5,spoiler", "--rounds", "2"]
    argv += ["--history", str(tmp_path / "game.json")]
    assert gendeneia_play.main(argv, stdin=io.StringIO("1\n" * 200)) == 0
    assert "The game is over" in capsys.readouterr().out


def test_a_network_plays_the_rollouts_named_as_policy_ppo_path(tmp_path):
    from training.expert_iteration import ExItConfig, new_model

    model = tmp_path / "net.zip"
    new_model(ExItConfig()).save(model)
    config = GendeneiaConfig(max_rounds=2)
    agent = make_agent(
        f"ismcts:policy=ppo:{model}:iterations=6", "gendeneia", seed=1, config=config
    )
    assert agent.rules.policy == "prior" and agent.rules.network is not None
    assert agent.settings.select == "uct"  # rollouts only: no PUCT without prior=
    same = make_agent(f"ismcts:policy=prior:prior={model}:iterations=6", "gendeneia", config=config)
    assert same.settings.select == "puct"
    game = GendeneiaGame(config, seed=3)
    while not game.is_over:
        seat = game.current
        choice = agent.act(encode(game.observe(seat), config), action_mask(game))
        game.apply(action_from_id(game, choice))
    with pytest.raises(ValueError, match="ismcts: policy: ppo: no model file at 'gone.zip'"):
        make_agent("ismcts:policy=ppo:gone.zip", "gendeneia", config=config)
    with pytest.raises(ValueError, match="name two networks"):
        make_agent(f"ismcts:policy=ppo:{model}:prior=other.zip", "gendeneia", config=config)
