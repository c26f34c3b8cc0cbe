"""Built-in agents: spec strings, the clever exchange, betting styles, Gendeneía heuristics, ppo."""

import re

import gymnasium as gym
import numpy as np
import pytest

import gendeneia_env
import lith_env  # noqa: F401  (registers Lith-v0)
from agents.lith_heuristics import BluffAgent, CallerAgent, RockAgent, TagAgent
from gendeneia_env.encoding import encode as g_encode
from lith_env.cards import card_ids
from lith_env.encoding import action_mask, encode
from lith_env.exchange import best_discard, discard_values, unseen_cards
from lith_env.game import LithConfig
from tablegame.registry import make_agent
from tests.gendeneia_helpers import arrange, new_game
from tests.lith_helpers import CHECK, bet, stacked_hand

# ----------------------------------------------------------------------------- specs


def test_specs_with_parameters():
    agent = make_agent("bluffer:freq=0.5", "lith", seed=1)
    assert isinstance(agent, BluffAgent) and agent.freq == 0.5
    tag = make_agent("tag:bet=0.6:raise=0.9,0.9,0.95", "lith")
    assert tag.bet_at == (0.6, 0.6, 0.6) and tag.raise_at == (0.9, 0.9, 0.95)


@pytest.mark.parametrize(
    ("spec", "game", "message"),
    [
        (
            "maniac",
            "lith",
            "unknown agent 'maniac' for lith; built-in agents: abstract, bluffer, caller",
        ),
        ("greedy", "lith", "unknown agent 'greedy' for lith"),
        (
            "tag",
            "gendeneia",
            "unknown agent 'tag' for gendeneia; built-in agents: greedy, ismcts, mixture, ppo",
        ),
        ("bluffer:frequency=0.3", "lith", "bad parameter 'frequency=0.3'; parameters: freq=..."),
        ("bluffer:freq", "lith", "bad parameter 'freq'"),
        ("bluffer:freq=2", "lith", "freq: a probability"),
        ("tag:bet=0.1,0.2", "lith", "bet: three thresholds"),
        ("ppo", "lith", "needs path"),
        ("ppo:/no/such/model.zip", "lith", "no model file at '/no/such/model.zip'"),
        ("", "lith", "non-empty string"),
        ("random", "chess", "unknown game 'chess'"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec, game, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, game)


def test_corrupt_model_file(tmp_path):
    path = tmp_path / "model.zip"
    path.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="cannot load a MaskablePPO model from"):
        make_agent(f"ppo:{path}", "lith")


# ----------------------------------------------------------------------------- Lith exchange


def test_exchange_discards_the_card_that_helps_most_and_keeps_the_best_hands():
    hand = card_ids(["The Pact", "The Diplomat", "Ace of Wyrms"])
    values = discard_values(hand, unseen_cards(hand))
    assert np.argmax(values[:3]) == 2 and values[2] > values[3]  # the Ace goes
    assert best_discard(hand, unseen_cards(hand)) == card_ids(["Ace of Wyrms"])[0]
    top = card_ids(["The End", "The Market", "The Origin"])
    assert best_discard(top, unseen_cards(top)) is None  # nothing beats Doubly Kindred


def test_exchange_values_are_exact_means_over_unseen_cards():
    from lith_env.hands import percentile

    hand = card_ids(["The Sea", "The Mill", "Ace of Knots"])
    unseen = unseen_cards(hand)[:10]
    expected = np.mean([percentile([[hand[0], hand[1], c]])[0] for c in unseen])
    assert discard_values(hand, unseen)[2] == pytest.approx(expected)


def lith_decision(agent, hands, actions=(), seat=None, config=None):
    config = config or LithConfig(num_players=2)
    hand = stacked_hand(
        config, [100] * config.num_players, dealer=config.num_players - 1, hands=hands
    )
    for a in actions:
        hand.apply(a)
    seat = hand.current if seat is None else seat
    return agent.act(encode(hand.observe(seat), config), action_mask(hand)), hand


STRONG = ["The End", "The Market", "The Origin"]
WEAK = ["The Consul", "The Painter", "Ace of Wyrms"]
MIDDLE = ["The Diplomat", "The Mill", "Ace of Waves"]


def test_agents_exchange_through_the_mask():
    agent = TagAgent(seed=0)
    hands = {
        0: ["The Pact", "The Diplomat", "Ace of Wyrms"],
        1: ["The Sea", "The Island", "The Mill"],
    }
    action, hand = lith_decision(agent, hands, [CHECK, CHECK])
    assert hand.phase == "exchange"
    cards = sorted(card_ids(["The Pact", "The Diplomat", "Ace of Wyrms"]))
    assert action == 3 + 1 + cards.index(card_ids(["Ace of Wyrms"])[0])  # discard the Ace


def test_betting_styles():
    # Seat 0 opens; seat 1 faces a bet of 2.
    assert lith_decision(TagAgent(), {0: STRONG, 1: WEAK})[0] == 2  # tag bets a strong hand
    assert lith_decision(TagAgent(), {0: WEAK, 1: STRONG})[0] == 1  # and checks a weak one
    assert lith_decision(TagAgent(), {0: STRONG, 1: WEAK}, [bet(2)])[0] == 0  # folds weak to a bet
    assert lith_decision(TagAgent(), {0: WEAK, 1: STRONG}, [bet(2)])[0] == 2  # raises strong
    assert lith_decision(RockAgent(), {0: WEAK, 1: STRONG}, [bet(2)])[0] == 1  # rock only calls
    assert lith_decision(RockAgent(), {0: STRONG, 1: WEAK})[0] == 1  # and never bets
    assert lith_decision(CallerAgent(), {0: STRONG, 1: WEAK}, [bet(2)])[0] == 1
    assert lith_decision(BluffAgent(freq=1.0), {0: WEAK, 1: STRONG})[0] == 2  # bluffs weak
    assert lith_decision(BluffAgent(freq=0.0), {0: WEAK, 1: STRONG})[0] == 1


def _play_episode(env, agent, seed: int, max_steps: int) -> tuple[float, dict, int]:
    """The learner's episode from ``seed``, played by ``agent`` with every action checked
    legal: its summed reward, the last info and the number of its decisions."""
    obs, info = env.reset(seed=seed)
    total = 0.0
    for step in range(1, max_steps + 1):
        action = agent.act(obs, info["action_mask"])
        assert info["action_mask"][action], f"illegal action {action} at step {step}"
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        if terminated or truncated:
            assert terminated and not truncated
            return total, info, step
    pytest.fail(f"the episode from seed {seed} was not over after {max_steps} decisions")


def test_agents_play_whole_games_in_every_structure():
    for betting in ("limit", "pot-limit", "no-limit"):
        env = gym.make(
            "Lith-v0", num_players=4, betting=betting, opponents=["tag", "rock", "bluffer"],
            episode="match", max_hands=3,
        ).unwrapped  # fmt: skip
        agent = make_agent("caller", "lith", seed=0)
        for seed in range(4):
            # a hand asks caller 14 decisions at most (a check and three calls a round, two
            # exchanges); these seeds take 16 to 19 for the three hands
            total, info, steps = _play_episode(env, agent, seed, max_steps=3 * 14)
            table = env.table
            assert steps >= 3  # a decision in each hand at least
            # with these seeds nobody busts: the match ends at its third hand
            assert table.is_over and table.game.hands_played == 3, (betting, seed)
            assert sum(table.game.stacks) == 400  # chips conserved, hand after hand
            assert info["returns"].sum() == 0
            assert info["returns"].tolist() == [s - 100 for s in table.game.stacks]
            assert total == info["returns"][env.seat]  # rewards add up to the result


# ----------------------------------------------------------------------------- Gendeneía


def g_decision(agent, game, seat=0):
    from gendeneia_env.encoding import action_mask as g_mask

    return agent.act(g_encode(game.observe(seat), game.config), g_mask(game))


def test_greedy_plays_on_its_own_lots_when_that_lowers_its_score():
    # Collars 0, Hope 5, Blood 5: score 5. 5C onto its Collars makes it 0.
    lots = {0: {"Hope": ["5H/3Q"], "Blood": ["5B/1Q"]}}
    game = arrange(new_game(), hands={0: "5C/2Q"}, lots=lots)
    greedy = make_agent("greedy", "gendeneia", seed=0)
    assert g_decision(greedy, game) == 0  # keep: no new hand is expected to do better
    game.apply(gendeneia_env.GAction("keep"))
    assert g_decision(greedy, game) == 2  # onto its own lots


def test_greedy_dumps_a_harmful_pair_elsewhere():
    game = arrange(
        new_game(), hands={0: "9B/2Q"}, lots={0: {"Collars": ["1C/1Q"], "Hope": ["1H/1Q"]}}
    )
    game.apply(gendeneia_env.GAction("keep"))
    target = g_decision(make_agent("greedy", "gendeneia", seed=0), game)
    assert target in (3, 4)  # not its own lots (2)


def test_spoiler_hits_the_leading_opponent():
    game = arrange(
        new_game(),
        hands={0: "11C/4Q"},
        lots={
            0: {"Collars": ["5C/1Q"]},
            2: {"Collars": ["1C/1W"], "Blood": ["1B/2W"]},
            1: {"Hope": ["9H/1Q"]},
        },
    )
    game.apply(gendeneia_env.GAction("keep"))
    # Seat 2 leads (score 0 + 1 = 1); 11C there costs it 11; on my own lots it would cost me.
    assert g_decision(make_agent("spoiler", "gendeneia", seed=0), game) == 2 + 2


def test_gendeneia_agents_play_whole_games():
    env = gym.make(
        "Gendeneia-v0",
        num_players=4,
        opponents=["greedy", "spoiler", "random"],
        twist_any=(0, 11, 5),
    ).unwrapped
    agent = make_agent("greedy", "gendeneia", seed=0)
    for seed in (1, 2):
        # these games take the learner some 20 decisions
        total, info, steps = _play_episode(env, agent, seed, max_steps=500)
        game = env.table.game
        assert game.is_over and steps >= 1
        assert sorted(game.card_locations()) == list(range(72))  # every card, once
        assert info["returns"].sum() == pytest.approx(0, abs=1e-9)
        assert total == pytest.approx(info["returns"][env.seat], abs=1e-9)
        assert env.table.returns()[env.seat] == pytest.approx(info["returns"][env.seat])


# ----------------------------------------------------------------------------- ppo


@pytest.mark.slow
def test_ppo_agent_loads_a_trained_model_and_acts_legally(tmp_path):
    from sb3_contrib import MaskablePPO

    env = gym.make("Lith-v0", opponents="caller").unwrapped
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=16, n_epochs=1, seed=0)
    model.learn(64)
    model.save(tmp_path / "model.zip")
    agent = make_agent(f"ppo:{tmp_path / 'model.zip'}", "lith")
    obs, info = env.reset(seed=0)
    for _ in range(20):
        action = agent.act(obs, info["action_mask"])
        assert info["action_mask"][action]
        obs, _, done, _, info = env.step(action)
        if done:
            obs, info = env.reset()
    wrong = gym.make("Lith-v0", num_players=3).unwrapped
    obs, info = wrong.reset(seed=0)
    with pytest.raises(ValueError, match="expects observations of shape"):
        agent.act(obs, info["action_mask"])


