"""agents.lbr: the local best response, a lower bound that needs no training."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents import lbr

# Exact exploitability, chips/100 hands (lith_solver exploitability; docs/exact_solving.md).
ONE_ROUND = {"rounds": 1}
EXACT_ONE_ROUND = {"caller": 50.20, "rock": 11.51, "tag": 23.82}
FOURTEEN = {"rounds": 2, "cards": list(range(0, 28, 2))}
# ... and on those fourteen cards, two rounds: `decktet exploitability tag --rule rounds=2
# --rule cards=0,2,...,26` (20 CPU s each, so not computed again here)
EXACT_FOURTEEN = {"caller": 100.1996, "tag": 79.1687}


def gain(spec: str, rules: dict, hands: int, particles: int = 300, seed: int = 0) -> dict:
    return lbr.lbr_gain(lbr.local_best_response(spec, rules, particles, seed), hands, seed)


@pytest.mark.slow
@pytest.mark.parametrize("spec", sorted(EXACT_ONE_ROUND))
def test_on_one_round_it_stays_at_or_below_the_exact_exploitability(spec):
    result = gain(spec, ONE_ROUND, 1_000)
    assert result["low"] <= EXACT_ONE_ROUND[spec]
    assert result["low"] > 0  # and it finds the weakness: every one of these loses to it


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["tag", "caller"])
def test_through_an_exchange_it_stays_at_or_below_the_exact_exploitability(spec):
    result = gain(spec, FOURTEEN, 600, particles=165)  # 165: every hand LBR does not block
    assert result["low"] <= EXACT_FOURTEEN[spec] and result["low"] > 0


@pytest.mark.slow
def test_against_a_sampling_bot_it_reads_its_probabilities():
    # the bluffer mixes (bets a weak hand at freq): measured through action_probabilities
    result = gain("bluffer", ONE_ROUND, 400)
    assert result["low"] <= 36.5 and result["hands"] == 400


def test_the_same_seed_plays_the_same_hands():
    first, again = gain("tag", FOURTEEN, 40, 100, seed=3), gain("tag", FOURTEEN, 40, 100, seed=3)
    assert first["mean"] == again["mean"] and first["low"] == again["low"]
    assert gain("tag", FOURTEEN, 40, 100, seed=4)["mean"] != first["mean"]


def test_the_range_keeps_only_histories_that_fit_what_lbr_saw():
    """After each hand, every particle of positive weight holds three distinct cards, none of
    them LBR's or one it drew, the card it gave in a swap; and the bot's real hand, when it
    drew nothing from the deck, is among them."""
    response = lbr.local_best_response("tag", FOURTEEN, 165, 0)  # every hand LBR leaves
    seen_swap = seen_dealt = 0
    for deal in range(30):
        response.play(deal, deal % 2)
        kept = response.range
        view = response.table.observe(deal % 2)
        live = kept.weight > 0
        hands = kept.hand[live]
        assert (np.diff(np.sort(hands, axis=1), axis=1) > 0).all()
        assert not np.isin(hands, view.cards).any()
        for log in view.exchanges:
            if log.received_from is not None:  # a swap: the bot holds what LBR gave
                seen_swap += 1
                assert (hands == log.my_discard).any(axis=1).all()
            elif log.received is not None:  # LBR drew it: the bot never held it
                assert not (kept.dealt[live] == log.received).any()
        bot = response.table.observe(1 - deal % 2)
        if not any(log.drew[bot.seat] for log in bot.exchanges):  # its history was dealt
            # the bot's real hand is in the sample (every hand is), and never ruled out
            assert (hands == np.array(bot.cards)).all(axis=1).any()
            seen_dealt += 1
    assert seen_swap and seen_dealt >= 10  # the checks above ran


def test_the_range_stays_a_range_through_the_exchanges():
    """LBR never looks at the bot's cards: after hands that reached an exchange, the range
    still weighs hands other than the bot's real one (its strategy, not its cards, rules
    hands out), and the bot's actions have ruled some out."""
    response = lbr.local_best_response("tag", FOURTEEN, 165, 0)
    exchanged = kept_others = narrowed = 0
    for deal in range(30):
        response.play(deal, deal % 2)
        if not response.table.observe(deal % 2).exchanges:
            continue
        exchanged += 1
        weight, hands = response.range.weight, response.range.hand
        real = np.sort(response.table.observe(1 - deal % 2).cards)
        kept_others += bool(weight[(hands != real).any(axis=1)].sum() > 0)
        narrowed += bool((weight == 0).any())
    assert exchanged >= 12
    assert kept_others >= 0.75 * exchanged  # 15 of 16 here; a hand ruled out all but one
    assert narrowed >= 0.75 * exchanged


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tag", "--hands", "21"], "--hands: must be even"),
        (["tag", "--hands", "0"], "--hands: must be at least 1"),
        (["tag", "--particles", "0"], "--particles: must be at least 1"),
        (["tag", "--rule", "betting=no-limit"], "--rule betting: LBR plays limit betting"),
        (["tag", "--rule", "rounds=7"], "rounds"),
        (["maniac"], "unknown agent 'maniac' for lith"),
        (["ppo:/no/model.zip"], "ppo: no model file at"),
    ],
)
def test_bad_options_exit_2_naming_them(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        lbr.main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_the_command_prints_the_gain_and_writes_json(tmp_path, capsys):
    out = tmp_path / "lbr.json"
    args = ["caller", "--rule", "rounds=1", "--hands", "40", "--particles", "50"]
    assert lbr.main([*args, "--out", str(out)]) == 0
    assert "LBR gain over caller:" in capsys.readouterr().out
    result = json.loads(out.read_text())
    assert result["rules"] == ONE_ROUND and result["hands"] == 40
    with pytest.raises(SystemExit):
        lbr.main([*args, "--out", str(tmp_path)])
