"""Deep Monte Carlo as a MaskablePPO variant (Zha et al., ICML 2021, *DouZero*).

DMC learns action values by regression on Monte Carlo returns: for every action played,

    Q(s, a)  <-  the sum of the rewards from that action to the end of the game,

with no bootstrapping within a game and no policy gradient. It plays greedily in Q. DouZero
explores by epsilon-greedy; here the policy of a rollout is softmax(Q / temperature) over the
legal actions, so that the network is stored as MaskablePPO's (the policy's logits are
``Q / temperature``) and a DMC model is played by ``ppo:PATH``, deterministically greedy in Q,
like any other; the value head learns the same returns, V(s), which a search can read.

The targets are the rollout buffer's returns at ``gamma = gae_lambda = 1``: the rewards summed
to the end of the game, or to the end of the rollout and then the value head's estimate for a
game the rollout cut (the only bootstrap; long rollouts make it rare).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from torch.nn import functional

__all__ = ["DMC"]


class DMC(MaskablePPO):
    """MaskablePPO whose update is Deep Monte Carlo's regression (module docstring)."""

    def __init__(self, *args: Any, temperature: float = 0.05, **kwargs: Any) -> None:
        if not isinstance(temperature, int | float) or not 0 < temperature < np.inf:
            raise ValueError(f"temperature: must be a positive number, got {temperature!r}")
        self.temperature = float(temperature)
        # Monte Carlo returns: undiscounted, and with lambda = 1 GAE's returns are the plain
        # sums of the rewards to the end of the game.
        for name in ("gamma", "gae_lambda"):
            if kwargs.setdefault(name, 1.0) != 1.0:
                raise ValueError(f"{name}: DMC learns undiscounted Monte Carlo returns (1)")
        super().__init__(*args, **kwargs)

    def q_values(self, observations: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        """Q(s, .) of every action (also the illegal ones) and V(s), for a batch of states."""
        policy = self.policy
        features = policy.extract_features(observations)
        if policy.share_features_extractor:
            latent_pi, latent_vf = policy.mlp_extractor(features)
        else:
            latent_pi = policy.mlp_extractor.forward_actor(features[0])
            latent_vf = policy.mlp_extractor.forward_critic(features[1])
        logits = policy.action_net(latent_pi)
        return logits * self.temperature, policy.value_net(latent_vf).flatten()

    def train(self) -> None:
        """One DMC update on the rollout buffer (``n_epochs`` passes of minibatches)."""
        self.policy.set_training_mode(True)
        self._update_learning_rate(self.policy.optimizer)
        q_losses, value_losses = [], []
        for _ in range(self.n_epochs):
            for batch in self.rollout_buffer.get(self.batch_size):
                actions = batch.actions.long().flatten()
                q, values = self.q_values(batch.observations)
                q_taken = q.gather(1, actions[:, None]).flatten()
                q_loss = functional.mse_loss(q_taken, batch.returns)
                value_loss = functional.mse_loss(values, batch.returns)
                loss = q_loss + self.vf_coef * value_loss
                self.policy.optimizer.zero_grad()
                loss.backward()
                th.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
                self.policy.optimizer.step()
                q_losses.append(q_loss.item())
                value_losses.append(value_loss.item())
            self._n_updates += 1
        self.logger.record("train/q_loss", float(np.mean(q_losses)))
        self.logger.record("train/value_loss", float(np.mean(value_losses)))
        self.logger.record("train/temperature", self.temperature)
