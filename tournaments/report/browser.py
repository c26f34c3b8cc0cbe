"""Open ``report.html`` in Debian's headless Chromium through selenium: for the browser tests,
the page's benchmark and the docs' screenshot. Needs the ``chromium`` and ``chromium-driver``
packages (``make test`` installs them) and selenium (the ``dev`` extra)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["chromium", "open_report"]

# Headless, and nothing that reaches for the network (the machine has none; the page needs none).
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--no-first-run",
)


@contextmanager
def chromium(width: int = 1280, height: int = 900) -> Iterator[Any]:
    """A selenium driver of headless Chromium with a fresh profile, quit on exit; a
    ``RuntimeError`` naming the packages when Chromium or its driver is missing."""
    binary, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not (binary and driver_path):
        raise RuntimeError(
            "Debian's chromium and chromium-driver are needed (apt-get install chromium "
            "chromium-driver; make test installs them)"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = binary
        for flag in (*FLAGS, f"--window-size={width},{height}", f"--user-data-dir={profile}"):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
        driver.set_page_load_timeout(120)
        try:
            yield driver
        finally:
            driver.quit()


def open_report(driver: Any, page: Path, timeout: float = 60) -> dict[str, float]:
    """Load ``page`` and wait until its hand browser is built; the page's own timings
    (``window.reportTiming``, milliseconds from the start of navigation)."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(Path(page).resolve().as_uri())
    WebDriverWait(driver, timeout).until(
        lambda d: d.execute_script("return window.reportReady === true")
    )
    return dict(driver.execute_script("return window.reportTiming"))
