"""Small Lith games: ``rounds`` (fewer betting rounds) and ``cards`` (a subset of the deck)."""

import io
import json
import random

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lith_env
from games import game_config, parse_rules
from lith_env import play as lith_play
from lith_env.batched import BatchedLith
from lith_env.cards import CARDS, EXCUSE, card_id, deck
from lith_env.encoding import PHASES, encode, layout, observation_size
from lith_env.exchange import best_discard, unseen_cards
from lith_env.game import LithConfig, LithGame
from lith_env.history import hand_record, load_records, replay_hand
from lith_env.table import LithTable
from lith_env.vector import LithAllSeatsVectorEnv, LithVectorEnv
from tablegame.registry import make_agent
from tests.lith_helpers import CALL, CHECK, KEEP, bet, play, random_action, stacked_hand
from tournaments.per_table import lith_deal, new_lith_hand

NINE = ("The Author", "The Desert", "The Origin", "The Journey", "The Painter")
NINE += ("The Savage", "The Mountain", "The Sailor", "The Battle")


def phases_of(hand):
    """The phases a hand went through, from its action log: ("bet", round) and
    ("exchange", index), each once, in order."""
    seen = []
    for entry in hand.actions:
        step = (entry["phase"], entry["round"])
        if not seen or seen[-1] != step:
            seen.append(step)
    return seen


# ----------------------------------------------------------------------------- rounds


def test_one_round_is_deal_one_betting_round_and_showdown():
    config = LithConfig(rounds=1)
    hands = {
        0: ["The Author", "The Desert", "The Origin"],
        1: ["Ace of Moons", "The Savage", "The Battle"],
    }
    hand = stacked_hand(config, [100, 100], dealer=1, hands=hands)
    assert hand.phase == "bet" and hand.round == 0
    play(hand, CHECK, bet(2))
    play(hand, CALL)
    assert hand.is_over and hand.exchanges == []
    assert set(hand.showdown) == {0, 1}
    assert [a["phase"] for a in hand.actions] == ["bet"] * 3
    assert hand.net() == [3, -3]  # Totum Trio beats the other hand; antes and the bet


def test_two_rounds_have_one_exchange_then_the_second_bet_size():
    config = LithConfig(rounds=2, bet_sizes=(2, 3, 5))
    hand = LithGame(config, seed=11).hand
    play(hand, CHECK, CHECK)
    assert hand.phase == "exchange"
    play(hand, KEEP, KEEP)
    assert hand.phase == "bet" and hand.round == 1
    legal = hand.legal_actions()
    assert (legal.raise_kind, legal.min_to, legal.max_to) == ("bet", 3, 3)
    play(hand, bet(3), CALL)
    assert hand.is_over and len(hand.exchanges) == 1
    assert phases_of(hand) == [("bet", 0), ("exchange", 0), ("bet", 1)]
    assert sum(hand.net()) == 0 and sorted(hand.net()) == [-4, 4]


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_random_hands_follow_the_number_of_rounds(rounds):
    """Whatever is played, a hand of r rounds has betting only in rounds 0..r-1 and an
    exchange only between them (all-in hands included: their exchanges still happen)."""
    config = LithConfig(num_players=3, rounds=rounds, starting_chips=8, betting="no-limit")
    rng = random.Random(rounds)
    exchanges_seen = set()
    for seed in range(150):
        game = LithGame(config, seed=seed, first_dealer=None)
        hand = game.hand
        while not hand.is_over:
            hand.apply(random_action(hand.legal_actions(), rng))
        folded_out = hand.folded.count(False) == 1
        for phase, r in phases_of(hand):
            assert r <= (rounds - 1 if phase == "bet" else rounds - 2)
        if not folded_out:
            assert len(hand.exchanges) == rounds - 1  # every exchange, even after all-ins
        exchanges_seen.add(len(hand.exchanges))
    assert rounds - 1 in exchanges_seen


