"""Reproducible experiments: one TOML file each, run by ``decktet experiment FILE``."""
