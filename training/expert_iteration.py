"""Expert iteration for Gendeneía (Anthony, Tian & Barber 2017, *Thinking Fast and Slow with
Deep Learning and Tree Search*).

Each generation:

1. **Search plays itself.** Every seat is an ``ismcts`` search (``final=visits``); from the
   second generation on, the last generation's network guides it (PUCT priors). Each decision
   with a choice records the seat's observation, its legal-action mask, the search's visit
   distribution and, once the game ends, the seat's return (its win share plus a quarter of
   its score margin, the search's ``blend`` reward).
2. **The network learns the search.** A MaskablePPO policy and value network (so ``ppo:PATH``
   plays it alone, and PPO could train it on) is fitted to the last ``window`` generations'
   data, warm-started from the last generation's network (``warm_start``) or fresh:
   cross-entropy to the visit distributions over the legal actions, plus ``value_coef`` times
   the squared error of its value to the returns.
3. **It is measured alone**: ``eval_games`` duplicate games against two ``spoiler``s.

``OUT/generation-G/`` keeps the data (``data.npz``) and the network (``model.zip``); a rerun
resumes after the last finished generation. ``OUT/progress.json`` and ``progress.png`` give
the curve; ``OUT/tensorboard`` the losses and win rates.

    decktet exit experiments/gendeneia_3p_exit.toml [--seed N]
"""

from __future__ import annotations

import argparse
import json
import math
import tomllib
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, fields
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["ExItConfig", "fit_network", "game_targets", "main", "run", "self_play"]


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass
class ExItConfig:
    """An expert-iteration run (module docstring); every field is a key of a TOML file's
    ``[expert_iteration]`` table."""

    players: int = 3
    generations: int = 4
    games: int = 200  # self-play games a generation
    iterations: int = 100  # search simulations a decision
    c: float = 1.4
    c_prior: float = 2.0  # the exploration constant once a network guides the search (PUCT)
    reward: str = "blend"
    rollout: str = "spoiler"
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    epochs: int = 10
    batch_size: int = 256
    learning_rate: float = 1e-3
    value_coef: float = 1.0
    window: int = 2  # generations of data the network learns from
    warm_start: bool = True  # fit the last generation's network on, or a fresh one
    eval_games: int = 300
    seed: int = 1
    out: str = "runs/gendeneia_3p_exit"
    workers: int = 1

    def validate(self) -> None:
        """``ValueError`` naming the first bad field."""
        positive = ("players", "generations", "games", "iterations", "epochs", "batch_size")
        for name in (*positive, "window", "eval_games", "workers"):
            got = getattr(self, name)
            low = 0 if name == "eval_games" else 1
            if not _is_int(got) or got < low:
                raise ValueError(f"{name}: must be an integer >= {low}, got {got!r}")
        if not 2 <= self.players <= 6:
            raise ValueError(f"players: must be 2-6, got {self.players!r}")
        if self.eval_games and self.eval_games % self.players:
            raise ValueError(
                f"eval_games: must be a multiple of players ({self.players}), whole duplicate "
                f"blocks; got {self.eval_games!r}"
            )
        for name in ("c", "c_prior", "learning_rate", "value_coef"):
            got = getattr(self, name)
            if isinstance(got, bool) or not isinstance(got, int | float) or not math.isfinite(got):
                raise ValueError(f"{name}: must be a number, got {got!r}")
            if got < 0 or (name == "learning_rate" and got == 0):
                raise ValueError(f"{name}: must be {'> 0' if name == 'learning_rate' else '>= 0'}")
        if self.reward not in ("win", "blend"):
            raise ValueError(f"reward: must be win or blend, got {self.reward!r}")
        if self.rollout not in ("random", "greedy", "spoiler", "prior"):
            raise ValueError(
                f"rollout: must be random, greedy, spoiler or prior, got {self.rollout!r}"
            )
        if not isinstance(self.net_arch, list) or not all(
            _is_int(n) and n > 0 for n in self.net_arch
        ):
            raise ValueError(
                f"net_arch: must be a list of positive layer widths, got {self.net_arch!r}"
            )
        if not isinstance(self.warm_start, bool):
            raise ValueError(f"warm_start: must be true or false, got {self.warm_start!r}")
        if not _is_int(self.seed) or self.seed < 0:
            raise ValueError(f"seed: must be an integer >= 0, got {self.seed!r}")
        if not isinstance(self.out, str) or not self.out:
            raise ValueError(f"out: must be a folder path, got {self.out!r}")

    @classmethod
    def from_toml(cls, path: str | Path) -> ExItConfig:
        """The config a TOML file gives; an unknown key or a bad value is a ``ValueError``
        naming it."""
        try:
            data = tomllib.loads(Path(path).read_text())
        except (OSError, tomllib.TOMLDecodeError) as error:
            raise ValueError(f"{path}: {error}") from None
        if set(data) != {"expert_iteration"}:
            raise ValueError(f"{path}: needs one table, [expert_iteration], holding the keys")
        data = data["expert_iteration"]
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"{path}: unknown key(s) {', '.join(unknown)}; keys: {', '.join(sorted(known))}"
            )
        config = cls(**data)
        config.validate()
        return config


