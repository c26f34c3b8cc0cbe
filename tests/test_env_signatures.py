"""The envs take their rules from the game's config: ``config`` and/or its fields by keyword.

A default lives in one place, the config dataclass: no env copies a field into its signature,
every field reaches every env's config, and a default changed in the dataclass is what an env
built without that rule plays.
"""

import dataclasses
import inspect

import gymnasium as gym
import pytest

import gendeneia_env
import lith_env
from gendeneia_env.aec import GendeneiaAECEnv
from gendeneia_env.env import GendeneiaEnv
from gendeneia_env.game import GendeneiaConfig
from lith_env.aec import LithAECEnv
from lith_env.env import LithEnv
from lith_env.game import LithConfig
from lith_env.vector import LithAllSeatsVectorEnv, LithVectorEnv

LITH_FIELDS = [f.name for f in dataclasses.fields(LithConfig)]
GENDENEIA_FIELDS = [f.name for f in dataclasses.fields(GendeneiaConfig)]

# Ids in both the whole deck and the deck without pawns and courts but with the Excuse.
_SHARED = sorted(
    set(LithConfig().deck) & set(LithConfig(pawns_and_courts=False, excuse="beggar").deck)
)

# A value other than the default for every field; together they make one valid config.
LITH_OTHER = {
    "num_players": 3,
    "betting": "pot-limit",
    "bet_sizes": (1, 3, 5),
    "max_raises": 2,
    "pawns_and_courts": False,
    "excuse": "beggar",
    "starting_chips": 50,
    "ante": 2,
    "max_hands": 7,
    "rounds": 2,
    "cards": tuple(_SHARED[:30]),
}
GENDENEIA_OTHER = {
    "num_players": 4,
    "max_rounds": 6,
    "max_reshuffles": 2,
    "discard_ends_turn": True,
    "presum": "subtract",
    "twist_any": (GendeneiaConfig(twist_any=("Zelteta",)).twist_any[0],),
    "twist_any_rule": "must",
    "twist_suit": (6, 10),
    "twist_suit_rule": "must",
    "round_lots": True,
}

# Every way to build a Lith env; "match" episodes keep max_hands as given (a "hand" is one).
LITH_MAKERS = {
    "gym.make": lambda **kw: gym.make("Lith-v0", episode="match", **kw).unwrapped,
    "LithEnv": lambda **kw: LithEnv(episode="match", **kw),
    "gym.make_vec": lambda **kw: gym.make_vec("Lith-v0", num_envs=2, episode="match", **kw),
    "LithVectorEnv": lambda **kw: LithVectorEnv(2, episode="match", **kw),
    "LithAllSeatsVectorEnv": lambda **kw: LithAllSeatsVectorEnv(2, episode="match", **kw),
    "aec_env": lambda **kw: lith_env.aec_env(episode="match", **kw),
    "LithAECEnv": lambda **kw: LithAECEnv(episode="match", **kw),
}
GENDENEIA_MAKERS = {
    "gym.make": lambda **kw: gym.make("Gendeneia-v0", **kw).unwrapped,
    "GendeneiaEnv": lambda **kw: GendeneiaEnv(**kw),
    "aec_env": lambda **kw: gendeneia_env.aec_env(**kw),
    "GendeneiaAECEnv": lambda **kw: GendeneiaAECEnv(**kw),
}


def _fields(config):
    return {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}


def test_the_other_values_cover_every_field():
    """A new field needs a value here, so that the tests below cover it."""
    assert set(LITH_OTHER) == set(LITH_FIELDS)
    assert set(GENDENEIA_OTHER) == set(GENDENEIA_FIELDS)
    for config_class, other in ((LithConfig, LITH_OTHER), (GendeneiaConfig, GENDENEIA_OTHER)):
        default = config_class()
        assert all(getattr(default, k) != v for k, v in other.items())
        assert _fields(config_class(**other)) == other  # valid, and kept as given


@pytest.mark.parametrize(
    ("env_class", "fields"),
    [
        (LithEnv, LITH_FIELDS),
        (LithAECEnv, LITH_FIELDS),
        (LithVectorEnv, LITH_FIELDS),
        (LithAllSeatsVectorEnv, LITH_FIELDS),
        (GendeneiaEnv, GENDENEIA_FIELDS),
        (GendeneiaAECEnv, GENDENEIA_FIELDS),
    ],
)
def test_no_env_copies_a_rule_into_its_signature(env_class, fields):
    parameters = inspect.signature(env_class.__init__).parameters
    assert not set(parameters) & set(fields)
    assert "config" in parameters
    assert parameters["rules"].kind is inspect.Parameter.VAR_KEYWORD