def test_ppo_spec_parameters_choose_the_argmax_or_the_sampling_policy(tmp_path):
    from sb3_contrib import MaskablePPO

    env = gym.make("Lith-v0", opponents="caller").unwrapped
    MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=16, n_epochs=1, seed=0).save(
        tmp_path / "model.zip"
    )
    path = tmp_path / "model.zip"
    assert make_agent(f"ppo:{path}", "lith").deterministic is True
    sampler = make_agent(f"ppo:{path}:deterministic=false", "lith", seed=3)
    assert sampler.deterministic is False and sampler.path == path
    # the untrained policy is near uniform: sampling gives several actions where the argmax
    # always gives one, and the same seed gives the same draws
    obs, info = env.reset(seed=0)
    mask = np.ones_like(info["action_mask"])
    draws = []
    for _ in range(2):
        sampler.reset(seed=3)
        draws.append([sampler.act(obs, mask) for _ in range(30)])
    assert draws[0] == draws[1] and len(set(draws[0])) > 1
    argmax = make_agent(f"ppo:{path}:deterministic=true", "lith")
    assert len({argmax.act(obs, mask) for _ in range(10)}) == 1
    with pytest.raises(ValueError, match=r"bad parameter 'greedy=1'; parameters: deterministic"):
        make_agent(f"ppo:{path}:greedy=1", "lith")
    with pytest.raises(ValueError, match="no model file"):
        make_agent("ppo:deterministic=false", "lith")


