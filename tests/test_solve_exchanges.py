"""The exact solver of heads-up Lith with exchanges (lith_solver.exchanges), checked
against OpenSpiel on a game written independently through its Python game interface."""

from __future__ import annotations

import ast
import itertools
import math

import numpy as np
import pytest

from lith_env.cards import EXCUSE
from lith_env.game import LithConfig
from lith_env.hands import strength
from lith_solver.exchanges import (
    ExchangeGame,
    ExchangeSolver,
    best_response_value,
    deciding_player,
    exploitability,
    profile_value,
    row_classes,
)
from tests.openspiel_helpers import hand_state_class, register_game

# Seven cards, the fewest a two-round heads-up game may use (six dealt, one to draw), and one
# bet a round: OpenSpiel's Python game walks every history, so the tree must stay small.
TINY_CARDS = (0, 7, 11, 15, 21, 27, 33)
TINY = LithConfig(rounds=2, cards=TINY_CARDS, max_raises=0)
BET_SIZES = TINY.bet_sizes


@pytest.fixture(scope="module")
def tiny_game() -> ExchangeGame:
    return ExchangeGame(TINY)


@pytest.fixture(scope="module")
def tiny_solution(tiny_game):
    solver = ExchangeSolver(tiny_game)
    solver.iterate(300)
    return solver.average()


def _register_openspiel(pyspiel, cards, rounds):
    """Heads-up limit Lith with exchanges, written from the rules alone (no code of the
    solver): chance deals hand indices, players bet (fold 0, check/call 1, bet/raise 2) and
    exchange (keep 0, discard the first to third card of the sorted hand 1-3); a lone
    discarder draws a chance card from the deck, two discarders swap."""
    deck = sorted(cards)
    hands = [tuple(h) for h in itertools.combinations(deck, 3)]
    name = f"python_lith_exchange_{len(deck)}_{rounds}"

    class State(hand_state_class(pyspiel)):
        def __init__(self, game):
            super().__init__(game)
            self.initial: list[tuple] = []
            self.hands: list[list[int]] = []
            self.log = [[], []]  # per player, per exchange: (slot, card received)
            self.dead: set[int] = set()
            self.round = 0
            self.betting = [""]  # per round: k, b, c, f
            self.pot = [1, 1]
            self.exchange: list[int] = []  # this exchange's slots (-1 keep)
            self.public: list[tuple] = []  # per exchange: (first discarded, dealer discarded)
            self.drawer = None
            self.over, self.folder = False, None

        def current_player(self):
            if self.over:
                return pyspiel.PlayerId.TERMINAL
            if len(self.initial) < 2 or self.drawer is not None:
                return pyspiel.PlayerId.CHANCE
            if len(self.exchange) < 2 and self._in_exchange():
                return len(self.exchange)
            return len(self.betting[-1]) % 2

        def _in_exchange(self):
            return len(self.public) < self.round

        def _legal_actions(self, player):
            if self._in_exchange():
                return [0, 1, 2, 3]
            facing = self.pot[player] < self.pot[1 - player]
            bets = self.betting[-1].count("b")
            return ([0, 1] if facing else [1]) + ([2] if bets < 1 + TINY.max_raises else [])

        def chance_outcomes(self):
            if len(self.initial) < 2:
                taken = set(self.initial[0]) if self.initial else set()
                free = [i for i, h in enumerate(hands) if not taken & set(h)]
                return [(i, 1.0 / len(free)) for i in free]
            held = set(self.hands[0]) | set(self.hands[1])
            top = [c for c in deck if c not in held and c not in self.dead]
            return [(c, 1.0 / len(top)) for c in top]

        def _apply_action(self, action):
            if len(self.initial) < 2:
                self.initial.append(hands[action])
                self.hands.append(sorted(hands[action]))
                return
            if self.drawer is not None:  # the lone discarder draws
                p = self.drawer
                slot = self.exchange[p]
                given = self.hands[p][slot]
                self.hands[p] = sorted([c for c in self.hands[p] if c != given] + [action])
                self.dead.add(given)
                self.log[p].append((slot, action))
                self.log[1 - p].append((-1, -1))
                self._after_exchange()
                return
            if self._in_exchange():
                self.exchange.append(action - 1)
                if len(self.exchange) == 2:
                    self._resolve()
                return
            player = len(self.betting[-1]) % 2
            self.betting[-1] += "fcb"[action] if action != 1 else "x"
            facing = self.pot[player] < self.pot[1 - player]
            if action == 0:
                self.over, self.folder = True, player
            elif action == 2:
                self.pot[player] = self.pot[1 - player] + BET_SIZES[self.round]
            elif facing or len(self.betting[-1]) == 2:  # a call, or a check behind a check
                self.pot[player] = self.pot[1 - player]
                if self.round == rounds - 1:
                    self.over = True
                else:
                    self.round += 1  # the exchange comes first
                    self.betting.append("")

        def _resolve(self):
            s0, s1 = self.exchange
            self.public.append((s0 >= 0, s1 >= 0))
            if s0 >= 0 and s1 >= 0:
                g0, g1 = self.hands[0][s0], self.hands[1][s1]
                self.hands[0] = sorted([c for c in self.hands[0] if c != g0] + [g1])
                self.hands[1] = sorted([c for c in self.hands[1] if c != g1] + [g0])
                self.log[0].append((s0, g1))
                self.log[1].append((s1, g0))
                self._after_exchange()
            elif s0 >= 0 or s1 >= 0:
                self.drawer = 0 if s0 >= 0 else 1
            else:
                self.log[0].append((-1, -1))
                self.log[1].append((-1, -1))
                self._after_exchange()

        def _after_exchange(self):
            self.exchange, self.drawer = [], None

        def _action_to_string(self, player, action):
            return f"{player}:{action}"

        def showdown(self):
            roles = ("imposter", "beggar") if TINY.excuse == "demon" else (TINY.excuse,)
            won = 0.0
            for role in roles:
                a, b = strength(np.array([self.hands[0], self.hands[1]]), excuse=role)
                won += self.pot[0] * float(np.sign(a - b))
            return won / len(roles)

        def __str__(self):
            return f"{self.initial} {self.betting} {self.log}"

    def info_string(state, player):
        mine = state.initial[player] if len(state.initial) > player else None
        pending = len(state.exchange) > 0 and player == 1 and state._in_exchange()
        first_discarded = state.exchange[0] >= 0 if pending else None
        return repr(
            (
                player,
                mine,
                tuple(state.log[player]),
                tuple(state.public),
                tuple(state.betting),
                first_discarded,
            )
        )

    return register_game(pyspiel, name, State, info_string, max(len(hands), 45), 50.0, 40)