# ------------------------------------------------------------------------------- self-play


def game_targets(
    searched: Sequence[tuple[int, np.ndarray]], returns: Sequence[float]
) -> tuple[list[np.ndarray], list[float]]:
    """A finished game's targets, decision by decision. ``searched``: the seat that acted and
    the search's policy over the action ids at each decision; ``returns``: every seat's return.
    The policy target is the search's visit distribution, all of it (not its most visited
    action); the value target is the return of the seat that acted there."""
    policies = [policy.astype(np.float32) for _, policy in searched]
    values = [returns[seat] for seat, _ in searched]
    return policies, values


def _play_games(config: ExItConfig, prior: str | None, first: int, count: int) -> dict:
    """Games ``first`` .. ``first + count - 1`` of a generation, every seat searching: the
    decisions with a choice as arrays (observation, mask, visits, return, game index)."""
    from agents.gendeneia_ismcts import GendeneiaSearchRules, ISMCTSAgent
    from gendeneia_env.encoding import action_from_id, action_mask, encode
    from gendeneia_env.game import GendeneiaConfig, GendeneiaGame

    rules = GendeneiaConfig(num_players=config.players)
    options: dict[str, Any] = {
        "config": rules,
        "iterations": config.iterations,
        "c": config.c if prior is None else config.c_prior,
        # the first generation has no network to roll out with
        "policy": "spoiler" if prior is None and config.rollout == "prior" else config.rollout,
        "reward": config.reward,
        "final": "visits",
        "prior": prior,
    }
    agents = [ISMCTSAgent(**options) for _ in range(config.players)]
    returns_of = GendeneiaSearchRules(reward=config.reward).returns
    obs, masks, visits, games = [], [], [], []
    values: list[float] = []
    for index in range(first, first + count):
        seed = config.seed * 1_000_003 + index
        for seat, agent in enumerate(agents):
            agent.reset(seed=seed * 16 + seat)
        game = GendeneiaGame(rules, seed=seed)
        searched: list[tuple[int, np.ndarray]] = []
        while not game.is_over:
            seat, mask = game.current, action_mask(game)
            seen = encode(game.observe(seat), rules)
            policy = agents[seat].search_policy(seen, mask)
            if mask.sum() > 1:
                obs.append(seen)
                masks.append(mask.astype(bool))
                searched.append((seat, policy))
                games.append(index)
            best = np.flatnonzero(policy == policy.max())
            chosen = int(best[agents[seat].rng.randrange(len(best))])
            game.apply(action_from_id(game, chosen))
        policy_targets, value_targets = game_targets(searched, returns_of(game))
        visits.extend(policy_targets)
        values.extend(value_targets)
    return {
        "observations": np.asarray(obs, dtype=np.float32),
        "masks": np.asarray(masks, dtype=bool),
        "visits": np.asarray(visits, dtype=np.float32),
        "returns": np.asarray(values, dtype=np.float32),
        "games": np.asarray(games, dtype=np.int64),
    }


