"""The browser report of a tournament: ``python -m tournaments.report DIR --html``."""

from tournaments.report.page import ReportError, build_report, write_report

__all__ = ["ReportError", "build_report", "write_report"]
