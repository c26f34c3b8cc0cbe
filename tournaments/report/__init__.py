"""The browser report of a tournament: ``decktet report DIR --html``."""

from tournaments.report.page import ReportError, build_report, write_report

__all__ = ["ReportError", "build_report", "write_report"]
