"""The Gendeneía engine (docs/rules.md §4): turns, trumping, every variant, every end condition."""

import copy
import itertools
import json
import random

import numpy as np
import pytest

from gendeneia_env import score_player
from gendeneia_env.cards import card, parse_card
from gendeneia_env.game import (
    DISCARD,
    KEEP,
    PASS,
    GAction,
    GendeneiaConfig,
    GendeneiaGame,
    IllegalActionError,
)
from gendeneia_env.history import game_record, replay_game
from tests.gendeneia_helpers import arrange, new_game


def play(target):
    return GAction("play", target=target)


def remove(name):
    return GAction("remove", card=parse_card(name))


def lot(game, seat, name):
    from gendeneia_env.cards import pair_name

    index = ("Collars", "Hope", "Blood").index(name)
    return [pair_name(*p) for p in game.lots[seat][index]]


def discards(game):
    from gendeneia_env.cards import card_name

    return {card_name(c) for pile in game.piles.values() for c in pile.discard}


# ----------------------------------------------------------------------------- a turn


def test_keep_play_onto_another_player_then_draw():
    game = arrange(new_game(), hands={0: "3B/5Q"}, draw_top={"choice": ["4H"], "force": ["2W"]})
    assert game.current == 0 and game.phase == "discard"
    game.apply(KEEP)
    assert game.phase == "play"
    game.apply(play(1))
    assert lot(game, 1, "Blood") == ["3B/5Q"]
    assert game.hands[0] == [parse_card("4H"), parse_card("2W")]
    assert game.current == 1 and game.phase == "discard"


def test_discard_then_draw_then_play():
    game = arrange(new_game(), hands={0: "3B/5Q"}, draw_top={"choice": ["4H"], "force": ["2W"]})
    game.apply(DISCARD)
    assert {"3B", "5Q"} <= discards(game)
    assert game.hands[0] == [parse_card("4H"), parse_card("2W")] and game.phase == "play"
    game.apply(play(0))
    assert lot(game, 0, "Hope") == ["4H/2W"]


def test_discarding_ends_the_turn_under_the_variant():
    game = arrange(new_game(discard_ends_turn=True), hands={0: "3B/5Q"})
    game.apply(DISCARD)
    assert game.current == 1 and game.phase == "discard"
    assert all(pair == [] for seat in game.lots for pair in seat)


# ----------------------------------------------------------------------------- trumping


def test_quill_removes_every_lower_wind_and_nothing_else():
    game = arrange(
        new_game(),
        hands={0: "8C/5Q"},
        lots={0: {"Collars": ["2C/4W", "5C/3W", "7C/6W", "1C/5T"]}},
    )
    game.apply(KEEP)
    game.apply(play(0))
    assert lot(game, 0, "Collars") == ["7C/6W", "1C/5T", "8C/5Q"]
    assert {"2C", "5C", "4W", "3W"} <= discards(game)


def test_equal_values_do_not_trump():
    game = arrange(new_game(), hands={0: "3C/5Q"}, lots={1: {"Collars": ["2C/5W"]}})
    game.apply(KEEP)
    game.apply(play(1))
    assert lot(game, 1, "Collars") == ["2C/5W", "3C/5Q"]


def test_wind_removes_lower_quills():
    game = arrange(new_game(), hands={0: "5H/7W"}, lots={2: {"Hope": ["2H/3Q", "4H/9Q", "6H/2W"]}})
    game.apply(KEEP)
    game.apply(play(2))
    assert lot(game, 2, "Hope") == ["4H/9Q", "6H/2W", "5H/7W"]


def test_twists_neither_remove_nor_are_removed():
    game = arrange(new_game(), hands={0: "4B/9T"}, lots={0: {"Blood": ["2B/1Q", "3B/2T"]}})
    game.apply(KEEP)
    game.apply(play(0))
    assert lot(game, 0, "Blood") == ["2B/1Q", "3B/2T", "4B/9T"]
    game2 = arrange(new_game(), hands={0: "5B/11Q"}, lots={0: {"Blood": ["3B/2T"]}})
    game2.apply(KEEP)
    game2.apply(play(0))
    assert lot(game2, 0, "Blood") == ["3B/2T", "5B/11Q"]


