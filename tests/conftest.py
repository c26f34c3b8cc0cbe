"""Shared fixtures."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def ray_cluster():
    """One real local Ray for every Ray test: two CPUs, no dashboard, usage statistics off
    (``distributed.cluster.connect`` sets ``RAY_USAGE_STATS_ENABLED=0`` before Ray starts)."""
    from distributed.cluster import connect

    connect(None, num_cpus=2)
    import ray

    yield ray
    ray.shutdown()