def test_env_opponents_get_the_rules():
    env = gym.make("Lith-v0", opponents="tag", pawns_and_courts=False).unwrapped
    assert env.opponents[0].config.pawns_and_courts is False


def test_uniform_legal_draws_legal_actions_uniformly():
    from tablegame.agent import uniform_legal

    rng = np.random.default_rng(0)
    masks = (rng.random((5000, 7)) < 0.5).astype(np.int8)
    masks[:, 1] = 1  # at least one legal action per row
    chosen = uniform_legal(masks, rng)
    assert masks[np.arange(5000), chosen].all()
    fixed = np.tile(np.array([[1, 0, 1, 1, 0, 0, 1]], dtype=np.int8), (40_000, 1))
    shares = np.bincount(uniform_legal(fixed, rng), minlength=7) / 40_000
    np.testing.assert_allclose(shares, [0.25, 0, 0.25, 0.25, 0, 0, 0.25], atol=0.01)
    wide = np.zeros((100, 42), dtype=np.int8)  # beyond the pattern table: keys and argmax
    wide[:, [3, 40]] = 1
    assert set(uniform_legal(wide, rng).tolist()) == {3, 40}


def test_legal_ids_are_flatnonzero_for_every_mask_kind():
    from tablegame.agent import legal_ids

    rng = np.random.default_rng(3)
    for dtype in (np.int8, bool, np.int64):
        for _ in range(200):
            mask = (rng.random(rng.integers(1, 40)) < 0.4).astype(dtype)
            assert legal_ids(mask) == tuple(np.flatnonzero(mask).tolist())
    # same bytes, other dtype: not confused
    assert legal_ids(np.array([1, 0], dtype=np.int8)) == (0,)
    assert legal_ids(np.array([256], dtype=np.int16)) == (0,)


