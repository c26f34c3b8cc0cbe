"""Agents, tournaments and analytics for both games (arrive with issue 5)."""