def self_play(config: ExItConfig, prior: str | None, progress: bool = False) -> dict:
    """A generation's data, its games shared among ``config.workers`` processes (each game's
    seeds follow its index, so the data are the same for any number); ``progress`` shows a
    bar of the games played."""
    from rich.progress import Progress

    chunks = [(i, min(i + 10, config.games) - i) for i in range(0, config.games, 10)]
    parts: list[dict] = []
    with Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task("self-play games", total=config.games)
        if config.workers == 1:
            for first, count in chunks:
                parts.append(_play_games(config, prior, first, count))
                bar.advance(task, count)
        else:
            # spawn, not fork: a fork after torch has run its threads can hang the children
            with ProcessPoolExecutor(config.workers, mp_context=get_context("spawn")) as pool:
                futures = {pool.submit(_play_games, config, prior, f, n): n for f, n in chunks}
                for future in as_completed(futures):
                    bar.advance(task, futures[future])
                parts = [f.result() for f in futures]  # in game order
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


# ------------------------------------------------------------------------------- learning


def new_model(config: ExItConfig) -> Any:
    """An untrained MaskablePPO model for the game (its network is what expert iteration
    trains; saved, ``ppo:PATH`` plays it)."""
    from sb3_contrib import MaskablePPO

    from gendeneia_env.env import GendeneiaEnv

    return MaskablePPO(
        "MlpPolicy",
        GendeneiaEnv(num_players=config.players),
        learning_rate=config.learning_rate,
        policy_kwargs={"net_arch": list(config.net_arch)},
        seed=config.seed,
        device="cpu",
        verbose=0,
    )


def fit_network(model: Any, data: dict, config: ExItConfig, seed: int) -> dict[str, float]:
    """Fit the model's policy to the visit distributions and its value to the returns (the
    module docstring); the last epoch's mean losses: the policy's KL divergence from the
    visit distributions (its cross-entropy less theirs, 0 when learned exactly) and the
    value's squared error."""
    import torch as th

    policy = model.policy
    policy.set_training_mode(True)
    generator = th.Generator().manual_seed(seed)
    optimizer = th.optim.Adam(policy.parameters(), lr=config.learning_rate)
    obs = th.as_tensor(data["observations"])
    masks = th.as_tensor(data["masks"])
    targets = th.as_tensor(data["visits"])
    returns = th.as_tensor(data["returns"])
    losses = {"policy loss": 0.0, "value loss": 0.0}
    for _ in range(config.epochs):
        order = th.randperm(len(obs), generator=generator)
        totals, batches = [0.0, 0.0], 0
        for start in range(0, len(obs), config.batch_size):
            batch = order[start : start + config.batch_size]
            distribution = policy.get_distribution(obs[batch], action_masks=masks[batch].numpy())
            log_p = th.log_softmax(distribution.distribution.logits, dim=1)
            log_p = th.where(masks[batch], log_p, th.zeros_like(log_p))
            policy_loss = -(targets[batch] * log_p).sum(dim=1).mean()
            value_loss = (
                (policy.predict_values(obs[batch]).squeeze(1) - returns[batch]) ** 2
            ).mean()
            loss = policy_loss + config.value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            target = targets[batch]
            entropy = -(target * th.log(target.clamp_min(1e-12))).sum(dim=1).mean()
            totals[0] += policy_loss.item() - entropy.item()  # the KL: 0 when learned exactly
            totals[1] += value_loss.item()
            batches += 1
        losses = {"policy loss": totals[0] / batches, "value loss": totals[1] / batches}
    policy.set_training_mode(False)
    return losses


def evaluate(model_path: Path, config: ExItConfig, seed: int) -> dict[str, float]:
    """The network alone (``ppo:PATH``) against two ``spoiler``s: its win rate and interval."""
    from tournaments.per_table import run_tournament
    from tournaments.spec import TournamentSpec

    spec = TournamentSpec(
        game="gendeneia",
        agents=(f"ppo:{model_path}", "spoiler"),
        players=config.players,
        units=config.eval_games,
        seed=seed,
        lineup=(0, *([1] * (config.players - 1))),
    )
    result = run_tournament(spec)  # one process: a few seconds, and no fork after torch
    rate = result["agents_results"][f"ppo:{model_path}"]["win_rate"]
    return {"win rate": rate["mean"], "low": rate["low"], "high": rate["high"]}


# ------------------------------------------------------------------------------- the run