def _to_openspiel(spiel_game, game: ExchangeGame, strategies: list) -> list:
    """Our strategies as OpenSpiel TabularPolicies over the independent game's info states
    (OpenSpiel walks its whole tree to list them: once, for all the strategies)."""
    import copy

    from open_spiel.python import policy as policy_lib

    template = policy_lib.TabularPolicy(spiel_game)
    tabulars = [copy.copy(template) for _ in strategies]
    state_index = {}
    for stage in game.stages:
        for p in (0, 1):
            for i, key in enumerate(stage.state_keys[p].tolist()):
                state_index[(stage.index, p, tuple(key))] = i
    by_history = [{n.history: i for i, n in enumerate(tree)} for tree in game.trees]
    for info, row in template.state_lookup.items():
        player, initial, log, public, betting, first_discarded = ast.literal_eval(info)
        stage = game.root
        line = 0
        for r, done in enumerate(betting[:-1]):
            end = by_history[r][_ours(done)]
            line = game.ends[r].index(end) * _lines(game, r) + line
        for d0, d1 in public:
            stage = stage.children[{(0, 0): "none", (1, 0): "draw0", (0, 1): "draw1",
                                    (1, 1): "swap"}[(int(d0), int(d1))]]  # fmt: skip
        key = tuple(initial) + tuple(x for pair in log for x in pair)
        state = state_index[(stage.index, player, key)]
        r = len(betting) - 1
        if len(public) < r:  # an exchange decision, after round r - 1
            point = "x0" if player == 0 else ("x1d" if first_discarded else "x1k")
            decision, actions = (r - 1, stage.index, point), [0, 1, 2, 3]
        else:
            node = by_history[r][_ours(betting[-1])]
            decision, actions = (r, stage.index, node), list(game.trees[r][node].actions)
        for tabular, strategy in zip(tabulars, strategies, strict=True):
            tabular.action_probability_array[row] = 0.0
            tabular.action_probability_array[row, actions] = strategy[decision][line, state]
    return tabulars


def _ours(betting: str) -> str:
    """An OpenSpiel-side betting string (x: check or call) as the solver's history."""
    out = ""
    for action in betting:
        if action == "x":
            out += "c" if out.endswith("b") else "k"
        else:
            out += action
    return out