def test_a_one_round_hand_with_nobody_to_bet_goes_on_to_the_next_deal():
    """A seat left with the ante alone is all-in from the deal; with nobody else able to bet,
    the hand goes straight to the showdown and the match deals the next one."""
    config = LithConfig(rounds=1, starting_chips=(2, 10))
    game = LithGame(config, seed=0)
    game.apply(CHECK)
    game.apply(CHECK)  # hand 1: seat 0 loses its ante and has 1 chip left
    assert game.records[0]["net"] == [-1, 1]
    # hand 2 was decided with nobody to act, and hand 3 waits for a decision
    assert game.hands_played == 2 and game.records[1]["actions"] == []
    assert game.records[1]["showdown"] and game.current_player is not None
    rng = random.Random(0)
    while not game.is_over:
        assert game.current_player is not None and game.legal_actions().actions
        game.apply(random_action(game.legal_actions(), rng))
    assert len(game.records) == game.hands_played
    for record in game.records:
        assert replay_hand(record).net() == record["net"]
    assert sum(game.hand.stacks) == 12


def test_envs_refuse_a_one_round_game_where_nobody_could_ever_decide():
    """The engine plays such a game (every hand straight to the showdown), but an env would
    deal for ever waiting for a seat to act."""
    hopeless = [
        {"starting_chips": 1},
        {"num_players": 3, "starting_chips": (5, 2, 1), "ante": 2},
    ]
    makers = (
        lambda rules: gym.make("Lith-v0", **rules),
        lambda rules: lith_env.aec_env(**rules),
        lambda rules: LithVectorEnv(2, **rules),
        lambda rules: LithAllSeatsVectorEnv(2, **rules),
    )
    for rules in hopeless:
        game = LithGame(LithConfig(rounds=1, **rules), seed=0)
        assert game.hands_played >= 1 and game.records[0]["actions"] == []
        assert game.is_over or game.current_player is not None  # the next hand has one
        for make in makers:
            with pytest.raises(ValueError, match=r"^rounds: a one-round game needs two seats"):
                make({"rounds": 1, **rules})
    short_learner = {"rounds": 1, "num_players": 3, "starting_chips": (1, 5, 5), "learner_seat": 0}
    for make in (makers[0], makers[2]):
        with pytest.raises(ValueError, match=r"^learner_seat: seat 0 starts with 1 chip\(s\)"):
            make(short_learner)
    for rules in (
        {"rounds": 1, "starting_chips": (2, 2)},
        {"rounds": 2, "starting_chips": 1},
        {"rounds": 1, "starting_chips": (1, 5, 5), "num_players": 3, "learner_seat": 1},
        {"rounds": 2, "starting_chips": (1, 5), "learner_seat": 0},  # it exchanges
    ):
        _, info = gym.make("Lith-v0", **rules).reset(seed=0)  # a decision to make
        assert info["action_mask"].any()


def test_all_in_before_the_last_round_still_exchanges_then_shows_down():
    config = LithConfig(rounds=2, betting="no-limit", starting_chips=10)
    hand = LithGame(config, seed=3).hand
    first = hand.current
    play(hand, bet(9), CALL)  # all-in, and called
    assert hand.phase == "exchange" and hand.current == first
    play(hand, KEEP, KEEP)
    assert hand.is_over and hand.showdown and len(hand.exchanges) == 1


# ----------------------------------------------------------------------------- cards


def test_cards_are_names_or_ids_kept_as_sorted_ids():
    config = LithConfig(cards=[*NINE[::-1][:5], 6, 7, np.int64(8), "ace of moons"])
    assert config.cards == (0, 6, 7, 8, 10, 11, 12, 13, 14) and config.deck == config.cards
    assert all(type(c) is int for c in config.cards)
    assert config.deck_ids == list(config.cards)
    assert LithConfig(cards=NINE).cards == tuple(sorted(card_id(c) for c in NINE))
    assert LithConfig().cards is None and LithConfig().deck == tuple(range(44))