def test_zero_is_twelve_when_trumping():
    game = arrange(new_game(), hands={0: "3C/0Q"}, lots={0: {"Collars": ["2C/11W"]}})
    game.apply(KEEP)
    game.apply(play(0))
    assert lot(game, 0, "Collars") == ["3C/0Q"]


# ----------------------------------------------------------------------------- Twist removals


def twist_game(**rules):
    return arrange(
        new_game(**rules),
        hands={0: "4C/0T"},  # 0T is Zelteta
        lots={1: {"Hope": ["5H/3Q"]}, 2: {"Blood": ["6B/2W", "7B/4T"]}},
    )


def test_zelteta_may_remove_any_pair_from_any_lot():
    game = twist_game(twist_any=("Zelteta",), twist_any_rule="may")
    game.apply(KEEP)
    game.apply(play(0))
    assert game.phase == "remove" and game.current == 0
    assert set(map(str, game.legal_actions())) == {
        "remove the pair of 5H",
        "remove the pair of 6B",
        "pass",
    }  # Twist pairs (7B/4T, and the 4C/0T just played) are never removed
    game.apply(remove("6B"))
    assert lot(game, 2, "Blood") == ["7B/4T"]
    assert {"6B", "2W"} <= discards(game)
    assert game.current == 1


def test_must_removes_when_it_can_and_passes_when_it_cannot():
    game = twist_game(twist_any=(0, 11, 5), twist_any_rule="must")
    game.apply(KEEP)
    game.apply(play(0))
    assert PASS not in game.legal_actions() and len(game.legal_actions()) == 2
    empty = arrange(new_game(twist_any=("Zelteta",), twist_any_rule="must"), hands={0: "4C/0T"})
    empty.apply(KEEP)
    empty.apply(play(0))
    assert empty.legal_actions() == [PASS]


def test_twists_outside_the_chosen_set_remove_nothing():
    game = arrange(
        new_game(twist_any=("Stillanivía",)), hands={0: "4C/0T"}, lots={1: {"Hope": ["5H/3Q"]}}
    )
    game.apply(KEEP)
    game.apply(play(0))
    assert game.current == 1 and lot(game, 1, "Hope") == ["5H/3Q"]


def test_thela_removes_only_a_pair_of_its_own_choice_suit():
    game = arrange(
        new_game(twist_suit=("Thela", "Haspina"), twist_suit_rule="may"),
        hands={0: "4H/10T"},
        lots={1: {"Hope": ["5H/3Q"]}, 2: {"Collars": ["2C/1W"], "Hope": ["9H/0W"]}},
    )
    game.apply(KEEP)
    game.apply(play(1))
    assert set(map(str, game.legal_actions())) == {
        "remove the pair of 5H",
        "remove the pair of 9H",
        "pass",
    }
    game.apply(PASS)
    assert lot(game, 1, "Hope") == ["5H/3Q", "4H/10T"]


# ----------------------------------------------------------------------------- round lots


def test_round_lots_trump_during_the_round_and_merge_into_the_leader_in_play_order():
    game = arrange(
        new_game(round_lots=True),
        hands={0: "3B/5Q", 1: "2B/1W", 2: "6B/7W"},
        lots={0: {"Blood": ["1B/2Q"]}},
    )
    game.apply(KEEP)  # the pair goes onto the round's lots: no target to choose
    assert [p for p in game.temp_lots[2]] == [(parse_card("3B"), parse_card("5Q"))]
    game.apply(KEEP)
    game.apply(KEEP)  # 7W removes 3B/5Q from the round's Blood lot
    assert game.round == 1 and game.leader == 1 and game.current == 1
    assert game.temp_lots == [[], [], []]
    # Merged onto seat 0 (the leader) in play order; 6B/7W then trumps 1B/2Q there.
    assert lot(game, 0, "Blood") == ["2B/1W", "6B/7W"]
    assert {"3B", "5Q", "1B", "2Q"} <= discards(game)