def run(config: ExItConfig, console: Any = None) -> list[dict]:
    """Run (or resume) every generation; the progress records."""
    from rich.console import Console
    from sb3_contrib import MaskablePPO
    from torch.utils.tensorboard import SummaryWriter

    config.validate()
    import torch

    torch.set_num_threads(1)  # a small network: one thread is fastest and repeatable
    console = console or Console()
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(asdict(config), indent=2))
    progress_path = out / "progress.json"
    progress: list[dict] = json.loads(progress_path.read_text()) if progress_path.exists() else []
    writer = SummaryWriter(str(out / "tensorboard"))
    model = None
    for generation in range(config.generations):
        folder = out / f"generation-{generation}"
        model_path = folder / "model.zip"
        if model_path.exists() and any(p["generation"] == generation for p in progress):
            continue
        folder.mkdir(exist_ok=True)
        previous = out / f"generation-{generation - 1}" / "model.zip"
        prior = str(previous) if generation > 0 else None
        data_path = folder / "data.npz"
        if data_path.exists():
            data = dict(np.load(data_path))
        else:
            console.print(f"generation {generation}: {config.games} self-play games searching")
            data = self_play(config, prior, progress=console.is_terminal)
            np.savez_compressed(data_path, **data)
        window = [data]
        for back in range(1, config.window):
            older = out / f"generation-{generation - back}" / "data.npz"
            if generation - back >= 0 and older.exists():
                window.append(dict(np.load(older)))
        training = {key: np.concatenate([d[key] for d in window]) for key in data}
        if prior and config.warm_start:
            model = MaskablePPO.load(previous, device="cpu")
        else:
            model = new_model(config)
        losses = fit_network(model, training, config, seed=config.seed * 1000 + generation)
        model.save(model_path)
        record: dict[str, Any] = {
            "generation": generation,
            "decisions": len(data["returns"]),
            "trained on": len(training["returns"]),
            **losses,
        }
        if config.eval_games:
            record["alone vs two spoilers"] = evaluate(model_path, config, seed=config.seed)
        progress = [p for p in progress if p["generation"] != generation] + [record]
        progress_path.write_text(json.dumps(progress, indent=2))
        for key, value in losses.items():
            writer.add_scalar(f"exit/{key}", value, generation)
        if config.eval_games:
            writer.add_scalar(
                "exit/win rate alone", record["alone vs two spoilers"]["win rate"], generation
            )
        writer.flush()
        line = (
            f"generation {generation}: {record['decisions']} decisions, policy loss "
            f"{losses['policy loss']:.3f}, value loss {losses['value loss']:.4f}"
        )
        if config.eval_games:
            rate = record["alone vs two spoilers"]
            line += f", alone vs two spoilers {rate['win rate']:.3f}"
            line += f" [{rate['low']:.3f}, {rate['high']:.3f}]"
        console.print(line)
    writer.close()
    _plot(progress, out / "progress.png")
    return progress


def _plot(progress: list[dict], path: Path) -> None:
    rated = [p for p in progress if "alone vs two spoilers" in p]
    if not rated:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [p["generation"] for p in rated]
    rates = [p["alone vs two spoilers"] for p in rated]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.errorbar(
        xs,
        [r["win rate"] for r in rates],
        yerr=[
            [r["win rate"] - r["low"] for r in rates],
            [r["high"] - r["win rate"] for r in rates],
        ],
        marker="o",
        capsize=3,
    )
    ax.axhline(1 / 3, color="grey", linestyle=":", label="a fair share")
    ax.set_xlabel("generation")
    ax.set_ylabel("win rate, network alone vs two spoilers")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def build_parser() -> argparse.ArgumentParser:
    from tablegame.cli import int_at_least

    parser = argparse.ArgumentParser(
        prog="decktet exit",
        description="Expert iteration for Gendeneía: search plays itself, a network learns it.",
    )
    parser.add_argument(
        "config", help="a TOML file with an [expert_iteration] table (experiments/*.toml)"
    )
    parser.add_argument("--seed", type=int_at_least(0), help="override the config's seed")
    parser.add_argument("--out", help="override the config's output folder")
    parser.add_argument(
        "--workers", type=int_at_least(1), help="processes for self-play and evaluation"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        config = ExItConfig.from_toml(args.config)
        if args.seed is not None:
            config.seed = args.seed
            if args.out is None:
                config.out = f"{config.out}/seed-{args.seed}"
        if args.out is not None:
            config.out = args.out
        if args.workers is not None:
            config.workers = args.workers
        config.validate()
    except ValueError as error:
        parser.error(str(error))
    run(config)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