@st.composite
def small_games(draw):
    n = draw(st.integers(2, 4))
    rounds = draw(st.integers(1, 3))
    pawns_and_courts = draw(st.booleans())
    excuse = draw(st.sampled_from([None, "beggar", "imposter", "demon"]))
    pool = deck(pawns_and_courts, excuse=excuse is not None)
    need = 3 * n + (rounds - 1) * (n // 2)
    cards = draw(st.lists(st.sampled_from(pool), min_size=need, max_size=need + 3, unique=True))
    return LithConfig(
        num_players=n,
        rounds=rounds,
        pawns_and_courts=pawns_and_courts,
        excuse=excuse,
        cards=cards,
        betting=draw(st.sampled_from(["limit", "pot-limit", "no-limit"])),
        starting_chips=draw(st.integers(2 if rounds == 1 else 1, 30)),
        max_hands=4,
    )


@settings(max_examples=80, deadline=None)
@given(small_games(), st.integers(0, 2**32), st.integers(0, 2**32))
def test_a_cards_game_deals_only_its_cards_and_conserves_chips_and_cards(config, seed, play_seed):
    rng = random.Random(play_seed)
    subset = sorted(config.cards)
    game = LithGame(config, seed=seed, first_dealer=None)
    total = config.total_chips
    while not game.is_over:
        hand = game.hand
        held = [c for cards in hand.cards for c in cards]
        assert sorted(held + hand.deck_remaining()) == subset  # every card in one place
        assert sum(hand.stacks) + hand.pot == total
        game.apply(random_action(game.legal_actions(), rng))
    assert sum(game.hand.stacks) == total
    for record in game.records:
        named = set(record["deck"]) | {c for s in record["showdown"].values() for c in s}
        for ex in record["exchanges"]:
            named |= {r["card"] for r in ex["received"].values()}
        assert {card_id(c) for c in named} <= set(subset)
        assert sorted(card_id(c) for c in record["deck"]) == subset


def test_the_batched_engine_and_the_tournament_deal_only_the_subset():
    config = LithConfig(num_players=3, cards=tuple(range(2, 44, 3)))
    engine = BatchedLith(config, 64, episode="match")
    engine.reset(0)
    rng = np.random.default_rng(0)
    allowed = np.zeros(64, dtype=bool)
    allowed[list(config.cards)] = True
    for _ in range(300):
        dealt = engine.cards[engine.cards >= 0]
        assert allowed[dealt].all()
        masks = engine.action_masks()
        engine.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
    for number in range(20):
        order, _, _ = lith_deal(config, number)
        assert sorted(order) == list(config.cards)
        assert set(c for s in new_lith_hand(config, number).cards for c in s) <= set(order)


def test_heuristic_agents_reason_about_the_unseen_cards_of_the_subset():
    """The exchange counts only cards of the subset as ones it may receive. On hands of a
    small deck it picks the subset's best discard, which on some of them is not the whole
    deck's."""
    config = LithConfig(num_players=2, cards=tuple(range(0, 44, 4)))
    agent = make_agent("tag", "lith", config=config)
    table = LithTable(config)
    differs = 0
    for seed in range(60):
        table.reset(seed)
        hand = table.game.hand
        while not hand.is_over and hand.phase != "exchange":
            table.apply_id(1)  # check or call until the exchange
        if hand.is_over:
            continue
        seat = hand.current
        cards = sorted(hand.cards[seat])
        observation, mask = table.encode(seat), table.action_mask()
        unseen = unseen_cards(cards, in_play=config.deck)
        want = best_discard(cards, unseen)
        keep = int(np.flatnonzero(mask)[0])
        assert agent.act(observation, mask) == (
            keep if want is None else keep + 1 + cards.index(want)
        )
        assert agent.act_batch(observation[None], mask[None])[0] == agent.act(observation, mask)
        differs += want != best_discard(cards, unseen_cards(cards))
    assert differs > 0


# ----------------------------------------------------------------------------- bad values


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"rounds": 0}, r"^rounds: must be an integer from 1 to 3, got 0"),
        ({"rounds": 4}, r"^rounds: must be an integer from 1 to 3, got 4"),
        ({"rounds": "2"}, r"^rounds: .* got '2'"),
        ({"rounds": 2.5}, r"^rounds: .* got 2.5"),
        ({"rounds": True}, r"^rounds: .* got True"),
        ({"rounds": None}, r"^rounds: "),
        ({"cards": 5}, r"^cards: must be a list of card names or ids, got 5"),
        ({"cards": "The Author"}, r"^cards: must be a list of card names or ids"),
        ({"cards": [*NINE[:8], "The Authr"]}, r"^cards: unknown card 'The Authr'; did you mean"),
        ({"cards": [*NINE[:8], 45]}, r"^cards: card id 45 is out of range"),
        ({"cards": [*NINE[:8], 2.0]}, r"^cards: not a card name or id: 2.0"),
        ({"cards": [*NINE[:8], True]}, r"^cards: not a card: True"),
        ({"cards": [*NINE, "the author"]}, r"^cards: The Author is listed twice"),
        ({"cards": [*NINE, 6]}, r"^cards: The Author is listed twice"),
        ({"cards": [*NINE, "The Excuse"]}, r"^cards: The Excuse is not in the deck in play"),
        (
            {"cards": [*NINE, "The Watchman"], "pawns_and_courts": False},
            r"^cards: The Watchman is not in the deck in play: it is a Pawn or Court",
        ),
        ({"cards": NINE[:7]}, r"^cards: 7 given, too few for 2 players and 3 betting round"),
        (
            {"cards": range(10), "num_players": 3, "rounds": 3},
            r"^cards: 10 given, too few for 3 players and 3 betting round\(s\): a hand can use 11",
        ),
        (
            {"cards": range(13), "num_players": 4, "rounds": 2},
            r"^cards: 13 given, too few for 4 players and 2 .*can use 14",
        ),
    ],
)
def test_bad_values_name_the_field(rules, message):
    if rules.get("cards") is not None and not isinstance(rules["cards"], int | str):
        rules = {**rules, "cards": list(rules["cards"])}
    with pytest.raises(ValueError, match=message):
        LithConfig(**rules)