def test_round_lots_cut_short_by_the_reshuffle_limit_are_merged_and_scored():
    game = arrange(
        new_game(round_lots=True, max_rounds=None, max_reshuffles=1),
        hands={0: "3B/5Q", 1: "2H/7W"},
        lots={0: {"Blood": ["1B/2W"]}},
    )
    forces = game.piles["force"]  # one Force left to draw: seat 1's draw reshuffles
    forces.discard += forces.draw[:-1]
    del forces.draw[:-1]
    game.apply(KEEP)
    game.apply(KEEP)
    assert game.is_over and game.end_reason == "1 reshuffle(s)" and game.round == 0
    # The round ends with the game: both pairs go to the leader (seat 0) in play order, and
    # 3B/5Q trumps 1B/2W there as it lands. Before the fix they stayed on the round's lots.
    assert game.temp_lots == [[], [], []]
    assert lot(game, 0, "Blood") == ["3B/5Q"] and lot(game, 0, "Hope") == ["2H/7W"]
    assert {"1B", "2W"} <= discards(game)
    assert game.scores()[0] == abs(0 - 3) + abs(2 - 3)
    record = json.loads(json.dumps(game_record(game)))
    assert record["lots"][0]["Blood"] == ["3B/5Q"] and record["scores"][0] == 4