def _lines(game: ExchangeGame, r: int) -> int:
    return int(np.prod([len(game.ends[q]) for q in range(r)])) if r else 1


@pytest.fixture(scope="module")
def openspiel_tiny():
    pyspiel = pytest.importorskip("pyspiel")
    return _register_openspiel(pyspiel, TINY_CARDS, 2)


@pytest.mark.slow
def test_values_and_exploitability_agree_with_openspiel(openspiel_tiny, tiny_game, tiny_solution):
    """A random strategy (every probability different, so a state or line mixed up shows):
    its game value, best responses and exploitability as OpenSpiel computes them on its own
    game (OpenSpiel's best response walks the whole tree: some fifty seconds). The solved
    strategy, measured by the same code, is nearly unexploitable."""
    import pyspiel
    from open_spiel.python import policy as policy_lib
    from open_spiel.python.algorithms import expected_game_score

    rng = np.random.default_rng(7)
    random = {
        key: rng.dirichlet(np.ones(v.shape[-1]), v.shape[:-1]) for key, v in tiny_solution.items()
    }
    (tabular,) = _to_openspiel(openspiel_tiny, tiny_game, [random])
    value = expected_game_score.policy_value(openspiel_tiny.new_initial_state(), [tabular] * 2)
    assert profile_value(tiny_game, random) == pytest.approx(value[0], abs=1e-9)
    want = pyspiel.exploitability(
        openspiel_tiny, policy_lib.python_policy_to_pyspiel_policy(tabular)
    )
    found = exploitability(tiny_game, random)[2]
    assert found == pytest.approx(want, abs=1e-9)
    # 300 iterations leave the solution 0.0005 chips exploitable; the random strategy, 2.6
    assert exploitability(tiny_game, tiny_solution)[2] < 2e-3 and found > 1


def _play_itself(directory, config, hands: int, seed: int) -> np.ndarray:
    """The first player's chips in ``hands`` hands of the solved agent against itself."""
    from lith_env.batched import BatchedLith
    from tablegame.agent import act_batch
    from tablegame.registry import make_agent

    agent = make_agent(f"solved:{directory}", "lith", seed=seed, config=config)
    engine = BatchedLith(config, hands, episode="hand", first_dealer=0)
    engine.reset(seeds=seed)
    while not engine.match_over.all():
        live = np.flatnonzero(~engine.match_over)
        observations = engine.encode(engine.current[live], live)
        actions = np.zeros(hands, dtype=np.int64)
        actions[live] = act_batch(agent, observations, engine.action_masks(live))
        engine.step(actions)
    return engine.returns()[:, 1]  # seat 1 acts first when seat 0 deals


@pytest.mark.parametrize("which", ["solved", "random"])
def test_values_agree_with_play_in_the_engine(tiny_game, tiny_solution, tmp_path, which):
    """The solved agent reads every observation into the right decision point, line and
    private state: played against itself in the batched engine, the first player wins the
    strategy's value (a random strategy too, whose value depends on every entry)."""
    from lith_solver.solutions import save_solution

    rng = np.random.default_rng(11)
    strategy = tiny_solution
    if which == "random":
        strategy = {
            k: rng.dirichlet(np.ones(v.shape[-1]), v.shape[:-1]) for k, v in strategy.items()
        }
    save_solution(tmp_path, tiny_game, strategy, {})
    first = _play_itself(tmp_path, TINY, 6000, seed=3)
    error = 3 * first.std() / np.sqrt(len(first))
    assert abs(first.mean() - profile_value(tiny_game, strategy)) < error


