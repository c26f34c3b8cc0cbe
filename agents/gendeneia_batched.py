"""``greedy`` and ``spoiler`` deciding for many tables at once (compiled, numba).

:func:`decide` is :meth:`GendeneiaHeuristic.act <agents.gendeneia_heuristics.GendeneiaHeuristic>`
for a batch of observations: each row is read back into lots (as
:func:`gendeneia_env.encoding.read` reads it) and decided with the same one-play look-ahead
(:mod:`gendeneia_env.batched_rules`' ``play_delta`` and ``removal_delta``, which the engine's
observations use). Its random draws are given, ``uniforms[i]`` for row ``i``: the first
``SAMPLE`` pick the unseen pairs that value a fresh hand (a Fisher-Yates shuffle stopped after
``SAMPLE`` places: a uniform sample without replacement, as ``Generator.choice`` draws one), the
last one the random seat of a play that helps nobody. Given draws that make the same choices,
the decisions are the per-table agent's (``tests/test_gendeneia_agents_batched.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from gendeneia_env import encoding
from gendeneia_env.batched_rules import (
    PARALLEL_ROWS,
    lot_values,
    play_delta,
    removal_delta,
    score,
)
from gendeneia_env.scoring import PRESUMS

__all__ = ["SAMPLE", "decide"]

SAMPLE = 48  # unseen Choice/Force pairs sampled to value a fresh hand (as the per-table agent)


@njit(cache=True)
def _read_lots(obs, i, start, n, owner, force) -> None:  # pragma: no cover - compiled
    """Row ``i``'s lots into ``owner[0, c]`` (the seat, counted from the reader) and
    ``force[0, c]``, as :func:`gendeneia_env.encoding.read_lot` reads them."""
    owner[0, :] = -1
    for seat in range(n):
        for lot in range(3):
            base = start + (3 * seat + lot) * 60
            for m in range(12):
                at = base + m * 5
                if obs[i, at] > 0.5:
                    kind = 0
                    for j in range(1, 3):
                        if obs[i, at + 1 + j] > obs[i, at + 1 + kind]:
                            kind = j
                    number = int(np.rint(np.float64(obs[i, at + 4]) * 12)) % 12
                    owner[0, lot * 12 + m] = seat
                    force[0, lot * 12 + m] = (3 + kind) * 12 + number


@njit(cache=True)
def _first_set(obs, i, start, size) -> int:  # pragma: no cover - compiled
    for j in range(size):
        if obs[i, start + j] != 0:
            return j
    return -1


@njit(parallel=True, cache=True)
def _decide(obs, masks, uniforms, n, presum, spoiler, offsets, out) -> None:  # pragma: no cover
    """The rows in chunks, the chunks shared by the threads (numba's, one a core); for many
    rows only (``PARALLEL_ROWS``), as the engine's ``encode``."""
    rows = obs.shape[0]
    chunks = min(rows, 16)
    for chunk in prange(chunks):
        _decide_rows(
            obs,
            masks,
            uniforms,
            n,
            presum,
            spoiler,
            offsets,
            out,
            chunk * rows // chunks,
            (chunk + 1) * rows // chunks,
        )


@njit(cache=True)
def _decide_rows(
    obs, masks, uniforms, n, presum, spoiler, offsets, out, start, stop
) -> None:  # pragma: no cover - compiled
    owner = np.empty((1, 36), dtype=np.int8)
    force = np.empty((1, 36), dtype=np.int8)
    values = np.empty((n, 3), dtype=np.int64)
    seen = np.zeros(72, dtype=np.bool_)
    choices = np.empty(36, dtype=np.int64)
    forces = np.empty(36, dtype=np.int64)
    picks = np.empty(36 * 36, dtype=np.int64)
    written = np.full(36 * 36, -1, dtype=np.int64)  # picks[j] holds j unless written[j] == i
    sample = uniforms.shape[1] - 1
    for i in range(start, stop):
        _read_lots(obs, i, offsets[0], n, owner, force)
        lot_values(0, owner, force, presum, values)
        choice = _first_set(obs, i, offsets[2], 36)
        played = _first_set(obs, i, offsets[3], 36)
        played = played + 36 if played >= 0 else -1
        pass_id = 38 + n
        if masks[i, 0] or masks[i, 1]:  # keep (0), or discard (1) for a better fresh hand
            now = min(play_delta(0, 0, choice, played, owner, force, presum, values), 0)
            out[i] = 0
            if masks[i, 1]:
                seen[:] = False
                for c in range(36):
                    if owner[0, c] >= 0:
                        seen[c] = True
                        seen[force[0, c]] = True
                for c in range(72):
                    if obs[i, offsets[1] + c] != 0:
                        seen[c] = True
                seen[choice] = seen[played] = True
                nc = nf = 0
                for c in range(36):
                    if not seen[c]:
                        choices[nc] = c
                        nc += 1
                    if not seen[36 + c]:
                        forces[nf] = 36 + c
                        nf += 1
                pairs = nc * nf
                if pairs > 0:
                    taken = min(pairs, sample)
                    if pairs > sample:  # a Fisher-Yates shuffle stopped after `sample` places
                        for j in range(sample):
                            k = j + min(int(uniforms[i, j] * (pairs - j)), pairs - j - 1)
                            at_j = picks[j] if written[j] == i else j
                            picks[j] = picks[k] if written[k] == i else k
                            picks[k], written[j], written[k] = at_j, i, i
                    total = 0.0
                    for j in range(taken):
                        pick = picks[j] if pairs > sample else j
                        c, f = choices[pick // nf], forces[pick % nf]
                        total += min(play_delta(0, 0, c, f, owner, force, presum, values), 0)
                    if total / taken < now - 1e-9:
                        out[i] = 1
            continue
        anywhere = False
        for k in range(n):
            anywhere = anywhere or masks[i, 2 + k] != 0
        if anywhere:  # the seat to play onto, counted from me
            randomly = 1 + int(uniforms[i, sample] * (n - 1))
            own = play_delta(0, 0, choice, played, owner, force, presum, values)
            if not spoiler:
                out[i] = 2 if own < 0 else 2 + randomly
                continue
            leader, best = 1, 1 << 30
            for s in range(1, n):
                mark = score(values[s, 0], values[s, 1], values[s, 2])
                if mark < best:
                    leader, best = s, mark
            harm = play_delta(0, leader, choice, played, owner, force, presum, values)
            if harm > max(-own, 0):
                out[i] = 2 + leader
            elif -own > 0:
                out[i] = 2
            else:
                out[i] = 2 + (leader if harm >= 0 else randomly)
            continue
        best_id, best, have = pass_id, 0, masks[i, pass_id] != 0  # a removal owed
        for c in range(36):
            if masks[i, 2 + n + c]:
                change = removal_delta(0, 0, c, owner, force, presum, values)
                if not have or change < best:
                    best_id, best, have = 2 + n + c, change, True
        out[i] = best_id


def decide(
    observations: np.ndarray,
    masks: np.ndarray,
    uniforms: np.ndarray,
    presum: str | None,
    spoiler: bool,
) -> np.ndarray:
    """The actions of ``greedy`` (``spoiler=False``) or ``spoiler`` for a batch of
    observations and masks, given ``uniforms`` (rows, SAMPLE + 1) in [0, 1). The player
    count and the round-lots variant follow from the observations' length, as for ``read``."""
    observations = np.asarray(observations)
    num_players, round_lots = encoding.shape_for_size(observations.shape[1])
    where = encoding.layout(num_players, round_lots)
    offsets = np.array(
        [where[name][0] for name in ("lots", "discards", "hand choice", "hand force")],
        dtype=np.int64,
    )
    out = np.empty(len(observations), dtype=np.int64)
    args = (
        np.ascontiguousarray(observations, dtype=np.float32),
        np.ascontiguousarray(masks),
        np.ascontiguousarray(uniforms, dtype=np.float64),
        num_players,
        PRESUMS.index(presum),
        spoiler,
        offsets,
        out,
    )
    if len(out) >= PARALLEL_ROWS:
        _decide(*args)
    else:
        _decide_rows(*args, 0, len(out))
    return out