def test_round_lots_cut_short_by_a_pile_that_cannot_be_refilled_are_merged():
    game = new_game(round_lots=True, max_rounds=50)
    pair = tuple(game.hands[0])
    choices, forces = game.piles["choice"], game.piles["force"]
    while choices.draw:  # every Choice left goes onto seat 2's lots: none can be drawn again
        choice = choices.draw.pop()
        game.lots[2][choice // 12].append((choice, forces.draw.pop()))
    assert sorted(game.card_locations()) == list(range(72)) and choices.discard == []
    game.apply(KEEP)
    assert game.is_over and game.end_reason == "a draw pile could not be refilled"
    assert game.temp_lots == [[], [], []] and game.lots[0][pair[0] // 12] == [pair]


# ----------------------------------------------------------------------------- reshuffles and ends


def test_empty_draw_pile_is_refilled_by_a_reshuffle():
    game = new_game(max_rounds=5)
    pile = game.piles["choice"]
    pile.discard, pile.draw = pile.draw, []
    size = len(pile.discard)
    game.apply(KEEP)
    game.apply(play(0))
    assert game.reshuffles == 1
    assert len(pile.draw) == size - 1 and pile.discard == []


def test_game_ends_at_the_turn_of_the_set_reshuffle():
    game = new_game(max_rounds=None, max_reshuffles=1)
    pile = game.piles["force"]
    pile.discard, pile.draw = pile.draw, []
    game.apply(KEEP)
    game.apply(play(0))
    assert game.is_over and game.end_reason == "1 reshuffle(s)" and game.current is None


def test_game_ends_when_a_pile_cannot_be_refilled():
    game = new_game(max_rounds=50)
    # Every Choice left in the draw pile goes onto seat 2's lots, so none can be drawn again.
    pile, forces = game.piles["choice"], game.piles["force"]
    while pile.draw:
        choice = pile.draw.pop()
        game.lots[2]["CHB".index("CHB"[choice // 12])].append((choice, forces.draw.pop()))
    assert sorted(game.card_locations()) == list(range(72))
    game.apply(KEEP)
    game.apply(play(0))
    assert game.is_over and game.end_reason == "a draw pile could not be refilled"


def turns_and_leaders(game):
    """Keep and play onto one's own lots until the end: (seat, round leader) of every turn."""
    turns = []
    while not game.is_over:
        if game.phase == "discard":
            turns.append((game.current, game.observe(0).leader))
        game.apply(KEEP if game.phase == "discard" else play(game.current))
    return turns


@pytest.mark.parametrize(("n", "first"), [(2, 0), (3, 1), (5, 4)])
def test_base_game_turns_go_clockwise_one_per_player_per_round(n, first):
    # The rule: turns go clockwise, one per player per round; only round_lots has a leader.
    game = new_game(num_players=n, max_rounds=4, first_player=first)
    turns = turns_and_leaders(game)
    seats = [seat for seat, _ in turns]
    assert seats == [(first + k) % n for k in range(4 * n)]  # first, first + 1, ... clockwise
    assert all(a != b for a, b in itertools.pairwise(seats))  # nobody twice in a row
    assert {leader for _, leader in turns} == {None} and game.leader is None
    assert game.end_reason == "4 round(s)" and game.round == 4


def test_round_lots_rounds_open_at_the_leader_and_the_lead_passes_left():
    game = new_game(num_players=3, max_rounds=4, first_player=2, round_lots=True)
    turns = turns_and_leaders(game)
    assert [seat for seat, _ in turns] == [2, 0, 1, 0, 1, 2, 1, 2, 0, 2, 0, 1]
    assert [leader for _, leader in turns] == [2] * 3 + [0] * 3 + [1] * 3 + [2] * 3
    assert game.end_reason == "4 round(s)" and game.round == 4


def test_no_reshuffle_at_all_when_the_limit_is_0():
    game = new_game(max_rounds=None, max_reshuffles=0)
    game.apply(DISCARD)  # the discard piles now hold cards a reshuffle could use
    plays = 0
    while not game.is_over:
        if game.phase == "discard":
            game.apply(KEEP)
        else:
            game.apply(play(game.current))
            plays += 1
    # 33 cards of each kind are left after the deal; the discard drew 1 more, then 1 a turn:
    # the 33rd turn's draw finds the Choice pile empty and ends the game.
    assert plays == 33 and game.reshuffles == 0
    assert game.end_reason == "a draw pile ran out (no reshuffle allowed)"
    assert game.piles["choice"].draw == [] and len(game.piles["choice"].discard) >= 1


def test_scores_use_the_shared_scoring_code():
    game = new_game(num_players=3, max_rounds=4, presum="subtract", seed=5)
    while not game.is_over:
        game.apply(
            game.legal_actions()[0] if game.phase != "play" else play((game.current + 1) % 3)
        )
    for seat in range(3):
        assert game.scores()[seat] == score_player(game.written_lots(seat), presum="subtract")
    assert game.winners() == [s for s, x in enumerate(game.scores()) if x == min(game.scores())]


def test_win_shares_split_the_win_among_the_tied_lowest_scores():
    tied = 0
    for seed in range(40):
        game = new_game(num_players=3, max_rounds=2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        winners = game.winners()
        tied += len(winners) > 1
        expected = [1 / len(winners) if s in winners else 0.0 for s in range(3)]
        assert game.win_shares() == pytest.approx(expected)
        assert sum(game.win_shares()) == pytest.approx(1.0)
    assert tied  # a tie is among the games, so the split is exercised


# ----------------------------------------------------------------------------- bad input


def state(game):
    """The game's state for comparison: the legal-actions cache left out, the random
    generator by its state (generators compare by identity)."""
    out = copy.deepcopy({k: v for k, v in vars(game).items() if k not in ("_legal", "_rng")})
    out["_rng"] = game._rng.getstate()
    return out


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (
            play(0),
            "illegal action play onto seat 0; seat 0 to act \\(discard\\); legal: keep, discard",
        ),
        (remove("3B"), "illegal action remove the pair of 3B"),
        (PASS, "illegal action pass"),
        (GAction("shuffle"), "illegal action shuffle"),
    ],
)
def test_illegal_actions_raise_and_change_nothing(action, message):
    game = new_game()
    before = state(game)
    with pytest.raises(IllegalActionError, match=message):
        game.apply(action)
    assert state(game) == before


def removal_game():
    game = arrange(
        new_game(twist_any=("Zelteta",)), hands={0: "4C/0T"}, lots={1: {"Collars": ["1C/3Q"]}}
    )
    game.apply(KEEP)
    game.apply(play(0))
    assert game.legal_actions() == [GAction("remove", card=1), PASS]  # 1C is card id 1
    return game


BAD_INTS = [1.0, True, "1", np.float64(1.0)]  # each compares equal to 1, or names it


@pytest.mark.parametrize("bad", BAD_INTS, ids=repr)
def test_a_target_that_is_not_an_integer_is_illegal_and_changes_nothing(bad):
    game = new_game()
    game.apply(KEEP)
    before = state(game)
    with pytest.raises(IllegalActionError, match="target must be an integer.*legal: play onto"):
        game.apply(GAction("play", target=bad))
    assert state(game) == before
    game.apply(play(1))  # the game goes on
    assert lot(game, 1, "Collars") + lot(game, 1, "Hope") + lot(game, 1, "Blood") != []


@pytest.mark.parametrize("bad", BAD_INTS, ids=repr)
def test_a_card_that_is_not_an_integer_is_illegal_and_changes_nothing(bad):
    game = removal_game()
    before = state(game)
    with pytest.raises(IllegalActionError, match="card must be an integer.*legal: remove the pair"):
        game.apply(GAction("remove", card=bad))
    assert state(game) == before


def test_an_action_that_is_not_a_gaction_is_illegal():
    game = new_game()
    before = state(game)
    with pytest.raises(IllegalActionError, match="illegal action keep: not a GAction"):
        game.apply("keep")
    assert state(game) == before


def test_numpy_integers_are_played_as_python_ints_and_records_stay_json_ready():
    game = removal_game()
    game.apply(GAction("remove", card=np.int64(1)))
    game.apply(KEEP)
    game.apply(GAction("play", target=np.int32(2)))
    assert lot(game, 2, "Collars") + lot(game, 2, "Hope") + lot(game, 2, "Blood") != []
    assert all(type(entry.get("target", 0)) is int for entry in game.actions)
    record = json.loads(json.dumps(game_record(game)))
    assert record["actions"][1] == {"seat": 0, "kind": "play", "target": 0}
    assert record["actions"][2] == {"seat": 0, "kind": "remove", "card": "1C"}
    assert record["actions"][4] == {"seat": 1, "kind": "play", "target": 2}


def test_play_onto_a_seat_that_does_not_exist():
    game = new_game()
    game.apply(KEEP)
    with pytest.raises(
        IllegalActionError, match="legal: play onto seat 0, play onto seat 1, play onto seat 2"
    ):
        game.apply(play(3))


def test_no_action_once_over():
    game = new_game(num_players=2, max_rounds=1)
    while not game.is_over:
        game.apply(KEEP if game.phase == "discard" else play(0))
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.apply(KEEP)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"num_players": 1}, "num_players"),
        ({"num_players": 7}, "num_players"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"max_rounds": None}, "max_rounds"),
        ({"max_reshuffles": -1}, "max_reshuffles"),
        ({"max_rounds": None, "max_reshuffles": None}, "max_rounds"),
        ({"max_rounds": 2.0}, "max_rounds"),
        ({"max_rounds": True}, "max_rounds"),
        ({"max_rounds": "3"}, "max_rounds"),
        ({"max_reshuffles": 1.5}, "max_reshuffles"),
        ({"max_reshuffles": 0.0}, "max_reshuffles"),
        ({"max_reshuffles": False}, "max_reshuffles"),
        ({"max_reshuffles": np.float64(2)}, "max_reshuffles"),
        ({"num_players": True}, "num_players"),
        ({"num_players": 3.0}, "num_players"),
        ({"twist_any": (False,)}, "twist_any"),
        ({"twist_any": (0.0,)}, "twist_any"),
        ({"twist_suit": 10}, "twist_suit"),
        ({"twist_suit": "Thela"}, "twist_suit"),
        ({"discard_ends_turn": "yes"}, "discard_ends_turn"),
        ({"presum": "add"}, "presum"),
        ({"twist_any": ("Thela",)}, "twist_any"),
        ({"twist_suit": (0,)}, "twist_suit"),
        ({"twist_any_rule": "should"}, "twist_any_rule"),
        ({"twist_suit_rule": "can"}, "twist_suit_rule"),
        ({"round_lots": 1}, "round_lots"),
    ],
)
def test_bad_configuration_names_the_field(kwargs, field):
    with pytest.raises(ValueError, match=f"^{field}:"):
        GendeneiaConfig(**kwargs)


