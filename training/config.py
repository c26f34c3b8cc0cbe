"""Every option of a training run, each described once: the field's help is also ``--help``.

A run is configured by a :class:`TrainConfig`: from the command line (``--name value``), a TOML
file (``name = value``; rules as a ``[rules]`` table) or an earlier run's ``config.json``.
:meth:`TrainConfig.validate` checks every option and names the first bad one.
"""

from __future__ import annotations

import dataclasses
import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games import GAMES, INFO, game_config, game_info, games_with
from gendeneia_env.table import REWARDS
from tablegame.cli import MAX_SEED

__all__ = [
    "ALGORITHMS",
    "EVAL_BLOCKS",
    "EXPLOITER_TARGETS",
    "MIXTURES",
    "TrainConfig",
    "load_config",
    "saved_options",
]

MIXTURES = ("uniform", "nash", "best_response", "exploiter")
EXPLOITER_TARGETS = ("snapshot", "mixture")  # what a league's exploiters (exploiter_every) exploit
ALGORITHMS = ("ppo", "mmd", "dmc")
MAGNETS = ("uniform", "moving")  # training.mmd.MAGNETS, kept here so the config imports no torch
EVAL_BLOCKS = 200  # duplicate blocks per evaluation pairing when eval_units is not set
META_BLOCKS = 500  # duplicate blocks per payoff-table entry when meta_units is not set


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _help(text: str) -> dict[str, str]:
    return {"help": text}


