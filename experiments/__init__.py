"""Reproducible experiments: one TOML file each, run by ``python -m experiments.run FILE``."""