@pytest.mark.parametrize("maker", LITH_MAKERS)
def test_lith_envs_play_the_default_config(maker):
    assert _fields(LITH_MAKERS[maker]().config) == _fields(LithConfig())


@pytest.mark.parametrize("maker", LITH_MAKERS)
@pytest.mark.parametrize("field", LITH_FIELDS)
def test_every_lith_rule_reaches_every_env(maker, field):
    rule = {field: LITH_OTHER[field]}
    assert LITH_MAKERS[maker](**rule).config == LithConfig(**rule)


@pytest.mark.parametrize("maker", LITH_MAKERS)
def test_lith_rules_replace_the_fields_of_a_given_config(maker):
    config = LithConfig(**LITH_OTHER)
    make = LITH_MAKERS[maker]
    assert make(config=config).config == config
    assert make(config=config, betting="no-limit", ante=0).config == dataclasses.replace(
        config, betting="no-limit", ante=0
    )
    with pytest.raises(ValueError, match="^starting_chips: must give one stack per player"):
        make(config=config, starting_chips=(5, 5))  # checked as any config is


@pytest.mark.parametrize("maker", LITH_MAKERS)
def test_lith_envs_take_their_defaults_from_lith_config(maker, monkeypatch):
    """Change LithConfig's defaults: an env that kept a copy of one would not follow."""
    init = LithConfig.__init__
    names = [p for p in inspect.signature(init).parameters if p != "self"]
    monkeypatch.setattr(init, "__defaults__", tuple(LITH_OTHER[name] for name in names))
    assert _fields(LithConfig()) == LITH_OTHER
    assert _fields(LITH_MAKERS[maker]().config) == LITH_OTHER


@pytest.mark.parametrize("maker", LITH_MAKERS)
def test_lith_envs_name_an_unknown_option_and_a_config_of_the_wrong_type(maker):
    with pytest.raises(TypeError, match=r"unknown option\(s\) colour; options: num_players"):
        LITH_MAKERS[maker](colour="red")
    with pytest.raises(ValueError, match="^config: must be a LithConfig or None, got 3"):
        LITH_MAKERS[maker](config=3)


@pytest.mark.parametrize("maker", GENDENEIA_MAKERS)
def test_gendeneia_envs_play_the_default_config(maker):
    assert _fields(GENDENEIA_MAKERS[maker]().config) == _fields(GendeneiaConfig())


@pytest.mark.parametrize("maker", GENDENEIA_MAKERS)
@pytest.mark.parametrize("field", GENDENEIA_FIELDS)
def test_every_gendeneia_rule_reaches_every_env(maker, field):
    rule = {field: GENDENEIA_OTHER[field]}
    assert GENDENEIA_MAKERS[maker](**rule).config == GendeneiaConfig(**rule)


@pytest.mark.parametrize("maker", GENDENEIA_MAKERS)
def test_gendeneia_rules_replace_the_fields_of_a_given_config(maker):
    config = GendeneiaConfig(**GENDENEIA_OTHER)
    make = GENDENEIA_MAKERS[maker]
    assert make(config=config).config == config
    assert make(config=config, presum=None).config == dataclasses.replace(config, presum=None)


@pytest.mark.parametrize("maker", GENDENEIA_MAKERS)
def test_gendeneia_envs_take_their_defaults_from_gendeneia_config(maker, monkeypatch):
    init = GendeneiaConfig.__init__
    names = [p for p in inspect.signature(init).parameters if p != "self"]
    monkeypatch.setattr(init, "__defaults__", tuple(GENDENEIA_OTHER[name] for name in names))
    assert _fields(GendeneiaConfig()) == GENDENEIA_OTHER
    assert _fields(GENDENEIA_MAKERS[maker]().config) == GENDENEIA_OTHER


@pytest.mark.parametrize("maker", GENDENEIA_MAKERS)
def test_gendeneia_envs_name_an_unknown_option_and_a_config_of_the_wrong_type(maker):
    with pytest.raises(TypeError, match=r"unknown option\(s\) trumps; options: num_players"):
        GENDENEIA_MAKERS[maker](trumps=True)
    with pytest.raises(ValueError, match="^config: must be a GendeneiaConfig or None, got 3"):
        GENDENEIA_MAKERS[maker](config=3)