def test_the_smallest_decks_the_rules_allow():
    assert len(LithConfig(num_players=3, cards=range(11)).deck) == 11  # 9 + 2 x 1
    assert len(LithConfig(num_players=3, rounds=1, cards=range(9)).deck) == 9
    assert len(LithConfig(num_players=4, rounds=2, cards=range(14)).deck) == 14  # 12 + 2
    assert LithConfig(excuse="demon", cards=[*range(7), EXCUSE]).cards[-1] == EXCUSE


# ----------------------------------------------------------------------------- --rule


def test_rules_from_the_command_line():
    names = ",".join(NINE)
    rules = parse_rules(["rounds=1", f"cards={names}"], "lith")
    assert rules == {"rounds": 1, "cards": NINE}
    config = game_config("lith", 2, rules)
    assert config.rounds == 1 and config.cards == tuple(sorted(card_id(c) for c in NINE))
    by_id = game_config("lith", 2, parse_rules(["cards=0,1,2,3,4,5,6", "rounds=2"], "lith"))
    assert by_id.cards == tuple(range(7)) and by_id.rounds == 2
    spaced = game_config("lith", 2, parse_rules(["cards=The Author, the desert,0,1,2,3,4,5"]))
    assert spaced.cards == (0, 1, 2, 3, 4, 5, 6, 7)
    assert game_config("lith", 2, parse_rules(["cards=none"], "lith")).cards is None
    with pytest.raises(ValueError, match=r"^cards: 1 given, too few"):
        game_config("lith", 2, parse_rules(["cards=The Author"], "lith"))  # a list of one
    with pytest.raises(ValueError, match=r"^rounds: must be an integer from 1 to 3, got 2.5"):
        game_config("lith", 2, parse_rules(["rounds=2.5"], "lith"))


def test_the_play_program_refuses_a_bad_card_naming_the_option(tmp_path, capsys):
    argv = ["--rule", "cards=The Author,The Desrt,0,1,2,3,4", "--history", str(tmp_path / "h")]
    with pytest.raises(SystemExit) as stop:
        lith_play.main(argv, stdin=io.StringIO("q\n"))
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == "" and "Traceback" not in err
    assert "--rule cards: unknown card 'The Desrt'; did you mean 'The Desert'" in err