@dataclass
class TrainConfig:
    """Every option of a run (command line ``--name``, TOML ``name = value``)."""

    game: str = field(default="lith", metadata=_help("lith or gendeneia"))
    players: int = field(default=2, metadata=_help("seats at the table (Lith 2-10, Gendeneia 2-6)"))
    opponents: list[str] = field(
        default_factory=lambda: ["tag", "bluffer"],
        metadata=_help(
            "comma-separated agent specs (name or name:key=value), drawn per episode for every "
            "other seat; 'self' adds snapshots of the learner; a name given twice is drawn "
            "twice as often"
        ),
    )
    timesteps: int = field(
        default=100_000,
        metadata=_help(
            "total learner decisions to train for (when resuming too); rounded up to whole "
            "rollouts of n_envs x n_steps"
        ),
    )
    seed: int = field(
        default=0, metadata=_help(f"seed of envs, opponents and network (0 to {MAX_SEED})")
    )
    out: str = field(
        default="runs/run",
        metadata=_help(
            "run folder (a used one starts over: its snapshots, checkpoints and metrics go)"
        ),
    )
    n_envs: int = field(default=4, metadata=_help("environments stepped together"))
    vec_env: str = field(
        default="dummy",
        metadata=_help(
            "dummy (one process), subproc (a process per env), or batched (every table in the "
            "game's batched engine)"
        ),
    )
    rules: dict[str, Any] = field(default_factory=dict)  # --rule KEY=VALUE, or a [rules] table
    reward: str = field(
        default="final",
        metadata=_help(
            ", ".join(REWARDS[:-1]) + f" or {REWARDS[-1]} (Gendeneia only; Lith pays the chips "
            "won or lost)"
        ),
    )
    algorithm: str = field(
        default="ppo",
        metadata=_help(
            "ppo (MaskablePPO's clipped objective), mmd (magnetic mirror descent: a reverse KL "
            "to the rollout's policy instead of the clipping, and a pull towards a magnet; "
            "docs/equilibrium_methods.md) or dmc (Deep Monte Carlo: action values regressed on "
            "the games' returns, play softmax(Q / temperature); docs/training.md)"
        ),
    )
    learning_rate: float = field(default=3e-4, metadata=_help("PPO learning rate, in (0, 1]"))
    learning_rate_end: float | None = field(
        default=None,
        metadata=_help(
            "if given, the learning rate falls linearly from learning_rate to this at "
            "timesteps, in (0, 1]"
        ),
    )
    n_steps: int = field(default=512, metadata=_help("steps per env between updates"))
    batch_size: int = field(
        default=256, metadata=_help("PPO minibatch size (at most n_envs x n_steps)")
    )
    n_epochs: int = field(default=5, metadata=_help("PPO epochs per update"))
    gamma: float = field(default=0.99, metadata=_help("discount, in (0, 1]"))
    gae_lambda: float = field(default=0.95, metadata=_help("GAE lambda, in (0, 1]"))
    ent_coef: float = field(default=0.01, metadata=_help("entropy bonus, at least 0"))
    clip_range: float = field(
        default=0.2,
        metadata=_help("algorithm ppo: the clipping of the probability ratio, in (0, 1]"),
    )
    vf_coef: float = field(
        default=0.5, metadata=_help("weight of the value loss in the update, a positive number")
    )
    kl_coef: float = field(
        default=5.0,
        metadata=_help(
            "algorithm mmd: weight of KL(policy || rollout's policy), the inverse step size, "
            "a positive number"
        ),
    )
    magnet_coef: float = field(
        default=0.2,
        metadata=_help(
            "algorithm mmd: weight of KL(policy || magnet), the regularisation, at least 0"
        ),
    )
    magnet: str = field(
        default="uniform",
        metadata=_help(
            "algorithm mmd: uniform (over the legal actions: an entropy bonus) or moving (a "
            "copy of the policy, refreshed every magnet_every steps)"
        ),
    )
    magnet_every: int = field(
        default=0,
        metadata=_help("algorithm mmd, magnet moving: steps between refreshes of the magnet"),
    )
    magnet_anneal: bool = field(
        default=False,
        metadata=_help(
            "algorithm mmd: the magnet's weight falls as magnet_coef / sqrt(k) at the k-th update"
        ),
    )
    temperature: float = field(
        default=0.05,
        metadata=_help(
            "algorithm dmc: the learner plays softmax(Q / temperature) while it trains, Q in "
            "the reward's units; a positive number"
        ),
    )
    net_arch: list[int] = field(
        default_factory=lambda: [256, 256],
        metadata=_help("hidden layer widths of the policy and value networks, comma-separated"),
    )
    self_play_every: int = field(
        default=20_000,
        metadata=_help(
            "steps between snapshots added to the pool (with 'self' among the opponents; 0: "
            "none), or between best responses (mixture best_response) or the exploiter's "
            "refreshes (mixture exploiter)"
        ),
    )
    pool_size: int = field(
        default=5, metadata=_help("newest snapshots kept in the pool (mixture uniform)")
    )
    mixture: str = field(
        default="uniform",
        metadata=_help(
            "how the other seats are drawn: uniform (over the named opponents and the newest "
            "snapshots), nash (PSRO: every snapshot joins a population with the named "
            "opponents, drawn by the equilibrium of their payoff table; needs 'self'), "
            "best_response (exploitability descent: the other seat plays the exact best "
            "response to the learner, computed again every self_play_every steps; opponents "
            "'self' only, on a heads-up limit Lith game the exact solver handles, e.g. --rule "
            "rounds=1) or exploiter (the same with a learned best response: every "
            "self_play_every steps an exploiter of the learner trains exploiter_steps more and "
            "plays the other seat; opponents 'self' only, two players, any game)"
        ),
    )
    meta_units: int | None = field(
        default=None,
        metadata=_help(
            "mixture nash: hands (Lith) or games (Gendeneia) per payoff-table entry, a multiple "
            "of players"
        ),
    )
    uniform_share: float = field(
        default=0.0,
        metadata=_help(
            "mixture nash: the share of the draws spread evenly over every member, the rest by "
            "the equilibrium (0 to 1), so members the equilibrium leaves out still play"
        ),
    )
    exploiter_every: int = field(
        default=0,
        metadata=_help(
            "mixture nash: every this many steps (a multiple of self_play_every; 0: never), a "
            "best response to the newest snapshot is trained and joins the population"
        ),
    )
    exploiter_steps: int = field(
        default=100_000,
        metadata=_help(
            "mixture nash: training steps of each exploiter; mixture exploiter: the "
            "exploiter's training steps at each refresh"
        ),
    )
    exploiter_target: str = field(
        default="snapshot",
        metadata=_help(
            "mixture nash with exploiter_every: what each exploiter exploits, the newest "
            "snapshot (its sampling policy) or the population's equilibrium mixture "
            "(mixture:RUN/pool, PSRO's best response)"
        ),
    )
    eval_every: int = field(
        default=20_000, metadata=_help("steps between evaluation tournaments (0: none)")
    )
    eval_units: int | None = field(
        default=None,
        metadata=_help(
            "hands (Lith) or games (Gendeneia) per evaluation pairing, a multiple of players "
            "(a duplicate block plays one deal in every seating)"
        ),
    )
    checkpoint_every: int = field(
        default=20_000, metadata=_help("steps between checkpoints (0: none)")
    )
    progress_bar: bool = True  # --no-progress-bar; shown only when stdout is a terminal
    torch_threads: int = field(
        default=1,
        metadata=_help("torch threads; runs repeat bit for bit only with the same count"),
    )

    def validate(self) -> None:
        """Raise ValueError naming the first bad field."""
        self._check_table()
        self._check_sizes()
        self._check_intervals()
        self._check_mixture()
        self._check_population()
        self._check_evaluation()
        self._check_envs()
        self._check_ppo()
        self._check_algorithm()
        self._check_agents_and_rules()

    def _bad(self, name: str, why: str) -> ValueError:
        return ValueError(f"{name}: {why}, got {getattr(self, name)!r}")

    def _check_table(self) -> None:
        """The game, its seats and the opponents' specs."""
        if self.game not in GAMES:
            raise self._bad("game", f"must be {' or '.join(GAMES)}")
        info = INFO[self.game]
        low, high = info.min_players, info.max_players
        if not _is_int(self.players) or not low <= self.players <= high:
            raise self._bad("players", f"must be {low}-{high} for {self.game}")
        if (
            not isinstance(self.opponents, list)
            or not self.opponents
            or not all(isinstance(o, str) and o for o in self.opponents)
        ):
            raise self._bad("opponents", "must be a non-empty list of agent specs")

    def _check_sizes(self) -> None:
        """Counts of steps, envs and epochs; the seed; the run folder."""
        for name in ("timesteps", "n_envs", "n_steps", "batch_size", "n_epochs", "pool_size"):
            if not _is_int(getattr(self, name)) or getattr(self, name) < 1:
                raise self._bad(name, "must be a positive integer")
        if not _is_int(self.torch_threads) or self.torch_threads < 1:
            raise self._bad("torch_threads", "must be a positive integer")
        if not _is_int(self.seed) or not 0 <= self.seed <= MAX_SEED:
            raise self._bad("seed", f"must be an integer from 0 to {MAX_SEED}")
        if not isinstance(self.out, str) or not self.out.strip():
            raise self._bad("out", "must be a folder name")
        if self.batch_size > self.n_envs * self.n_steps:
            raise self._bad(
                "batch_size", f"must be at most n_envs x n_steps ({self.rollout_steps})"
            )

    def _check_intervals(self) -> None:
        """How often snapshots, evaluations and checkpoints come."""
        for name in ("self_play_every", "eval_every", "checkpoint_every"):
            value = getattr(self, name)
            if not _is_int(value) or value < 0:
                raise self._bad(name, "must be a non-negative integer (0: never)")
            if 0 < value < self.n_envs:
                # The callbacks run once per step of all the envs together.
                raise self._bad(name, f"must be 0 (never) or at least n_envs ({self.n_envs})")
        if "self" in self.opponents and self.self_play_every == 0:
            raise self._bad("self_play_every", "must be positive when the opponents include self")

    def _check_mixture(self) -> None:
        """How the other seats are drawn, and the opponents each mixture takes."""
        if self.mixture not in MIXTURES:
            raise self._bad(
                "mixture", "must be " + ", ".join(MIXTURES[:-1]) + " or " + MIXTURES[-1]
            )
        if self.mixture == "best_response" and self.opponents != ["self"]:
            raise self._bad(
                "opponents",
                "must be ['self'] with mixture = best_response (the other seat is the exact "
                "best response to the learner's snapshots)",
            )
        if self.mixture == "exploiter":
            if self.opponents != ["self"]:
                raise self._bad(
                    "opponents",
                    "must be ['self'] with mixture = exploiter (the other seat is an exploiter "
                    "of the learner)",
                )
            if self.players != 2:
                raise self._bad(
                    "players",
                    "must be 2 with mixture = exploiter (the exploiter is the one other seat)",
                )
        if self.opponents.count("self") > 1:
            raise self._bad("opponents", "names self more than once (the snapshots are one member)")
        if self.mixture != "uniform" and len(set(self.opponents)) < len(self.opponents):
            raise self._bad(
                "opponents",
                f"repeats a name, which weights the uniform draw; mixture = {self.mixture} "
                "draws its own way, so name each opponent once",
            )
        if self.mixture == "nash" and "self" not in self.opponents:
            raise self._bad("mixture", "nash needs 'self' among the opponents (snapshots join it)")

    def _check_population(self) -> None:
        """The options of population training (mixture nash) and of its exploiters."""
        if self.meta_units is not None and (
            not _is_int(self.meta_units) or self.meta_units < 1 or self.meta_units % self.players
        ):
            raise self._bad(
                "meta_units",
                f"must be a positive multiple of players ({self.players}): each duplicate "
                "block plays one deal in every seating",
            )
        if self.meta_units is not None and self.mixture != "nash":
            raise self._bad("meta_units", "is for mixture = nash only (the payoff table's entries)")
        if not _is_number(self.uniform_share) or not 0 <= self.uniform_share <= 1:
            raise self._bad("uniform_share", "must be a number from 0 to 1")
        if self.uniform_share and self.mixture != "nash":
            raise self._bad(
                "uniform_share", "is for mixture = nash only (uniform already draws evenly)"
            )
        for name in ("exploiter_every", "exploiter_steps"):
            if not _is_int(getattr(self, name)) or getattr(self, name) < 0:
                raise self._bad(name, "must be a non-negative integer")
        if self.mixture == "exploiter" and self.exploiter_steps < 1:
            raise self._bad("exploiter_steps", "must be positive with mixture = exploiter")
        if self.exploiter_every:
            if self.mixture != "nash":
                raise self._bad(
                    "exploiter_every", "is for mixture = nash only (exploiters join its population)"
                )
            if self.exploiter_every % self.self_play_every:
                raise self._bad(
                    "exploiter_every",
                    f"must be a multiple of self_play_every ({self.self_play_every}): an "
                    "exploiter is trained against the snapshot taken then",
                )
            if self.exploiter_steps < 1:
                raise self._bad("exploiter_steps", "must be positive when exploiter_every is set")
        if self.exploiter_target not in EXPLOITER_TARGETS:
            raise self._bad("exploiter_target", "must be " + " or ".join(EXPLOITER_TARGETS))
        if self.exploiter_target != "snapshot" and not self.exploiter_every:
            raise self._bad(
                "exploiter_target", "is for the exploiters of exploiter_every (set it too)"
            )

    def _check_evaluation(self) -> None:
        if self.eval_units is not None and (
            not _is_int(self.eval_units) or self.eval_units < 1 or self.eval_units % self.players
        ):
            raise self._bad(
                "eval_units",
                f"must be a positive multiple of players ({self.players}): each duplicate "
                "block plays one deal in every seating",
            )

    def _check_envs(self) -> None:
        """How the envs are stepped, and what they pay."""
        if self.vec_env not in ("dummy", "subproc", "batched"):
            raise self._bad("vec_env", "must be dummy, subproc or batched")
        if self.vec_env == "batched" and not game_info(self.game).batched_engine:
            only = games_with("batched_engine")
            raise self._bad(
                "vec_env", f"batched is for {only} only (the games with a batched engine)"
            )
        if self.reward not in REWARDS:
            raise self._bad("reward", "must be " + ", ".join(REWARDS[:-1]) + " or " + REWARDS[-1])
        if self.reward != "final" and not game_info(self.game).shaped_rewards:
            only = games_with("shaped_rewards")
            raise self._bad(
                "reward", f"{self.reward} is for {only} only ({self.game} pays its final result)"
            )

    def _check_ppo(self) -> None:
        """PPO's numbers, the network, and the last plain options."""
        for name in ("learning_rate", "gamma", "gae_lambda"):
            value = getattr(self, name)
            if not _is_number(value) or not 0 < value <= 1:
                raise self._bad(name, "must be a number in (0, 1]")
        if self.learning_rate_end is not None and (
            not _is_number(self.learning_rate_end) or not 0 < self.learning_rate_end <= 1
        ):
            raise self._bad("learning_rate_end", "must be a number in (0, 1] (or absent: constant)")
        if not _is_number(self.ent_coef) or not 0 <= self.ent_coef < math.inf:
            raise self._bad("ent_coef", "must be a non-negative number")
        if not isinstance(self.net_arch, list) or not all(
            _is_int(n) and n > 0 for n in self.net_arch
        ):
            raise self._bad("net_arch", "must be a list of positive layer widths")
        if not isinstance(self.progress_bar, bool):
            raise self._bad("progress_bar", "must be true or false")
        if not isinstance(self.rules, dict):
            raise self._bad("rules", "must be a table of game rules")

    def _check_algorithm(self) -> None:
        """The update's numbers, and the options of magnetic mirror descent and of Deep Monte
        Carlo (each only with its algorithm)."""
        if self.algorithm not in ALGORITHMS:
            names = ", ".join(ALGORITHMS[:-1]) + f" or {ALGORITHMS[-1]}"
            raise self._bad("algorithm", f"must be {names}")
        if not _is_number(self.clip_range) or not 0 < self.clip_range <= 1:
            raise self._bad("clip_range", "must be a number in (0, 1]")
        if not _is_number(self.vf_coef) or not 0 < self.vf_coef < math.inf:
            raise self._bad("vf_coef", "must be a positive number")
        if not _is_number(self.kl_coef) or not 0 < self.kl_coef < math.inf:
            raise self._bad("kl_coef", "must be a positive number")
        if not _is_number(self.magnet_coef) or not 0 <= self.magnet_coef < math.inf:
            raise self._bad("magnet_coef", "must be a non-negative number")
        if self.magnet not in MAGNETS:
            raise self._bad("magnet", "must be " + " or ".join(MAGNETS))
        if not _is_int(self.magnet_every) or self.magnet_every < 0:
            raise self._bad("magnet_every", "must be a non-negative integer")
        if not isinstance(self.magnet_anneal, bool):
            raise self._bad("magnet_anneal", "must be true or false")
        if not _is_number(self.temperature) or not 0 < self.temperature < math.inf:
            raise self._bad("temperature", "must be a positive number")
        defaults = {f.name: f.default for f in dataclasses.fields(self)}
        if self.algorithm != "dmc" and self.temperature != defaults["temperature"]:
            raise self._bad("temperature", "is for algorithm dmc only")
        if self.algorithm == "dmc":
            # DMC regresses on undiscounted Monte Carlo returns (gamma = gae_lambda = 1), with
            # neither clipping nor an entropy bonus: other values would change nothing.
            for name in ("gamma", "gae_lambda", "clip_range", "ent_coef"):
                value = getattr(self, name)
                returns_undiscounted = name in ("gamma", "gae_lambda") and value == 1
                if value != defaults[name] and not returns_undiscounted:
                    raise self._bad(name, "is not used by algorithm dmc (Monte Carlo returns)")
        if self.algorithm == "mmd":
            if self.clip_range != defaults["clip_range"]:
                raise self._bad("clip_range", "is for algorithm ppo (mmd does not clip)")
            if self.magnet == "moving" and self.magnet_every < self.rollout_steps:
                raise self._bad(
                    "magnet_every",
                    f"must be at least one rollout ({self.rollout_steps} steps) with a moving "
                    "magnet",
                )
            if self.magnet == "uniform" and self.magnet_every:
                raise self._bad("magnet_every", "is for magnet = moving (the uniform one stays)")
        if self.algorithm != "mmd":
            for name in ("kl_coef", "magnet_coef", "magnet", "magnet_every", "magnet_anneal"):
                if getattr(self, name) != defaults[name]:
                    raise self._bad(name, "is for algorithm mmd only")

    def _check_agents_and_rules(self) -> None:
        """Every opponent's spec builds, the rules make a config, and the exact solver
        handles the game if the mixture needs it."""
        from tablegame.registry import make_agent

        for spec in self.opponents:
            if spec != "self":
                make_agent(spec, self.game)  # raises ValueError naming the problem
        self.game_config()  # raises ValueError naming a bad or unknown rule
        if self.mixture == "best_response":
            from lith_solver.solving import check_solvable

            if not game_info(self.game).exactly_solvable:
                raise self._bad(
                    "game",
                    f"must be {games_with('exactly_solvable')} with mixture = best_response "
                    "(the solver's game)",
                )
            try:
                check_solvable(self.game_config())
            except ValueError as error:
                raise ValueError(
                    f"mixture: best_response needs a game the exact solver handles ({error})"
                ) from None

    @property
    def rollout_steps(self) -> int:
        """Learner steps between two PPO updates (all envs together)."""
        return self.n_envs * self.n_steps

    def planned_steps(self, done: int = 0) -> int:
        """The step count the run will end at, from ``done``: PPO trains whole rollouts."""
        rollouts = math.ceil(max(0, self.timesteps - done) / self.rollout_steps)
        return done + rollouts * self.rollout_steps

    def eval_count(self) -> int:
        """Hands (Lith) or games (Gendeneia) per evaluation pairing."""
        return self.eval_units if self.eval_units is not None else EVAL_BLOCKS * self.players

    def game_config(self) -> Any:
        """The game's config (``LithConfig``/``GendeneiaConfig``) for ``players`` and ``rules``;
        an unknown rule is a ValueError listing the game's rules."""
        try:
            return game_config(self.game, self.players, self.rules)
        except TypeError as error:  # a value of a type the config cannot even compare
            raise ValueError(f"rules: {error}") from None

    def env_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``Lith-v0``/``Gendeneia-v0`` (checked as a game config)."""
        self.game_config()
        kwargs = {"num_players": self.players, **self.rules}
        if game_info(self.game).shaped_rewards:
            kwargs["reward"] = self.reward
        return kwargs


def load_config(path: str | Path) -> dict[str, Any]:
    """Options from a TOML file; unknown names raise ValueError naming them."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"config: no file at {str(path)!r}")
    try:
        values = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"config: {path} is not valid TOML ({error})") from None
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    unknown = sorted(set(values) - known - {"experiment"})
    if unknown:
        raise ValueError(f"config: unknown option(s) {', '.join(unknown)} in {path}")
    return {k: v for k, v in values.items() if k in known}


def saved_options(run: Path) -> dict[str, Any]:
    """The options of an earlier run, from its ``config.json`` (without the versions)."""
    saved = run / "config.json"
    if not saved.is_file():
        raise ValueError(f"resume: no config.json in {str(run)!r}")
    try:
        values = json.loads(saved.read_text())
    except json.JSONDecodeError as error:
        raise ValueError(f"resume: {saved} is not valid JSON ({error})") from None
    if not isinstance(values, dict):
        raise ValueError(f"resume: {saved} is not a table of options")
    values.pop("versions", None)
    if "threads" in values:  # the name of torch_threads before it was renamed
        values["torch_threads"] = values.pop("threads")
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"resume: unknown option(s) {', '.join(unknown)} in {saved}")
    return values