def test_numpy_integer_counts_are_stored_as_ints():
    config = GendeneiaConfig(
        num_players=np.int64(4),
        max_rounds=np.int32(2),
        max_reshuffles=np.int64(0),
        twist_any=(np.int64(11),),
    )
    assert (config.num_players, config.max_rounds, config.max_reshuffles) == (4, 2, 0)
    assert config.twist_any == (11,)
    values = (config.num_players, config.max_rounds, config.max_reshuffles, *config.twist_any)
    assert all(type(v) is int for v in values)


def test_bad_seat_first_player_and_seed():
    with pytest.raises(ValueError, match="^first_player:"):
        GendeneiaGame(GendeneiaConfig(num_players=2), first_player=2)
    with pytest.raises(ValueError, match="^seat:"):
        new_game().observe(5)
    for seed in (1.5, "7", True):
        with pytest.raises(ValueError, match="^seed:"):
            GendeneiaGame(seed=seed)


# ----------------------------------------------------------------------------- records


def finished_game(**rules):
    game = GendeneiaGame(GendeneiaConfig(num_players=4, max_rounds=6, **rules), seed=9)
    k = 0
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[k % len(legal)])
        k += 1
    return game


def test_records_replay_to_the_same_result():
    for rules in ({}, {"twist_any": (0, 5), "round_lots": True, "presum": "ignore"}):
        game = finished_game(**rules)
        record = json.loads(json.dumps(game_record(game)))
        replayed = replay_game(record)
        assert replayed.scores() == game.scores() and game_record(replayed) == record