def test_the_play_program_plays_a_one_round_game_of_a_small_deck(tmp_path, capsys):
    path = tmp_path / "h.jsonl"
    argv = ["--seed", "5", "--bots", "caller", "--hands", "2", "--history", str(path)]
    argv += ["--rule", "rounds=1", "--rule", "cards=" + ",".join(NINE)]
    code = lith_play.main(argv, stdin=io.StringIO("1\n" * 20))
    screen = capsys.readouterr().out
    assert code == 0
    assert "1 betting round (no exchange), a deck of 9 cards" in screen
    assert "betting round 1 of 1" in screen
    assert "exchanges" not in screen and "keep" not in screen and "discard" not in screen
    records = load_records(path)
    assert len(records) == 2
    for record in records:
        assert record["config"]["rounds"] == 1 and record["config"]["cards"] == sorted(
            NINE, key=card_id
        )
        assert record["exchanges"] == []
        assert replay_hand(record).net() == record["net"]


def test_the_play_program_title_counts_rounds_and_exchanges(tmp_path, capsys):
    argv = ["--seed", "1", "--bots", "caller", "--history", str(tmp_path / "h")]
    lith_play.main([*argv, "--rule", "rounds=2"], stdin=io.StringIO("q\n"))
    screen = capsys.readouterr().out
    assert "betting round 1 of 2" in screen and "exchanges" in screen


# ----------------------------------------------------------------------------- records


def showdown_record(config):
    """The record of a hand checked and kept to the showdown."""
    game = LithGame(config, seed=1)
    while not game.records:
        legal = game.legal_actions()
        game.apply(legal.actions[0] if game.hand.phase == "exchange" else legal.actions[-1])
    return json.loads(json.dumps(game.records[0]))


def finished_hands(config, count, seed=0):
    rng = random.Random(seed)
    game = LithGame(config, seed=seed, first_dealer=None)
    while len(game.records) < count and not game.is_over:
        game.apply(random_action(game.legal_actions(), rng))
    return game.records


def test_records_round_trip_rounds_and_cards_as_names():
    config = LithConfig(num_players=3, rounds=2, cards=tuple(range(0, 36, 3)), max_hands=8)
    records = finished_hands(config, 8)
    assert len(records) == 8  # nobody busts with this seed: every hand is checked below
    for record in records:
        record = json.loads(json.dumps(record))
        assert record["config"]["rounds"] == 2
        assert record["config"]["cards"] == [CARDS[c].name for c in config.cards]
        hand = replay_hand(record)
        assert hand.config.rounds == 2 and hand.config.cards == config.cards
        assert hand_record(hand, seed=record["seed"], index=record["hand"]) == record


def test_records_with_card_ids_or_explicit_defaults_replay():
    config = LithConfig(rounds=1, cards=tuple(range(9)), max_hands=3)
    record = json.loads(json.dumps(finished_hands(config, 1)[0]))
    record["config"]["cards"] = list(range(9))[::-1]  # ids, in any order
    assert replay_hand(record).config.cards == tuple(range(9))
    standard = json.loads(json.dumps(finished_hands(LithConfig(max_hands=2), 1)[0]))
    assert "rounds" not in standard["config"] and "cards" not in standard["config"]
    assert replay_hand(standard).config == LithConfig(starting_chips=1)  # an old record
    explicit = {**standard, "config": {**standard["config"], "rounds": 3, "cards": None}}
    assert replay_hand(explicit).net() == standard["net"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: c.update(rounds=4), "^rounds: must be an integer from 1 to 3"),
        (lambda c: c.update(rounds=2), "^actions"),  # the hand no longer fits the record
        (lambda c: c.update(cards=["The Author"] * 9), "^cards: The Author is listed twice"),
        (lambda c: c.update(cards="The Author"), "^cards: must be a list"),
    ],
)
def test_records_with_bad_rounds_or_cards_are_refused(change, message):
    record = showdown_record(LithConfig())
    assert len(record["exchanges"]) == 2
    change(record["config"])
    with pytest.raises(ValueError, match=message):
        replay_hand(record)


def test_a_record_whose_deck_is_not_the_subset_is_refused():
    config = LithConfig(cards=tuple(range(9)), max_hands=2)
    record = json.loads(json.dumps(finished_hands(config, 1)[0]))
    record["config"]["cards"] = [CARDS[c].name for c in range(1, 10)]
    with pytest.raises(ValueError, match="^deck_order: must hold every card in play"):
        replay_hand(record)


