"""The browser report of a tournament: ``python -m agents.analyze DIR --html``."""

from agents.report.page import ReportError, build_report, write_report

__all__ = ["ReportError", "build_report", "write_report"]