def test_random_agent_draws_as_it_always_did():
    """RandomAgent picks legal[rng.integers(len(legal))]: the same decisions for the same seed
    as before its legal ids were remembered per mask (so seeded results stay put)."""
    agent = make_agent("random", "lith", seed=11)
    rng = np.random.default_rng(11)
    masks = np.random.default_rng(0).random((500, 7)) < 0.5
    masks[:, 1] = True
    for mask in masks.astype(np.int8):
        legal = np.flatnonzero(mask)
        assert agent.act(None, mask) == int(legal[rng.integers(len(legal))])


# ----------------------------------------------------------------------------- help texts


VALID_VALUES = {  # a parameter that 0.5 does not suit
    ("bluffer", "freq"): "0.3",
    ("ismcts", "iterations"): "5",
    ("ismcts", "policy"): "greedy",
    ("ismcts", "reward"): "blend",
    ("ismcts", "final"): "visits",
    ("ismcts", "tree"): "flat",
    ("ismcts", "buckets"): "5",
    ("ismcts", "belief"): "tag",
}
VALID_FOR_GAME = {("lith", "ismcts", "policy"): "caller"}  # where the games' values differ


def test_the_tournament_help_lists_every_agent_with_parameters_make_agent_takes(tmp_path):
    from tablegame.registry import AGENTS, agent_catalogue
    from training.expert_iteration import ExItConfig, new_model

    model = tmp_path / "gendeneia.zip"  # for ismcts's prior: an untrained 3-player network
    new_model(ExItConfig()).save(model)
    valid = {**VALID_VALUES, ("ismcts", "prior"): str(model)}

    for game in ("lith", "gendeneia"):
        entries = re.findall(r"([\w:]+)(?: \(([^)]*)\))?(?:, |$)", agent_catalogue(game))
        listed = {name: rest.split(", ") if rest else [] for name, rest in entries}
        assert {name.split(":")[0] for name in listed} == set(AGENTS[game])
        for name, parameters in listed.items():
            if ":" in name:  # ppo:PATH
                continue
            make_agent(name, game)
            for p in parameters:  # each listed parameter is one make_agent accepts
                value = VALID_FOR_GAME.get((game, name, p), valid.get((name, p), "0.5"))
                make_agent(f"{name}:{p}={value}", game)
    assert "bluffer (freq, bet, raise, call)" in agent_catalogue("lith")
    assert "ppo:PATH" in agent_catalogue("gendeneia")


def test_a_parameter_naming_an_agent_that_loads_a_file_keeps_its_path():
    from tablegame.registry import split_spec

    assert split_spec("ismcts:policy=ppo:runs/x/m.zip:iterations=5", "gendeneia") == (
        "ismcts",
        None,
        ["policy=ppo:runs/x/m.zip", "iterations=5"],
    )
    assert split_spec("ismcts:policy=spoiler:iterations=5", "gendeneia")[2] == [
        "policy=spoiler",
        "iterations=5",
    ]
    assert split_spec("bluffer:freq", "lith")[2] == ["freq"]  # still a bad parameter


def test_the_files_a_specs_parameters_load_are_found():
    from tablegame.registry import parameter_files

    spec = "ismcts:iterations=5:prior=runs/a.zip:policy=ppo:runs/b.zip:c=1"
    assert parameter_files(spec, "gendeneia") == {
        1: ("prior=", "runs/a.zip"),
        2: ("policy=ppo:", "runs/b.zip"),
    }
    assert parameter_files("ismcts:policy=spoiler", "gendeneia") == {}
    assert parameter_files("ppo:runs/x.zip:deterministic=false", "lith") == {}