@pytest.mark.parametrize(
    "rules",
    [{}, {"round_lots": True, "max_rounds": None, "max_reshuffles": 2, "twist_any": (0, 5)}],
)
def test_a_game_without_a_seed_records_the_seed_it_drew_and_replays(rules):
    game = GendeneiaGame(GendeneiaConfig(num_players=3, **rules))  # seed=None
    assert type(game.seed) is int
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    record = json.loads(json.dumps(game_record(game)))
    assert record["seed"] == game.seed
    replayed = replay_game(record)
    assert replayed.scores() == game.scores() and replayed.lots == game.lots
    assert replayed.piles == game.piles and replayed.hands == game.hands
    assert game_record(replayed) == record
    assert GendeneiaGame().seed != GendeneiaGame().seed  # a fresh seed each time


def test_a_record_without_a_seed_is_refused():
    record = json.loads(json.dumps(game_record(finished_game())))
    record["seed"] = None
    with pytest.raises(ValueError, match="^seed: must be an integer"):
        replay_game(record)


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda r: r.update(format="x"), "^format:"),
        (lambda r: r.pop("seed"), "^seed: missing"),
        (lambda r: r["config"].update(num_players=9), "^num_players:"),
        (lambda r: r["config"].update(colour=1), "^config:"),
        (lambda r: r["actions"][0].update(kind="fly"), r"^actions\[0\]: illegal action fly"),
        (
            lambda r: r["actions"][1].update(seat=(r["actions"][1]["seat"] + 1) % 4),
            r"^actions\[1\]: seat \d acts but seat \d is to act",
        ),
        (lambda r: r.update(scores=[0, 0, 0, 0]), "^scores: the replay gives"),
        (lambda r: r.update(seed=r["seed"] + 1), "^(lots|scores|actions|winners|reshuffles)"),
    ],
)
def test_malformed_record_names_the_field(corrupt, message):
    record = json.loads(json.dumps(game_record(finished_game())))
    corrupt(record)
    with pytest.raises(ValueError, match=message):
        replay_game(record)


def test_twist_names_or_numbers():
    assert GendeneiaConfig(twist_any=("Zelteta", 11)).twist_any == (0, 11)
    assert card(10, "T") == parse_card("10T")
