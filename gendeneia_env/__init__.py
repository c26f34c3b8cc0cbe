"""Gendeneía: engine and environments (arrive with issue 4)."""
