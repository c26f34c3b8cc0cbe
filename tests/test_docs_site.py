"""The documentation site builds with ``mkdocs build --strict`` (``make docs``, CI), renders the
API reference from the docstrings, and fails on a broken link between its pages."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
MKDOCS = [sys.executable, "-m", "mkdocs"]
TIMEOUT = 300

# A page of the API reference -> the id of an object documented on it.
API = {
    "engines": "lith_env.game.LithGame",
    "envs": "lith_env.env.LithEnv",
    "agents": "tablegame.registry.make_agent",
    "tournaments": "tournaments.per_table.run_tournament",
    "solvers": "lith_solver.exploitability.exploitability",
    "training": "training.config.TrainConfig",
}


def _build(config: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*MKDOCS, "build", "--strict", "-f", str(config), "-d", str(site)],
        cwd=config.parent,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


@pytest.mark.slow
def test_the_site_builds_strict_with_the_api_reference(tmp_path):
    done = _build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr[-3000:]
    site = tmp_path / "site"
    assert (site / "index.html").is_file()
    for page, name in API.items():
        html = (site / "api" / f"{page}.html").read_text()
        assert f'id="{name}"' in html, f"api/{page}.html does not document {name}"
    # a link out of docs/ opens the repository's file, beside the site, from a page in a folder
    page = (site / "results" / "full_game_mccfr.html").read_text()
    assert 'href="' + os.path.relpath(ROOT / "models" / "README.md", site / "results") + '"' in page


@pytest.mark.slow
def test_a_broken_link_or_anchor_fails_the_strict_build(tmp_path):
    # A copy of the docs and mkdocs.yml, beside the rest of the repository (their links out).
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    config = tmp_path / "mkdocs.yml"
    text = (ROOT / "mkdocs.yml").read_text()
    assert text.count("\nnav:\n") == 1
    config.write_text(text.replace("\nnav:\n", "\nnav:\n  - Broken: broken.md\n"))
    for entry in ROOT.iterdir():
        if entry.name not in {"docs", "mkdocs.yml", "site", ".git", ".venv"}:
            (tmp_path / entry.name).symlink_to(entry)
    (tmp_path / "docs" / "broken.md").write_text(
        "# Broken\n\n[x](nope.md) and [y](index.md#no-such-section)\n"
    )
    done = _build(config, tmp_path / "site")
    assert done.returncode != 0
    assert "nope.md" in done.stderr
    assert "no-such-section" in done.stderr


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rewrite(markdown: str, root: Path, src_uri: str = "guide/page.md") -> str:
    page = SimpleNamespace(file=SimpleNamespace(src_uri=src_uri, dest_uri="guide/page.html"))
    config = {
        "docs_dir": str(root / "docs"),
        "site_dir": str(root / "site"),
        "config_file_path": str(root / "mkdocs.yml"),
    }
    return _hooks().on_page_markdown(markdown, page, config, files=None)


def test_links_out_of_docs_become_links_into_the_repository(tmp_path):
    (tmp_path / "docs" / "guide").mkdir(parents=True)
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "README.md").write_text("# Models\n")
    markdown = (
        "See [`models/`](../../models/README.md#the-zoo), [a page](other.md#part),\n"
        "[the web](https://example.org), `[code](../../models/README.md)`.\n\n"
        "```sh\ncat [x](../../nowhere.md)\n```\n\n[ref]: ../../models/README.md\n"
    )
    out = _rewrite(markdown, tmp_path)
    assert '<a href="../../models/README.md#the-zoo">`models/`</a>' in out
    assert "[a page](other.md#part)" in out  # between pages: MkDocs checks it
    assert "[the web](https://example.org)" in out
    assert "`[code](../../models/README.md)`" in out  # code stays code
    assert "cat [x](../../nowhere.md)" in out
    assert "[ref]: ../../models/README.md" in out


def test_a_link_out_of_docs_to_no_file_fails(tmp_path):
    (tmp_path / "docs").mkdir()
    with pytest.raises(PluginError, match="nowhere.md"):
        _rewrite("[gone](../nowhere.md)", tmp_path, src_uri="page.md")


def test_sphinx_roles_become_code_linked_to_the_documented_object():
    html = (
        '<h2 id="pkg.mod" class="doc doc-heading">pkg.mod</h2>'
        "<p>See :func:<code>helper</code>, :class:<code>~other.mod.Thing</code> and "
        ":meth:<code>Missing.method</code>; :func:<code>unknown</code>.</p>"
        '<h3 id="pkg.mod.helper" class="doc doc-heading">helper</h3>'
    )
    out = _hooks().on_page_content(html, page=None, config=None, files=None)
    assert '<autoref identifier="pkg.mod.helper" optional><code>helper</code></autoref>' in out
    assert '<autoref identifier="other.mod.Thing" optional><code>Thing</code></autoref>' in out
    assert '<autoref identifier="Missing.method" optional>' in out  # autorefs may know it
    assert "; <code>unknown</code>." in out  # no such object: code alone
    assert ":func:" not in out and ":class:" not in out and ":meth:" not in out


def _zoo_cards(text: str) -> list[str]:
    """The cards of a page, each from its ``zoo:NAME`` heading to the next heading."""
    found = re.findall(r"^#+ `zoo:.*?(?=^#|\Z)", text, re.S | re.M)
    return [card.strip() for card in found]


def test_the_sites_zoo_page_holds_the_cards_of_models_readme():
    """docs/zoo.md copies the cards of models/README.md (the source of truth, which
    ``decktet zoo NAME`` prints), its links made relative to docs/."""
    source = (ROOT / "models" / "README.md").read_text()
    expected = [
        re.sub(r"^#+ ", "## ", card)
        .replace("](../docs/", "](")
        .replace("](zoo.toml)", "](../models/zoo.toml)")
        for card in _zoo_cards(source)
    ]
    assert len(expected) >= 4
    assert _zoo_cards((ROOT / "docs" / "zoo.md").read_text()) == expected


@pytest.mark.slow
@pytest.mark.browser
def test_search_works_from_the_file_system_and_the_nav_says_what_pages_are(tmp_path):
    """Opened as site/index.html (no server), the search box is there and finds a page."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tournaments.report.browser import chromium

    site = tmp_path / "site"
    done = _build(ROOT / "mkdocs.yml", site)
    assert done.returncode == 0, done.stderr[-3000:]
    with chromium() as driver:
        driver.get((site / "index.html").resolve().as_uri())
        titles = [a.get_attribute("textContent").strip() for a in driver.find_elements(
            By.CSS_SELECTOR, "nav.md-nav--primary a.md-nav__link")]  # fmt: skip
        assert "Search" not in titles  # the search page is titled by what it is
        assert any(t.startswith("Search at play time") for t in titles), titles
        box = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")  # in the header
        box.click()
        box.send_keys("exploitability")
        WebDriverWait(driver, 30).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, ".md-search-result__item")
        )
        severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not [e for e in severe if "search" in e["message"]], severe
