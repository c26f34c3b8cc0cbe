"""Magnetic Mirror Descent as a MaskablePPO variant (Sokota et al., ICLR 2023).

Each update maximises, over the states of the rollout,

    E[ratio * advantage]  -  kl_coef * KL(pi || pi_old)  -  alpha_k * KL(pi || magnet)

where ``pi_old`` is the policy that played the rollout (the mirror-descent step: the reverse
KL takes the place of PPO's clipping, ``1 / kl_coef`` being the step size) and the magnet is
the uniform policy over the legal actions (then the last term is an entropy bonus) or a copy
of the policy refreshed every ``magnet_every`` learner steps (a moving magnet: the fixed point
of each stage is a regularised equilibrium, and moving the magnet walks towards a Nash
equilibrium). ``alpha_k`` is ``magnet_coef``, or ``magnet_coef / sqrt(k)`` at the k-th update
when annealed: the paper approaches Nash equilibrium by annealing the regularisation. The
advantages are not normalised, so ``alpha`` is a temperature in the game's own units (chips):
with a uniform magnet the fixed point is the quantal response equilibrium, softmax(q / alpha)
at every information set.

Both KL terms are exact over the legal actions of each state (the masked distributions), not
estimated from the sampled action. Everything else (rollouts, GAE, the value loss, the
network, saving and loading) is MaskablePPO's, so a model trained this way is played by
``ppo:PATH`` as any other.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from torch.nn import functional

__all__ = ["MAGNETS", "MMD", "masked_kl"]

MAGNETS = ("uniform", "moving")


def masked_kl(log_p: th.Tensor, log_q: th.Tensor, mask: th.Tensor) -> th.Tensor:
    """KL(p || q) of each row over its legal actions (``mask``), from log-probabilities that
    are already normalised over them."""
    p = log_p.exp()
    return th.where(mask, p * (log_p - log_q), th.zeros_like(p)).sum(dim=1)


def _masked_log_probs(policy: Any, observations: th.Tensor, masks: th.Tensor) -> th.Tensor:
    """The policy's log-probabilities over the legal actions (illegal ones -inf-like)."""
    distribution = policy.get_distribution(observations, action_masks=masks)
    return th.log_softmax(distribution.distribution.logits, dim=1)


class MMD(MaskablePPO):
    """MaskablePPO whose policy loss is magnetic mirror descent's (module docstring)."""

    def __init__(
        self,
        *args: Any,
        kl_coef: float = 5.0,
        magnet_coef: float = 0.2,
        magnet: str = "uniform",
        magnet_every: int = 0,
        magnet_anneal: bool = False,
        **kwargs: Any,
    ) -> None:
        if magnet not in MAGNETS:
            raise ValueError(f"magnet: must be uniform or moving, got {magnet!r}")
        self.kl_coef = kl_coef
        self.magnet_coef = magnet_coef
        self.magnet = magnet
        self.magnet_every = magnet_every
        self.magnet_anneal = magnet_anneal
        self.magnet_steps = 0  # learner steps when the moving magnet was last refreshed
        self._magnet_policy: Any = None
        # The regularisation weighs chips against nats: normalised advantages would change
        # the temperature of the equilibrium from one rollout to the next.
        kwargs.setdefault("normalize_advantage", False)
        super().__init__(*args, **kwargs)

    def _excluded_save_params(self) -> list[str]:
        # The moving magnet is rebuilt from the policy on load (module docstring of trainer).
        return [*super()._excluded_save_params(), "_magnet_policy"]

    def current_magnet_coef(self) -> float:
        """alpha at the coming update: constant, or magnet_coef / sqrt(k) when annealed."""
        if not self.magnet_anneal:
            return self.magnet_coef
        return self.magnet_coef / math.sqrt(self._n_updates // max(self.n_epochs, 1) + 1)

    def _frozen_copy(self) -> Any:
        frozen = copy.deepcopy(self.policy)
        frozen.set_training_mode(False)
        for parameter in frozen.parameters():
            parameter.requires_grad_(False)
        return frozen

    def _refresh_magnet(self) -> None:
        """The moving magnet becomes the current policy every ``magnet_every`` steps."""
        if self.magnet != "moving":
            return
        due = self.magnet_every and self.num_timesteps - self.magnet_steps >= self.magnet_every
        if self._magnet_policy is None or due:
            self._magnet_policy = self._frozen_copy()
            self.magnet_steps = self.num_timesteps if due else self.magnet_steps

    def train(self) -> None:
        """One MMD update on the rollout buffer (``n_epochs`` passes of minibatches)."""
        self.policy.set_training_mode(True)
        self._update_learning_rate(self.policy.optimizer)
        self._refresh_magnet()
        old_policy = self._frozen_copy()  # the policy that played the rollout
        alpha = self.current_magnet_coef()
        logs: dict[str, list[float]] = {
            k: [] for k in ("policy_gradient_loss", "value_loss", "kl_old", "kl_magnet", "entropy")
        }
        for _ in range(self.n_epochs):
            for batch in self.rollout_buffer.get(self.batch_size):
                actions = batch.actions
                if isinstance(self.action_space, spaces.Discrete):
                    actions = actions.long().flatten()
                masks = th.as_tensor(batch.action_masks, dtype=th.bool).reshape(len(actions), -1)
                values, log_prob, entropy = self.policy.evaluate_actions(
                    batch.observations, actions, action_masks=batch.action_masks
                )
                log_probs = _masked_log_probs(self.policy, batch.observations, masks)
                with th.no_grad():
                    old_log_probs = _masked_log_probs(old_policy, batch.observations, masks)
                advantages = batch.advantages
                if self.normalize_advantage and len(advantages) > 1:
                    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
                ratio = th.exp(log_prob - batch.old_log_prob)
                policy_loss = -(advantages * ratio).mean()
                kl_old = masked_kl(log_probs, old_log_probs, masks).mean()
                if self.magnet == "uniform":
                    legal = masks.sum(dim=1).clamp(min=1).float()
                    uniform = -th.log(legal)[:, None].expand_as(log_probs)
                    kl_magnet = masked_kl(log_probs, uniform, masks).mean()
                else:
                    with th.no_grad():
                        magnet_log_probs = _masked_log_probs(
                            self._magnet_policy, batch.observations, masks
                        )
                    kl_magnet = masked_kl(log_probs, magnet_log_probs, masks).mean()
                value_loss = functional.mse_loss(batch.returns, values.flatten())
                entropy_loss = -th.mean(entropy) if entropy is not None else th.mean(log_prob)
                loss = (
                    policy_loss
                    + self.kl_coef * kl_old
                    + alpha * kl_magnet
                    + self.ent_coef * entropy_loss
                    + self.vf_coef * value_loss
                )
                self.policy.optimizer.zero_grad()
                loss.backward()
                th.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
                self.policy.optimizer.step()
                logs["policy_gradient_loss"].append(policy_loss.item())
                logs["value_loss"].append(value_loss.item())
                logs["kl_old"].append(kl_old.item())
                logs["kl_magnet"].append(kl_magnet.item())
                logs["entropy"].append(-entropy_loss.item())
            self._n_updates += 1
        for key, values_logged in logs.items():
            self.logger.record(f"train/{key}", float(np.mean(values_logged)))
        self.logger.record("train/magnet_coef", alpha)
