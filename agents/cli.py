"""Command-line values that several of the suite's commands take."""

from __future__ import annotations

__all__ = ["parse_seeds"]

MAX_SEED = 2**32 - 1


def parse_seeds(text: str) -> list[int]:
    """Seeds as the command line takes them: ``1-8``, ``1,3,5`` or ``1-3,7``; at least two,
    each once. ``ValueError`` naming ``--seeds`` otherwise."""
    seeds: list[int] = []
    for part in str(text).split(","):
        low, dash, high = part.strip().partition("-")
        try:
            first, last = int(low), int(high) if dash else int(low)
        except ValueError:
            raise ValueError(
                f"--seeds: a list of seeds and ranges such as 1-8 or 1,3,5, got {text!r}"
            ) from None
        if not 0 <= first <= last <= MAX_SEED:
            raise ValueError(f"--seeds: {part.strip()!r} is not a range of seeds from 0 up")
        seeds += range(first, last + 1)
    if len(set(seeds)) < len(seeds):
        raise ValueError(f"--seeds: a seed is listed twice in {text!r}")
    if len(seeds) < 2:
        raise ValueError(f"--seeds: a sweep needs at least two seeds, got {text!r}")
    return seeds
