"""``mixture = "nash"`` (PSRO): every snapshot joins a population with the named opponents,
and the other seats are drawn by the equilibrium of the population's payoff table
(:class:`tournaments.population.Population`), which it writes as ``pool/mixture.json``.

With ``exploiter_every``, a best response to the newest snapshot (or to the population's
mixture, ``exploiter_target = "mixture"``) is trained and joins the population too, as a
league's exploiters do.
"""

from __future__ import annotations

from pathlib import Path

from tournaments.population import Population
from training.config import TrainConfig
from training.mixtures.members import pool_exploiter
from training.mixtures.uniform import Snapshots
from training.run_callback import due

__all__ = ["PopulationSnapshots", "run_population"]


def run_population(config: TrainConfig, run: Path, steps: int) -> Population:
    """The run's population: saved by an earlier part of the run (resuming), or new, with the
    named opponents as its first members (their payoff table played now)."""
    saved = run / "pool" / "population.json"
    if saved.is_file():
        return Population.load(saved)
    population = Population(
        config.game,
        config.players,
        config.rules,
        run / "pool",
        config.meta_units,
        config.seed,
        config.uniform_share,
    )
    (run / "pool").mkdir(parents=True, exist_ok=True)
    for name in config.opponents:
        if name != "self":
            population.add(name, steps)
    return population


class PopulationSnapshots(Snapshots):
    """Snapshots that join the population, its mixture saved, logged and plotted."""

    population: Population

    def _on_training_start(self) -> None:
        self.population = run_population(self.config, self.run, self.num_timesteps)
        self.record_population(self.num_timesteps)

    def joined(self, snapshot: Path, steps: int) -> None:
        self.population.add(snapshot.name, steps)
        self.record_population(steps)
        if due(steps, self.config.exploiter_every, self.config.n_envs):
            self.add_exploiter(snapshot, steps)

    def add_exploiter(self, snapshot: Path, steps: int) -> None:
        """Train a best response to ``snapshot`` (its sampling policy, in every other seat)
        or to the population's equilibrium mixture (``exploiter_target``) and add it to the
        population: the learner then trains against what exploits it, as a league's
        exploiters do, and the equilibrium must hold against it, as in PSRO."""
        config, run = self.config, self.run
        name = f"exploiter_{steps}"
        if config.exploiter_target == "mixture":
            target, what = f"mixture:{run / 'pool'}", "the equilibrium mixture"
        else:
            target, what = f"ppo:{snapshot}:deterministic=false", snapshot.name
        found = pool_exploiter(
            config,
            target,
            run / "pool" / name,
            seed=config.seed,
            final_units=config.players,  # the population's tournaments measure it
        )
        self.say(f"step {steps:,}: exploiter of {what}, {found['steps']:,} steps")
        self.population.add(f"{name}.zip", steps)
        self.record_population(steps)

    def record_population(self, steps: int) -> None:
        """Save the population (its mixture is what the opponents read next), log it to
        TensorBoard and the metrics, and say it."""
        population = self.population
        population.save(self.run / "pool" / "population.json")
        if population.members:
            self.logger.record("population/members", len(population.members))
            self.logger.record("population/mixture_entropy", population.entropy())
            self.logger.record("population/newest_weight", float(population.mixture[-1]))
            self.metrics.data["population"] = population.history
            weights = ", ".join(
                f"{m} {w:.2f}"
                for m, w in zip(population.members, population.mixture, strict=True)
                if w >= 0.005
            )
            self.say(f"step {steps:,}: population of {len(population.members)}, mixture {weights}")

    def _on_training_end(self) -> None:
        if self.population.members:
            self.population.plot(self.run / "population.png")  # at the end: it takes a while
