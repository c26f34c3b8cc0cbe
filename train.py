"""``decktet train``: train a bot with MaskablePPO. The options and the run are in the
``training`` package (:mod:`training.cli`, :mod:`training.config`, :mod:`training.trainer`); this
file is the documented entry point, and keeps ``train.TrainConfig`` and ``train.train`` at hand."""

from training.cli import main
from training.config import TrainConfig
from training.trainer import train

__all__ = ["TrainConfig", "main", "train"]

if __name__ == "__main__":
    raise SystemExit(main())