# ----------------------------------------------------------------------------- envs


def assert_absent_rounds_read_zero(obs, n, rounds):
    where = layout(n)
    assert obs.shape == (where["size"][0],)
    phase = PHASES[int(np.argmax(obs[slice(where["phase"][0], where["phase"][0] + 6)]))]
    allowed = {"bet 1", "over"} | ({"exchange 1", "bet 2"} if rounds >= 2 else set())
    assert phase in allowed
    for e in range(rounds, 3):  # exchanges that do not exist
        for field in ("seats", "gave", "taken by", "got", "got from"):
            start, size = where[f"exchange {e} {field}"]
            assert not obs[start : start + size].any(), (e, field)
    start, _ = where["history"]
    per_round = n * 5
    assert not obs[start + rounds * per_round : start + 3 * per_round].any()
    assert not obs[where["raises"][0] + rounds : where["raises"][0] + 3].any()


@pytest.mark.parametrize("rounds", [1, 2])
def test_lith_v0_observations_keep_their_shape_and_absent_rounds_read_zero(rounds):
    env = gym.make("Lith-v0", rounds=rounds, opponents="caller", cards=NINE).unwrapped
    default = gym.make("Lith-v0").unwrapped
    assert env.observation_space.shape == default.observation_space.shape
    assert env.config.rounds == rounds and env.config.cards == LithConfig(cards=NINE).cards
    rng = np.random.default_rng(rounds)
    for seed in range(20):
        obs, info = env.reset(seed=seed)
        while True:
            assert_absent_rounds_read_zero(obs, 2, rounds)
            own = np.flatnonzero(obs[:45])
            assert set(own.tolist()) <= set(env.config.cards)
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                assert_absent_rounds_read_zero(obs, 2, rounds)
                break


def test_the_table_encodes_as_the_reference_in_a_one_round_game():
    config = LithConfig(num_players=3, rounds=1, cards=tuple(range(0, 44, 4)))
    table = LithTable(config)
    rng = np.random.default_rng(0)
    for seed in range(30):
        table.reset(seed)
        while not table.is_over:
            for seat in range(3):
                obs = table.encode(seat)
                np.testing.assert_array_equal(obs, encode(table.observe(seat), table.config))
                assert_absent_rounds_read_zero(obs, 3, 1)
            mask = table.action_mask()
            assert not mask[3:].any()  # never keep or discard
            table.apply_id(int(rng.choice(np.flatnonzero(mask))))


def test_aec_and_vector_envs_take_the_options():
    aec = lith_env.aec_env(num_players=3, rounds=1, cards=list(range(12)))
    assert aec.config.rounds == 1 and aec.config.cards == tuple(range(12))
    aec.reset(seed=0)
    for _agent in aec.agent_iter():
        obs, _, terminated, truncated, _ = aec.last()
        assert_absent_rounds_read_zero(obs["observation"], 3, 1)
        mask = obs["action_mask"]
        aec.step(None if terminated or truncated else int(np.flatnonzero(mask)[0]))
    vec = gym.make_vec("Lith-v0", num_envs=8, rounds=2, cards=NINE, opponents="tag")
    assert vec.unwrapped.config.rounds == 2
    obs, info = vec.reset(seed=0)
    assert obs.shape == (8, observation_size(LithConfig()))
    rng = np.random.default_rng(0)
    for _ in range(60):
        assert set(np.flatnonzero(obs[:, :45].any(axis=0)).tolist()) <= set(
            LithConfig(cards=NINE).cards
        )
        for row in obs:
            assert_absent_rounds_read_zero(row, 2, 2)
        masks = info["action_mask"]
        obs, _, _, _, info = vec.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
    seats = LithAllSeatsVectorEnv(4, num_players=3, rounds=1, cards=range(9))
    assert seats.config.rounds == 1 and len(seats.config.deck) == 9
    with pytest.raises(ValueError, match="^rounds:"):
        LithVectorEnv(2, rounds=0)
    with pytest.raises(ValueError, match="^cards:"):
        gym.make("Lith-v0", cards=["The Excuse", *NINE])