def test_solve_command_for_exchanges_and_bad_options(tmp_path, capsys):
    from lith_solver.cli import main as lith_solver_main
    from lith_solver.solutions import load_solution

    rules = ["--rule", "rounds=2", "--rule", "max_raises=0"]
    rules += ["--rule", "cards=" + ",".join(map(str, TINY_CARDS))]
    assert lith_solver_main(["solve", *rules, "--iterations", "40", "--out", str(tmp_path)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("exploitability: ")
    game, strategy, record = load_solution(tmp_path)
    assert record["iterations"] == 40 and game.config == TINY
    assert exploitability(game, strategy)[2] == pytest.approx(record["exploitability"])
    with pytest.raises(SystemExit) as exit_info:
        lith_solver_main(
            ["solve", "--rule", "rounds=2", "--rule", "betting=pot-limit", "--out", str(tmp_path)]
        )
    assert exit_info.value.code == 2 and "betting" in capsys.readouterr().err
    # Past max_joints the game is built per player; past the strategy's size, refused.
    game = ExchangeGame(LithConfig(rounds=2, cards=tuple(range(12))), max_joints=100_000)
    assert game.method == "factored"
    with pytest.raises(ValueError, match="cards: 44 cards with 2 rounds make a strategy of"):
        ExchangeGame(LithConfig(rounds=2))
    with pytest.raises(ValueError, match="method"):
        ExchangeGame(TINY, method="fast")


def test_auto_builds_the_faster_way_and_a_solution_loads_in_its_own_build(tmp_path, monkeypatch):
    """``auto`` builds two rounds per player from 14 cards on, where that is the faster build
    (docs/exploitability.md), and three rounds jointly while memory allows. A saved strategy is
    read in the build that saved it: each build orders the states its own way."""
    import json

    from lith_solver import exchanges as solve_exchanges
    from lith_solver.exchanges import auto_build
    from lith_solver.solutions import load_solution, save_solution

    def build(rounds, cards):
        return auto_build(LithConfig(rounds=rounds, cards=tuple(range(cards))))

    assert [build(2, n) for n in (12, 13, 14, 20)] == ["joint", "joint", "factored", "factored"]
    assert [build(3, n) for n in (8, 9, 11, 12)] == ["joint", "joint", "joint", "factored"]

    game = ExchangeGame(TINY, method="factored")  # auto builds it jointly
    solver = ExchangeSolver(game)
    solver.iterate(30)
    profile = solver.average_profile()
    value = exploitability(game, profile)[2]
    save_solution(tmp_path, game, profile, {"iterations": 30})
    loaded, strategy, record = load_solution(tmp_path)
    assert record["build"] == "factored" and loaded.method == "factored"
    assert exploitability(loaded, strategy)[2] == pytest.approx(value)
    # The same arrays in the other build's order would be another, worse strategy.
    assert exploitability(ExchangeGame(TINY), strategy)[2] > 2 * value

    # A record from before builds were recorded is read in the build of the old rule.
    path = tmp_path / "solution.json"
    record = json.loads(path.read_text())
    del record["build"]
    path.write_text(json.dumps(record))
    assert load_solution(tmp_path)[0].method == "joint"
    monkeypatch.setattr(solve_exchanges, "JOINT_LIMIT", 1)
    assert load_solution(tmp_path)[0].method == "factored"
    path.write_text(json.dumps({**record, "build": "fast"}))
    with pytest.raises(ValueError, match="not a solver record: build 'fast'"):
        load_solution(tmp_path)


def test_agents_are_measured_on_the_joint_build_where_the_solver_builds_factored(monkeypatch):
    """Reading an agent deals each private state from a joint history, so the measured game is
    built jointly wherever that fits, whichever build the solver finds faster."""
    from agents.lith_heuristics import CallerAgent
    from lith_solver import exchanges as solve_exchanges
    from lith_solver.exploitability import best_response_to, solvable_game

    monkeypatch.setattr(solve_exchanges, "MAX_JOINTS", {2: 1, 3: 1})  # the solver: factored
    assert ExchangeGame(TINY).method == "factored"
    game = solvable_game(TINY)
    assert game.method == "joint"
    assert best_response_to(CallerAgent(), game)["exploitability"] > 0


def test_joint_history_count_is_what_the_solver_enumerates():
    from lith_solver.exchanges import joint_histories

    for cards, rounds in ((7, 2), (10, 2), (8, 3)):
        config = LithConfig(rounds=rounds, cards=tuple(range(0, 4 * cards, 4)))
        game = ExchangeGame(config)
        assert sum(len(s.states[0]) for s in game.stages) == joint_histories(cards, rounds)


def test_discard_report_is_consistent(tiny_game, tiny_solution):
    """The dealer reaches its exchange decision exactly as often as the first player does,
    split by the first player's keep or discard; shares are shares."""
    from lith_solver.exchanges import discard_report

    rows = {row["decision"]: row for row in discard_report(tiny_game, tiny_solution)}
    first = rows["first"]
    after = rows["dealer after a keep"]["reached"] + rows["dealer after a discard"]["reached"]
    assert 0 < first["reached"] < 1 and after == pytest.approx(first["reached"])
    for row in rows.values():
        assert 0 <= row["discards"] <= 1
        given = row["gives lowest"] + row["gives middle"] + row["gives highest"]
        assert given == pytest.approx(1.0) or row["discards"] == 0


def test_agents_are_read_exactly_at_every_information_set(tiny_game, tiny_solution, tmp_path):
    """Querying solved:DIR through the engine at every decision point, line and private state
    gives back the saved strategy entry for entry (a random one: nothing is uniform), so the
    agent reads observations right and the queries reach the right states; the exploitability
    measured through the agent is the solver's."""
    from lith_solver.agent_strategy import exchange_strategy
    from lith_solver.exploitability import exchange_exploitability
    from lith_solver.solutions import save_solution
    from tablegame.registry import make_agent

    rng = np.random.default_rng(5)
    random = {
        k: rng.dirichlet(np.ones(v.shape[-1]), v.shape[:-1]) for k, v in tiny_solution.items()
    }
    save_solution(tmp_path, tiny_game, random, {})
    agent = make_agent(f"solved:{tmp_path}", "lith", config=TINY)
    read = exchange_strategy(agent, tiny_game, "solved")
    assert read.keys() == random.keys()
    for key in random:
        np.testing.assert_allclose(read[key], random[key], atol=1e-12, err_msg=str(key))
    figures, response = exchange_exploitability(agent, tiny_game, "solved")
    assert figures["exploitability"] == pytest.approx(exploitability(tiny_game, random)[2])
    # The saved best response wins what it should against the strategy, in each position.
    mine = {k: v for k, v in response.items() if deciding_player(tiny_game, k) == 0}
    first = profile_value(tiny_game, {**random, **mine})
    assert first == pytest.approx(figures["best_response_0"])


def test_exploitability_command_on_an_exchange_game(capsys):
    from lith_solver.cli import main as lith_solver_main

    rules = ["--rule", "rounds=2", "--rule", "max_raises=0"]
    rules += ["--rule", "cards=" + ",".join(map(str, TINY_CARDS))]
    assert lith_solver_main(["exploitability", "tag", *rules]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("exploitability: ") and float(last.split()[1]) > 0
    with pytest.raises(SystemExit) as exit_info:
        lith_solver_main(["exploitability", "tag", *rules, "--by-strength"])
    assert exit_info.value.code == 2 and "--by-strength" in capsys.readouterr().err


@pytest.mark.parametrize(
    "config",
    [
        TINY,
        # two roles of the Excuse at each showdown: the factored sums' per-role orders
        LithConfig(rounds=2, cards=(*TINY_CARDS[:-1], EXCUSE), excuse="demon", max_raises=0),
        # two exchanges: states that drew twice or swapped then drew, merged into classes
        LithConfig(rounds=3, cards=(0, 5, 9, 14, 20, 26, 31, 38), max_raises=0),
    ],
    ids=["two-rounds", "demon", "three-rounds"],
)
@pytest.mark.slow
def test_factored_build_measures_strategies_as_the_joint_build(config):
    """The factored stages (each player's states alone, sums by inclusion-exclusion) give the
    same values and exploitability as the joint histories, for the same strategy."""
    joint = ExchangeGame(config, method="joint")
    factored = ExchangeGame(config, method="factored")
    index = {}
    for a, b in zip(joint.stages, factored.stages, strict=True):
        assert a.patterns == b.patterns and a.num_states == b.num_states
        for p in (0, 1):
            rows = {tuple(k): i for i, k in enumerate(a.state_keys[p].tolist())}
            index[(a.index, p)] = np.array([rows[tuple(k)] for k in b.state_keys[p].tolist()])
    rng = np.random.default_rng(2)
    shapes = ExchangeSolver.shapes(joint)
    strategy = {k: rng.dirichlet(np.ones(s[2]), s[:2]) for k, s in shapes.items()}
    mapped = {}
    for key, values in strategy.items():
        mapped[key] = values[:, index[(key[1], deciding_player(joint, key))], :]
    assert exploitability(factored, mapped) == pytest.approx(exploitability(joint, strategy))
    assert profile_value(factored, mapped) == pytest.approx(profile_value(joint, strategy))


@pytest.mark.parametrize(
    "config",
    [
        LithConfig(rounds=2, cards=TINY_CARDS),
        LithConfig(rounds=2, cards=(*TINY_CARDS[:-1], EXCUSE), excuse="demon", max_raises=1),
        pytest.param(
            LithConfig(rounds=3, cards=(0, 5, 9, 14, 20, 26, 31, 38), max_raises=1),
            marks=pytest.mark.slow,  # compiles the three-round kernel (cold cache: ~13 s)
        ),
    ],
    ids=["two-rounds", "demon", "three-rounds"],
)
def test_compiled_last_round_is_the_numpy_walk(config):
    """The last betting round runs compiled on a joint build (``lith_solver.last_round``);
    without it the walk goes through numpy and scipy. Both update the same regrets and sums,
    and find the same values and best responses. The compiled round plays the regret
    matching of the regrets as it goes, storing no current strategy."""
    compiled, reference = ExchangeGame(config), ExchangeGame(config)
    for stage in reference.stages:
        stage.pairs = (None, None)  # the numpy walk
    solvers = ExchangeSolver(compiled), ExchangeSolver(reference)
    last = {key for key in solvers[0].regrets if key[0] == config.rounds - 1}
    assert last and not last & solvers[0]._strategies.keys()
    assert last <= solvers[1]._strategies.keys()
    for solver in solvers:
        solver.iterate(3)
    solvers[0].fill_classes()  # the compiled round keeps only each class's first's regrets
    for key in solvers[0].regrets:
        np.testing.assert_allclose(solvers[0].regrets[key], solvers[1].regrets[key], atol=1e-12)
        np.testing.assert_allclose(solvers[0].sums[key], solvers[1].sums[key], atol=1e-12)
    average = solvers[0].average()
    assert exploitability(compiled, average) == pytest.approx(exploitability(reference, average))
    assert profile_value(compiled, average) == pytest.approx(profile_value(reference, average))
    for player in (0, 1):
        chosen = [best_response_value(game, average, player)[1] for game in (compiled, reference)]
        assert chosen[0].keys() == chosen[1].keys()
        for key in chosen[0]:
            np.testing.assert_array_equal(chosen[0][key], chosen[1][key])


@pytest.mark.slow
def test_states_with_the_same_opponents_and_weights_are_one_class():
    """``row_classes``: a last stage's states with identical rows of ``pairs`` (which the
    compiled round walks once) and no others share a first state, which is the class's
    earliest; on three rounds the states of a player who drew twice shrink most."""
    game = ExchangeGame(LithConfig(rounds=3, cards=(0, 5, 9, 14, 20, 26, 31, 38), max_raises=1))
    shrunk = {}
    for stage in game.stages:
        if stage.pairs[0] is None:
            continue
        for p in (0, 1):
            indptr, indices, total, net = stage.pairs[p]
            first = stage.classes[p]
            rows = [
                (indices[i:j].tolist(), total[i:j].tolist(), net[i:j].tolist())
                for i, j in itertools.pairwise(indptr)
            ]
            for a, f in enumerate(first):
                assert f <= a and first[f] == f and rows[f] == rows[a]
            firsts = np.unique(first)
            assert len({repr(rows[f]) for f in firsts}) == len(firsts)  # none merged wrongly
            shrunk[(stage.patterns, p)] = (len(first), len(firsts))
    # Drawing twice on eight cards: 56 hands x (3 cards to give x 5 to get) x (3 x 4) states.
    # The two drawn cards were the last two in the deck, so the opponent holds exactly the
    # three cards this player never held: a state's row is one opponent hand, and its class
    # is at most its five cards held and its showdown result (win, tie or loss).
    states, classes = shrunk[(("draw0", "draw0"), 0)]
    assert states == 56 * 15 * 12 and classes <= math.comb(8, 5) * 3
    assert shrunk[(("swap", "swap"), 0)][0] == shrunk[(("swap", "swap"), 0)][1]
    # a tiny hand-made case: rows 0 and 2 alike, row 1 differs only in a weight
    indptr = np.array([0, 2, 4, 6])
    indices = np.array([3, 5, 3, 5, 3, 5])
    total = np.array([1.0, 2.0, 1.0, 2.5, 1.0, 2.0])
    np.testing.assert_array_equal(row_classes(indptr, indices, total, -total), [0, 1, 0])


def test_a_strategy_of_the_wrong_shape_is_refused(tiny_game, tiny_solution):
    strategy = dict(tiny_solution)
    last = max(key for key in strategy if key[0] == 1 and isinstance(key[2], int))
    strategy[last] = strategy[last][:, :-1]
    with pytest.raises(ValueError, match=rf"strategy of \(1, {last[1]}, {last[2]}\): shape"):
        profile_value(tiny_game, strategy)
