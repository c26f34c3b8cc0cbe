"""The exact solver of one-round heads-up Lith (lith_solver.one_round) and exact exploitability of
agents (lith_solver.exploitability), checked against OpenSpiel and brute force."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from lith_env.game import LithConfig
from lith_env.hands import strength
from lith_solver.agent_strategy import agent_profile
from lith_solver.cli import main as lith_solver_main
from lith_solver.exploitability import exploitability
from lith_solver.one_round import OneRoundGame, betting_tree
from lith_solver.solutions import load_solution
from lith_solver.solving import solve
from tablegame.registry import make_agent
from tests.openspiel_helpers import hand_state_class, register_game

# Eight cards of different ranks and suits: 56 hands a player, 560 deals.
SMALL_CARDS = (0, 7, 11, 15, 21, 27, 33, 40)
SMALL = LithConfig(rounds=1, cards=SMALL_CARDS)
# Seven of them for the OpenSpiel game (Python game trees are slow): 35 hands, 140 deals.
TINY_CARDS = SMALL_CARDS[:7]
TINY = LithConfig(rounds=1, cards=TINY_CARDS)


@pytest.fixture(scope="module")
def small_game() -> OneRoundGame:
    return OneRoundGame(SMALL)


@pytest.fixture(scope="module")
def small_solution(small_game):
    return solve(SMALL, iterations=400, check_every=50)


def test_betting_tree_of_limit_heads_up():
    tree = betting_tree(ante=1, bet=2, max_bets=4)
    by_history = {node.history: node for node in tree}
    decisions = sorted(n.history for n in tree if n.player is not None)
    assert decisions == ["", "b", "bb", "bbb", "bbbb", "k", "kb", "kbb", "kbbb", "kbbbb"]
    assert by_history["kk"].is_showdown and by_history["kk"].contributions == (1, 1)
    assert by_history["bbbbc"].contributions == (9, 9)  # the ante and four bets each
    assert by_history["bbbb"].actions == (0, 1)  # capped: fold or call
    assert by_history["bf"].folder == 1 and by_history["kbf"].folder == 0
    assert by_history["k"].player == 1 and by_history["kb"].player == 0


def _direct_sums(game: OneRoundGame, reach: np.ndarray, hand: int, excuse):
    """Brute force: the opponent's reach over the hands disjoint from ``hand``, in all and
    weaker minus stronger."""
    disjoint = ~np.isin(game.hands, game.hands[hand]).any(axis=1)
    roles = ("imposter", "beggar") if excuse == "demon" else (excuse,)
    net = 0.0
    for role in roles:
        s = strength(game.hands, excuse=role)
        net = net + reach[disjoint] @ (
            (s[disjoint] < s[hand]).astype(float) - (s[disjoint] > s[hand])
        )
    return reach[disjoint].sum(), net / len(roles)


@pytest.mark.parametrize("excuse", [None, "imposter", "beggar", "demon"])
def test_card_removal_sums_match_brute_force(excuse):
    cards = (*SMALL_CARDS, 44) if excuse else SMALL_CARDS
    game = OneRoundGame(LithConfig(rounds=1, cards=cards, excuse=excuse))
    reach = np.random.default_rng(3).random((2, game.num_hands))
    net, total = game.showdown_net(reach), game.disjoint_total(reach)
    for hand in range(game.num_hands):
        for row in range(2):
            want_total, want_net = _direct_sums(game, reach[row], hand, excuse)
            assert total[row, hand] == pytest.approx(want_total, abs=1e-9)
            assert net[row, hand] == pytest.approx(want_net, abs=1e-9)


@pytest.mark.slow
def test_exploitability_falls_and_value_is_stable(small_solution):
    game, profile, info = small_solution
    curve = [c["exploitability"] for c in info["curve"]]
    assert curve[-1] < curve[0] / 5
    assert curve[-1] < 1e-3
    assert all(b <= a * 1.5 for a, b in itertools.pairwise(curve))
    first, second, mean = game.exploitability(profile)
    assert mean == pytest.approx(curve[-1])
    # A best response wins at least the game value: first >= value, second >= -value.
    value = game.game_value(profile)
    assert first >= value - 1e-12 and second >= -value - 1e-12
    assert first - value + second + value == pytest.approx(2 * mean)


# ------------------------------------------------------------------------- OpenSpiel


@pytest.fixture(scope="module")
def openspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    return _register_openspiel(pyspiel)


def _register_openspiel(pyspiel):
    """One-round heads-up limit Lith on TINY's cards, written independently through
    OpenSpiel's Python game interface: chance deals player 0's hand, then player 1's; a
    limit betting round (ante 1, bets of 2, four bets at most); the stronger hand wins."""
    hands = [tuple(h) for h in itertools.combinations(sorted(TINY_CARDS), 3)]
    values = strength(np.array(hands))
    name = "python_lith_one_round_small"

    class State(hand_state_class(pyspiel)):
        def __init__(self, game):
            super().__init__(game)
            self.hands: list[int] = []
            self.bets: list[int] = []  # 0 fold, 1 check/call, 2 bet/raise
            self.pot = [1, 1]
            self.over = False
            self.folder = None

        def current_player(self):
            if self.over:
                return pyspiel.PlayerId.TERMINAL
            if len(self.hands) < 2:
                return pyspiel.PlayerId.CHANCE
            return len(self.bets) % 2

        def _legal_actions(self, player):
            facing = self.pot[player] < self.pot[1 - player]
            raises = sum(1 for b in self.bets if b == 2)
            return ([0, 1] if facing else [1]) + ([2] if raises < 4 else [])

        def chance_outcomes(self):
            taken = set(hands[self.hands[0]]) if self.hands else set()
            free = [i for i, h in enumerate(hands) if not taken & set(h)]
            return [(i, 1.0 / len(free)) for i in free]

        def _apply_action(self, action):
            if self.is_chance_node():
                self.hands.append(action)
                return
            player = len(self.bets) % 2
            self.bets.append(action)
            facing = self.pot[player] < self.pot[1 - player]
            if action == 0:  # fold
                self.over, self.folder = True, player
            elif action == 2:  # bet or raise
                self.pot[player] = self.pot[1 - player] + 2
            elif facing:  # call: showdown
                self.pot[player] = self.pot[1 - player]
                self.over = True
            elif len(self.bets) == 2:  # check behind a check: showdown
                self.over = True

        def _action_to_string(self, player, action):
            return f"hand{action}" if player == pyspiel.PlayerId.CHANCE else "fcb"[action]

        def showdown(self):
            a, b = values[self.hands[0]], values[self.hands[1]]
            return self.pot[0] * (1 if a > b else -1 if a < b else 0)

        def __str__(self):
            return f"{self.hands} {self.bets}"

    def info_string(state, player):
        hand = state.hands[player] if len(state.hands) > player else -1
        return f"p{player} hand{hand} " + "".join("fcb"[b] for b in state.bets)

    return register_game(pyspiel, name, State, info_string, len(hands), 9.0, 10), hands


def _openspiel_policy(openspiel_game, game: OneRoundGame, profile):
    """Our profile as an OpenSpiel TabularPolicy: info states by hand and betting."""
    from open_spiel.python import policy as policy_lib

    spiel_game, hands = openspiel_game
    tabular = policy_lib.TabularPolicy(spiel_game)
    by_history = {game.tree[i].history: i for i in game.decisions}
    for key, row in tabular.state_lookup.items():
        _, hand, *rest = key.split(" ")
        betting = rest[0] if rest else ""
        # OpenSpiel's c after no bet is our k (a check); its b is our b.
        history = "".join("k" if a == "c" else a for a in betting)
        index = by_history[history]
        ours = game.hand_index(hands[int(hand[4:])])
        probabilities = np.zeros(spiel_game.num_distinct_actions())
        probabilities[list(game.tree[index].actions)] = profile[index][ours]
        tabular.action_probability_array[row] = probabilities
    return tabular


@pytest.mark.slow
def test_values_and_exploitability_agree_with_openspiel(openspiel_game):
    """OpenSpiel's own game value and exploitability (NashConv / 2) of the same strategies,
    on a game written without any of our code but the hand evaluator: they agree with ours
    to rounding, and OpenSpiel finds our solution unexploitable."""
    from open_spiel.python.algorithms import expected_game_score
    from open_spiel.python.algorithms import exploitability as spiel_exploitability

    game, profile, info = solve(TINY, iterations=1000, target=1e-4, check_every=100)
    assert info["exploitability"] < 1e-4
    spiel_game, _ = openspiel_game
    for name, strategy in [
        ("solved", profile),
        ("uniform", game.uniform_profile()),
        ("tag", agent_profile(make_agent("tag", "lith", seed=0, config=TINY), game)),
        ("rock", agent_profile(make_agent("rock", "lith", seed=0, config=TINY), game)),
    ]:
        tabular = _openspiel_policy(openspiel_game, game, strategy)
        spiel_value = expected_game_score.policy_value(
            spiel_game.new_initial_state(), [tabular, tabular]
        )[0]
        assert game.game_value(strategy) == pytest.approx(spiel_value, abs=1e-9), name
        want = spiel_exploitability.exploitability(spiel_game, tabular)
        assert game.exploitability(strategy)[2] == pytest.approx(want, abs=1e-9), name


# ------------------------------------------------------------------------- agents


def test_solved_agent_plays_its_strategy_and_measures_the_same(small_solution, tmp_path):
    from lith_solver.solutions import save_solution

    game, profile, info = small_solution
    save_solution(tmp_path, game, profile, info)
    agent = make_agent(f"solved:{tmp_path}", "lith", seed=0, config=SMALL)
    measured = agent_profile(agent, game)
    for index in game.decisions:
        np.testing.assert_allclose(measured[index], profile[index], atol=1e-12)
    figures, _ = exploitability(agent, game)
    assert figures["exploitability"] == pytest.approx(game.exploitability(profile)[2])
    loaded_game, _, record = load_solution(tmp_path)
    assert record["iterations"] == info["iterations"]
    assert loaded_game.config == SMALL


def test_solver_values_agree_with_play_in_the_engine(small_solution, tmp_path):
    """Monte-Carlo: the solved strategies played against each other in the batched engine
    win, in the first position, the game value."""
    from lith_env.batched import BatchedLith
    from lith_solver.solutions import save_solution
    from tablegame.agent import act_batch

    game, profile, info = small_solution
    save_solution(tmp_path, game, profile, info)
    agent = make_agent(f"solved:{tmp_path}", "lith", seed=5, config=SMALL)
    tables = 40_000
    engine = BatchedLith(SMALL, tables, episode="hand", first_dealer=0)
    engine.reset(seeds=11)
    while not engine.match_over.all():
        live = np.flatnonzero(~engine.match_over)
        seats = engine.current[live]
        observations = engine.encode(seats, live)
        actions = np.zeros(tables, dtype=np.int64)
        actions[live] = act_batch(agent, observations, engine.action_masks(live))
        engine.step(actions)
    first = engine.returns()[:, 1]  # seat 1 acts first when seat 0 deals
    half_width = 1.96 * first.std() / np.sqrt(tables)
    assert abs(first.mean() - game.game_value(profile)) < max(half_width, 1e-3)


def test_best_responses_exploit_caller_and_rock_as_a_poker_player_would():
    game = OneRoundGame(LithConfig(rounds=1))
    order = np.argsort(strength(game.hands))
    weakest, strongest = order[: game.num_hands // 5], order[-game.num_hands // 5 :]
    root = 0  # position 0 opens: check (action 1) or bet (action 2)

    def bets(agent_name: str):
        agent = make_agent(agent_name, "lith", seed=0, config=game.config)
        _, response = exploitability(agent, game)
        return response[root][:, 1]  # the best response's bet column at the root

    # Against a player who calls everything, bet for value only: strong hands, never bluff.
    against_caller = bets("caller")
    assert against_caller[strongest].mean() > 0.95
    assert against_caller[weakest].mean() < 0.05
    # Against a player who folds all but strong hands, bluff: bet the weakest hands.
    against_rock = bets("rock")
    assert against_rock[weakest].mean() > 0.95


def test_stochastic_agent_without_probabilities_is_refused(small_game):
    class Coin:
        def __init__(self):
            self.rng = np.random.default_rng(0)

        def reset(self, seed=None):
            self.rng = np.random.default_rng(seed)

        def act(self, observation, mask):
            return int(self.rng.choice(np.flatnonzero(mask)))

    with pytest.raises(ValueError, match="action_probabilities"):
        agent_profile(Coin(), small_game, "coin")
    # The random agent gives its probabilities: uniform over the legal actions.
    profile = agent_profile(make_agent("random", "lith", seed=0), small_game)
    np.testing.assert_allclose(profile[0], 0.5)


def test_bluffer_probabilities_are_its_sampling_frequencies(small_game):
    """bluffer draws its bluffs: measured by its probabilities, which match its draws."""
    bluffer = make_agent("bluffer", "lith", seed=0, config=SMALL)
    profile = agent_profile(bluffer, small_game, "bluffer")
    assert 0 < profile[0][:, 1].mean() < 1  # it bets some hands at the root, not all
    from lith_env.batched import BatchedLith
    from tablegame.agent import act_batch

    engine = BatchedLith(SMALL, 4000, episode="hand", first_dealer=0)
    engine.reset(seeds=2)
    observations, masks = engine.encode(engine.current), engine.action_masks()
    probabilities = bluffer.action_probabilities(observations, masks)
    draws = np.stack([act_batch(bluffer, observations, masks) for _ in range(200)])
    for action in range(masks.shape[1]):
        frequency = (draws == action).mean(axis=0)
        assert np.abs(frequency - probabilities[:, action]).max() < 0.15
    figures, _ = exploitability(bluffer, small_game, "bluffer")
    assert figures["exploitability"] > 0


# ------------------------------------------------------------------------- commands and errors


def test_commands_solve_measure_and_confirm_in_a_tournament(tmp_path, capsys):
    rules = ["--rule", "rounds=1", "--rule", "cards=" + ",".join(map(str, SMALL_CARDS))]
    out = tmp_path / "solved"
    assert lith_solver_main(["solve", *rules, "--iterations", "200", "--out", str(out)]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    solved_value = float(printed[-1].split()[1])
    assert printed[-1].startswith("exploitability: ") and solved_value < 5e-3
    record = json.loads((out / "solution.json").read_text())
    assert record["iterations"] == 200 and (out / "exploitability.png").is_file()

    br = tmp_path / "br"
    assert lith_solver_main(["exploitability", "tag", *rules, "--out", str(br)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    value = float(last.split()[1])
    assert last == (
        f"exploitability: {value:.6f} chips/hand ({100 * value:.2f} chips/100 hands, the unit "
        "of decktet lbr and exploit)"
    )
    assert value > 0.05

    from tournaments.cli import main as tournament_main

    tournament_main(
        [
            *("--game", "lith", "--players", "2", "--agents", f"solved:{br},tag"),
            *("--hands", "6000", "--batched", "--seed", "3", "--out", str(tmp_path / "t")),
            *rules,
        ]
    )
    capsys.readouterr()
    result = json.loads((tmp_path / "t" / "results.json").read_text())
    won = result["agents_results"][f"solved:{br}"]["chips_per_100"]
    assert won["low"] / 100 <= value <= won["high"] / 100


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rule", "rounds=2", "--out", "x"], "cards: 44 cards with 2 rounds"),
        (["--rule", "rounds=1", "--rule", "betting=no-limit", "--out", "x"], "betting"),
        (["--rule", "rounds=1", "--rule", "starting_chips=5", "--out", "x"], "starting_chips"),
        (["--rule", "rounds=1", "--iterations", "0", "--out", "x"], "--iterations"),
        (["--rule", "rounds=1", "--target", "-1", "--out", "x"], "--target"),
        (["--rule", "rounds=1", "--rule", "cards=0,1,2", "--out", "x"], "cards"),
        (["--out", "/proc/no/such/folder"], "--out: cannot make the folder"),
    ],
)
def test_solve_refuses_bad_options(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        lith_solver_main(["solve", *argv])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tag", "--rule", "rounds=3"], "rounds"),
        (["nobody"], "unknown agent"),
        (["bluffer:bluff=2"], "bluff"),
        (["solved:/nonexistent"], "no solution.json"),
        (["tag", "--seed", "-1"], "--seed: must be at least 0"),
        (["tag", "--out", "/proc/no/such/folder"], "--out: cannot make the folder"),
    ],
)
def test_exploitability_refuses_bad_options(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        lith_solver_main(["exploitability", *argv])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_corrupt_or_foreign_solutions_are_refused(small_solution, tmp_path):
    from lith_solver.solutions import save_solution

    game, profile, info = small_solution
    save_solution(tmp_path, game, profile, info)
    with pytest.raises(ValueError, match="other rules"):
        make_agent(f"solved:{tmp_path}", "lith", config=LithConfig(rounds=1))
    whole = (tmp_path / "strategy.npz").read_bytes()
    (tmp_path / "strategy.npz").write_bytes(whole[: len(whole) // 2])  # a copy cut short
    with pytest.raises(ValueError, match="corrupt: File is not a zip file"):
        make_agent(f"solved:{tmp_path}", "lith")
    (tmp_path / "strategy.npz").write_bytes(b"not an npz file")
    with pytest.raises(ValueError, match="corrupt"):
        make_agent(f"solved:{tmp_path}", "lith")
    (tmp_path / "solution.json").write_text("{")
    with pytest.raises(ValueError, match="not a solver record"):
        make_agent(f"solved:{tmp_path}", "lith")


@pytest.mark.slow
def test_equilibrium_aggression_matches_its_play_and_is_drawn_by_analyze(
    small_solution, tmp_path, capsys
):
    """The equilibrium's bet-or-raise share by strength, computed from the strategy, is what
    tournaments.report.cli measures when it plays itself; analyze draws it with --equilibrium."""
    from lith_solver.exploitability import aggression_by_percentile
    from lith_solver.solutions import save_solution
    from tournaments.analytics import agent_report
    from tournaments.cli import main as tournament_main
    from tournaments.report.cli import main as analyze_main

    game, profile, info = small_solution
    solved = tmp_path / "solved"
    save_solution(solved, game, profile, info)
    out = tmp_path / "t"
    rules = ["--rule", "rounds=1", "--rule", "cards=" + ",".join(map(str, SMALL_CARDS))]
    tournament_main(
        [
            *("--game", "lith", "--players", "2", "--agents", f"solved:{solved}"),
            *("--lineup", "0,0"),
            *("--hands", "20000", "--batched", "--record", "all", "--seed", "4"),
            *("--out", str(out), *rules),
        ]
    )
    bins = np.linspace(0, 1, 11)
    expected = aggression_by_percentile(game, profile, bins)
    decisions = [json.loads(line) for line in (out / "decisions.jsonl").read_text().splitlines()]
    bets = [d for d in decisions if d["phase"] == "bet"]
    percentile = np.array([d["percentile"] for d in bets])
    aggressive = np.array([d["kind"] in ("bet", "raise") for d in bets])
    which = np.clip(np.digitize(percentile, bins) - 1, 0, 9)
    counts = np.bincount(which, minlength=10)
    # Only bins with enough decisions are compared; the 56 hands' percentiles fill them
    # unevenly (seed 4: nine of ten hold 500 or more), so most bins must take part.
    compared = np.flatnonzero(counts >= 500)
    assert len(compared) >= 8, f"too few bins to compare: decisions per bin {counts.tolist()}"
    for b in compared:
        assert aggressive[which == b].mean() == pytest.approx(expected[b], abs=0.05), b
    assert agent_report(decisions, SMALL)  # the decisions are complete for analytics
    capsys.readouterr()
    assert analyze_main([str(out), "--equilibrium", str(solved)]) == 0
    assert (out / "bet_frequency.png").is_file()
    other = tmp_path / "other"
    save_solution(other, *solve(TINY, iterations=10)[:2], {})
    with pytest.raises(SystemExit) as exit_info:
        analyze_main([str(out), "--equilibrium", str(other)])
    assert exit_info.value.code == 2
    assert "other rules" in capsys.readouterr().err


def _play_match(table, agents, seed: int, max_steps: int) -> int:
    """Play ``table``'s match from ``seed`` to its end, each seat's agent choosing from its
    own observation; every action checked legal; the number of actions taken."""
    table.reset(seed)
    for agent, agent_seed in zip(agents, (seed, seed + 1), strict=True):
        agent.reset(agent_seed)
    for step in range(max_steps):
        if table.is_over:
            return step
        seat = table.current_player
        mask = table.action_mask()
        action = agents[seat].act(table.encode(seat), mask)
        assert mask[action] == 1, f"seat {seat} chose illegal action {action} at step {step}"
        table.apply_id(action)
    pytest.fail(f"the match from seed {seed} was not over after {max_steps} actions")


def test_solved_agent_plays_matches_of_any_length(small_solution, tmp_path):
    """A match's length and stacks are not rules of the solved game: the agent takes them,
    plays every hand of the match legally, and refuses stacks that could run out within a
    hand."""
    from dataclasses import replace

    from lith_env.table import LithTable
    from lith_solver.solutions import save_solution

    game, profile, info = small_solution
    save_solution(tmp_path, game, profile, info)
    # A hand costs at most 9 chips (the ante and four bets of 2), so none of these stacks
    # can fall short within the match: every hand is played, none ends it early.
    for config in (
        replace(SMALL, max_hands=1),
        replace(SMALL, max_hands=5),
        replace(SMALL, starting_chips=50, max_hands=4),
        replace(SMALL, starting_chips=(18, 82), max_hands=2),
    ):
        table = LithTable(config, episode="match")
        agents = [make_agent(f"solved:{tmp_path}", "lith", config=config) for _ in range(2)]
        for seed in range(3):
            # a one-round heads-up hand has six decisions at most: a check, four bets, a call
            steps = _play_match(table, agents, seed, max_steps=6 * config.max_hands)
            assert table.game.hands_played == config.max_hands == len(table.game.records)
            assert steps >= 2 * config.max_hands  # both seats acted in every hand
            assert sum(table.game.stacks) == sum(config.stacks)  # no chip made or lost
            start = np.array(config.stacks)
            assert table.returns().tolist() == (table.game.stacks - start).tolist()
            assert table.returns().sum() == 0
    with pytest.raises(ValueError, match="starting_chips"):
        make_agent(f"solved:{tmp_path}", "lith", config=replace(SMALL, starting_chips=5))
    with pytest.raises(ValueError, match="max_raises=1"):
        make_agent(f"solved:{tmp_path}", "lith", config=replace(SMALL, max_raises=1))
