"""``--rule key=value`` as every program reads it (tablegame.rules, by game name through games)."""

import pytest

from games import game_config, parse_rules, rule_names


def test_an_unknown_rule_is_named_with_the_games_rules():
    with pytest.raises(ValueError, match=r"--rule foo: not a rule of lith; its rules: .*betting"):
        parse_rules(["foo=1"], "lith")
    with pytest.raises(ValueError, match=r"--rule ante: not a rule of gendeneia; .*presum"):
        game_config("gendeneia", 3, {"ante": 1})


def test_values_are_typed_none_is_none_and_one_value_of_a_list_rule_is_a_list():
    rules = parse_rules(["betting=no-limit", "ante=2", "excuse=none", "bet_sizes=1,2,3"], "lith")
    assert rules == {"betting": "no-limit", "ante": 2, "excuse": None, "bet_sizes": (1, 2, 3)}
    config = game_config("gendeneia", 3, parse_rules(["twist_any=Zelteta"], "gendeneia"))
    assert config.twist_any == (0,)


@pytest.mark.parametrize("text", ["ante", "=3", " =3"])
def test_a_rule_without_a_key_or_value_sign_is_refused(text):
    with pytest.raises(ValueError, match="--rule: expected key=value"):
        parse_rules([text], "lith")


def test_the_rules_are_the_config_fields_but_the_player_count():
    assert "num_players" not in rule_names("lith") and "betting" in rule_names("lith")
    assert "round_lots" in rule_names("gendeneia")
    with pytest.raises(ValueError, match="game: must be one of lith, gendeneia"):
        rule_names("poker")
