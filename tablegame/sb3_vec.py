"""A Gymnasium vector env seen as a Stable-Baselines3 ``VecEnv`` (with MaskablePPO's masks).

Stable-Baselines3 steps its own ``VecEnv`` type: observations as one array, ``dones``, a list of
info dicts with ``"terminal_observation"`` for finished envs, and ``env_method("action_masks")``
for sb3-contrib's MaskablePPO. :class:`SB3VecEnv` gives exactly that over any Gymnasium
``VectorEnv`` that resets finished envs in the same step (``AutoresetMode.SAME_STEP``, putting
the last observation in ``info["final_obs"]``) and has ``action_masks()``, such as
:class:`lith_env.vector.LithVectorEnv`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

__all__ = ["SB3VecEnv"]


class SB3VecEnv(VecEnv):
    """``env`` (a same-step-autoreset Gymnasium vector env) as an SB3 ``VecEnv``."""

    def __init__(self, env: Any) -> None:
        mode = env.metadata.get("autoreset_mode")
        if mode != AutoresetMode.SAME_STEP:
            raise ValueError(
                f"SB3VecEnv needs a vector env that autoresets in the same step, got {mode!r}"
            )
        self.env = env
        self._actions: np.ndarray | None = None
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]
        observations, _ = self.env.reset(seed=seed)
        self._reset_seeds()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
        observations, rewards, terminated, truncated, info = self.env.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return observations, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()

    def close(self) -> None:
        self.env.close()

    # ------------------------------------------------------------------ the VecEnv plumbing

    def _count(self, indices: VecEnvIndices) -> int:
        return len(list(self._get_indices(indices)))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        if attr_name == "render_mode":  # the vector env does not render
            value = getattr(self.env, attr_name, None)
        else:
            value = getattr(self.env, attr_name)
        return [value] * self._count(indices)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **kwargs: Any
    ) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":  # one call for every env, split into rows
            masks = self.env.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self.env, method_name)(*method_args, **kwargs)
        return [result] * len(rows)

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False] * self._count(indices)

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs
