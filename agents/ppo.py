"""``ppo:PATH``: a trained MaskablePPO model (sb3-contrib zip) acting with the legal-action mask."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tablegame.registry import register

__all__ = ["PPOAgent", "check_trained_for"]


def _run_record(model: Path) -> tuple[Path, dict[str, Any]] | None:
    """The config.json of the run a model file belongs to (``RUN/model.zip``,
    ``RUN/checkpoints/...``, ``RUN/pool/...``), if it has one that names its game."""
    import json

    for folder in (model.parent, model.parent.parent):
        record = folder / "config.json"
        try:
            found = json.loads(record.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(found, dict) and "game" in found and "players" in found:
            return record, found
    return None


def check_trained_for(model: Path, config: Any) -> None:
    """``ValueError`` naming the model and its run's config.json if the run trained for another
    game or number of players than ``config``'s table (a model without a run record passes)."""
    from games import INFO

    found = _run_record(model)
    if found is None:
        return
    record, run = found
    game = next((n for n, i in INFO.items() if isinstance(config, i.config_class)), None)
    if game is None:
        return
    if (run["game"], run["players"]) != (game, config.num_players):
        raise ValueError(
            f"ppo: {str(model)!r} was trained for {run['game']} with {run['players']} players "
            f"({record}); this table is {game} with {config.num_players}"
        )


@register("*", "ppo")
class PPOAgent:
    """Plays a saved MaskablePPO policy; deterministic (the most likely legal action) unless
    ``deterministic=False``, in which case it samples with its own seeded torch generator."""

    spec_argument = "path"  # the spec is ppo:PATH
    needs_observation = True

    def __init__(
        self,
        path: str | Path,
        seed: int | None = None,
        deterministic: bool = True,
        config: Any = None,
    ) -> None:
        from sb3_contrib import MaskablePPO

        path = Path(path)
        if path.is_dir() and (path / "model.zip").is_file():  # ppo:RUN, the run's final model
            path = path / "model.zip"
        if not path.is_file():
            raise ValueError(f"ppo: no model file at {str(path)!r}")
        if config is not None:
            check_trained_for(path, config)
        try:
            self.model = MaskablePPO.load(path, device="cpu")
        except Exception as error:  # a corrupt or foreign file: say which and why
            raise ValueError(
                f"ppo: cannot load a MaskablePPO model from {str(path)!r}: {error}"
            ) from None
        self.path = path
        self.deterministic = deterministic
        self.seed = seed

    @classmethod
    def of_model(cls, model: Any, deterministic: bool = True) -> PPOAgent:
        """An agent playing a MaskablePPO model in memory (the one being trained: shared,
        not copied), e.g. to measure it without saving it first."""
        agent = cls.__new__(cls)
        agent.model, agent.path = model, Path("<model in memory>")
        agent.deterministic, agent.seed = deterministic, None
        return agent

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
            self.model.set_random_seed(seed)

    def misfits(self, observation_size: int, num_actions: int) -> list[tuple[str, Any, int]]:
        """(space, the model's size, the table's size) for each space of the model that
        differs from a table's: empty when the model can play there."""
        problems: list[tuple[str, Any, int]] = []
        shape = tuple(self.model.observation_space.shape or ())
        if shape != (observation_size,):
            problems.append(
                ("observation", shape[0] if len(shape) == 1 else shape, observation_size)
            )
        actions = getattr(self.model.action_space, "n", None)
        if actions is not None and int(actions) != num_actions:
            problems.append(("action", int(actions), num_actions))
        return problems

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        obs = np.asarray(observation, dtype=np.float32)
        expected = self.model.observation_space.shape
        if obs.shape != expected:
            raise ValueError(
                f"ppo: the model at {str(self.path)!r} expects observations of shape {expected}, "
                f"got {obs.shape} (trained for another game or player count?)"
            )
        action, _ = self.model.predict(
            obs, action_masks=np.asarray(action_mask, dtype=bool), deterministic=self.deterministic
        )
        return int(action)

    def _batch(self, observations: Any) -> np.ndarray:
        """A batch of observations (k, size) as float32, refused if the model expects another
        size."""
        obs = np.asarray(observations, dtype=np.float32)
        expected = self.model.observation_space.shape
        if obs.shape[1:] != expected:
            raise ValueError(
                f"ppo: the model at {str(self.path)!r} expects observations of shape {expected}, "
                f"got {obs.shape[1:]} (trained for another game or player count?)"
            )
        return obs

    def act_batch(self, observations: Any, action_masks: np.ndarray) -> np.ndarray:
        """Actions for a batch of observations (k, size): one forward pass for all."""
        obs = self._batch(observations)
        actions, _ = self.model.predict(
            obs, action_masks=np.asarray(action_masks, dtype=bool), deterministic=self.deterministic
        )
        return np.asarray(actions, dtype=np.int64).reshape(len(obs))

    def policy_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The masked policy's probability of each action id for one float32 observation:
        the network's forward pass alone, without SB3's checks and conversions (a third of
        the time, for a search that asks at every node)."""
        import torch

        policy = self.model.policy
        with torch.no_grad():
            features = policy.extract_features(
                torch.from_numpy(observation[None]), policy.pi_features_extractor
            )
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
        logits = logits.numpy()[0].astype(np.float64)
        legal = np.asarray(action_mask, dtype=bool)
        z = np.where(legal, logits, -np.inf)
        z = np.exp(z - z[legal].max())
        return z / z.sum()

    def action_probabilities(self, observations: Any, action_masks: np.ndarray) -> np.ndarray:
        """(k, actions): the probability of each action id as this agent plays: the masked
        policy's probabilities when sampling, one-hot on the most likely action otherwise."""
        import torch

        obs = self._batch(observations)
        masks = np.asarray(action_masks, dtype=bool)
        policy = self.model.policy
        with torch.no_grad():
            tensor = policy.obs_to_tensor(obs)[0]
            distribution = policy.get_distribution(tensor, action_masks=masks)
            probabilities = distribution.distribution.probs.cpu().numpy().astype(np.float64)
        probabilities[~masks] = 0.0
        if self.deterministic:
            out = np.zeros_like(probabilities)
            out[np.arange(len(out)), np.argmax(probabilities, axis=1)] = 1.0
            return out
        return probabilities / probabilities.sum(axis=1, keepdims=True)
