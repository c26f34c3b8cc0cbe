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


@pytest.fixture
def one_torch_thread():
    """Torch on one thread for the test, as the exploiters train (small networks: fastest and
    repeatable), and back to what it was after."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(autouse=True, scope="session")
def sb3_log_folder(tmp_path_factory):
    """SB3 makes a folder for its logger at every ``learn()`` without ``tensorboard_log``, in
    the system's temporary folder unless ``SB3_LOGDIR`` says where: keep the tests' there."""
    import os

    folder = tmp_path_factory.mktemp("sb3-logs")
    before = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(folder)
    yield folder
    if before is None:
        del os.environ["SB3_LOGDIR"]
    else:
        os.environ["SB3_LOGDIR"] = before
