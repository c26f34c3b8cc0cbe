"""report.html in a real browser: Debian's headless Chromium driven by selenium filters the
hands to bluffs, opens one, steps it to the showdown and checks what the page shows against
the hand's record (``make test`` and ``.ci/run`` install chromium and chromium-driver).

``REPORT_SCREENSHOT=docs/img/report.png pytest tests/test_report_browser.py -k bluffs`` saves
the docs' screenshot at the showdown step of the first test."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from lith_env.hands import classify
from tournaments import cli as tournament
from tournaments.report import cli as analyze
from tournaments.report.browser import chromium, open_report

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def browser():
    try:
        with chromium() as driver:
            yield driver
    except RuntimeError as error:  # chromium missing: make test installs it
        pytest.fail(str(error))


def _open(driver, page: Path) -> None:
    open_report(driver, page, timeout=30)


def _errors(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def _select(driver, element_id: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", element_id)).select_by_value(value)


def _seat_cards(driver, seat: int) -> list[str]:
    seat_box = driver.find_element("css selector", f'.seat[data-seat="{seat}"]')
    return [c.get_attribute("data-card") for c in seat_box.find_elements("css selector", ".card")]


def _records(folder: Path) -> dict[str, dict]:
    lines = (folder / "histories.jsonl").read_text().splitlines()
    return {r["id"]: r for r in map(json.loads, lines)}


@pytest.fixture(scope="module")
def lith_page(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("browser") / "lith"
    tournament.main(
        [
            *("--game", "lith", "--players", "2", "--agents", "tag,bluffer", "--hands", "300"),
            *("--seed", "7", "--histories", "--out", str(out)),
        ]
    )
    assert analyze.main([str(out), "--html"]) == 0
    return out


@pytest.mark.slow
def test_filter_to_bluffs_open_a_hand_and_step_it_to_the_showdown(browser, lith_page):
    _open(browser, lith_page / "report.html")
    assert browser.find_element("id", "match-count").text.startswith("300 of 300")
    records = _records(lith_page)
    decisions = [json.loads(x) for x in (lith_page / "decisions.jsonl").read_text().splitlines()]
    bluffs: dict[str, set[int]] = {}
    for d in decisions:
        if d["phase"] == "bet" and d["kind"] in ("bet", "raise") and d["equity"] < 0.3:
            bluffs.setdefault(d["hand"], set()).add(d["seat"])
    bluffer = 1  # bluffer's label index: the filter is by agent
    _select(browser, "filter-agent", str(bluffer))
    browser.find_element("id", "filter-bluff").click()
    by_bluffer = {
        h for h, seats in bluffs.items() if any(records[h]["agents"][s] == "bluffer" for s in seats)
    }
    assert browser.find_element("id", "match-count").text.startswith(f"{len(by_bluffer)} of 300")
    _select(browser, "filter-showdown", "yes")
    wanted = {h for h in by_bluffer if records[h]["showdown"]}
    assert wanted, "the seeded tournament has a called bluff"
    rows = browser.find_elements("css selector", "tr.hand-row")
    assert {r.get_attribute("data-id") for r in rows} <= wanted
    assert browser.find_element("id", "match-count").text.startswith(f"{len(wanted)} of 300")

    rows[0].click()
    record = records[rows[0].get_attribute("data-id")]
    _select(browser, "view-seat", "all")
    browser.find_element("id", "step-start").click()
    for seat, cards in enumerate(record["cards"]):
        assert sorted(_seat_cards(browser, seat)) == sorted(cards)  # the deal, every card shown
    for _ in range(60):  # step by step until the showdown is on the table
        if browser.find_elements("css selector", ".seat.shown"):
            break
        browser.find_element("id", "step-next").click()
    for seat, cards in record["showdown"].items():
        box = browser.find_element("css selector", f'.seat[data-seat="{seat}"]')
        assert "shown" in box.get_attribute("class")
        assert sorted(_seat_cards(browser, int(seat))) == sorted(cards)
        category = classify(cards).category
        assert box.find_element("css selector", ".category").text == category
    if os.environ.get("REPORT_SCREENSHOT"):  # docs/img/report.png is this step, at this size
        browser.find_element("id", "replayer").location_once_scrolled_into_view  # noqa: B018
        browser.save_screenshot(os.environ["REPORT_SCREENSHOT"])
    browser.find_element("id", "step-end").click()
    result = browser.find_element("id", "result").text
    for net in record["net"]:
        assert f"{net:+d}" in result
    assert not _errors(browser)


@pytest.mark.slow
def test_a_seat_view_hides_the_other_hands_until_the_showdown(browser, lith_page):
    _open(browser, lith_page / "report.html")
    _select(browser, "filter-showdown", "yes")
    row = browser.find_elements("css selector", "tr.hand-row")[0]
    record = _records(lith_page)[row.get_attribute("data-id")]
    row.click()
    _select(browser, "view-seat", "0")
    browser.find_element("id", "step-start").click()
    assert sorted(_seat_cards(browser, 0)) == sorted(record["cards"][0])
    assert _seat_cards(browser, 1) == ["hidden"] * 3
    browser.find_element("id", "step-end").click()
    assert sorted(_seat_cards(browser, 1)) == sorted(record["showdown"]["1"])
    assert not _errors(browser)


def test_gendeneia_games_replay_with_lots_and_trumping(browser, tmp_path):
    out = tmp_path / "gen"
    tournament.main(
        [
            *("--game", "gendeneia", "--players", "3", "--agents", "greedy,spoiler,random"),
            *("--games", "9", "--seed", "2", "--histories", "--out", str(out)),
        ]
    )
    assert analyze.main([str(out), "--html"]) == 0
    _open(browser, out / "report.html")
    assert browser.find_element("id", "match-count").text.startswith("9 of 9")
    browser.find_element("id", "filter-trumped").click()
    rows = browser.find_elements("css selector", "tr.hand-row")
    assert rows, "the seeded games have trumping"
    records = [json.loads(x) for x in (out / "histories.jsonl").read_text().splitlines()]
    record = records[int(rows[0].get_attribute("data-index"))]
    rows[0].click()
    browser.find_element("id", "step-end").click()
    names = ("Collars", "Hope", "Blood")
    for seat, lots in enumerate(record["lots"]):
        for i, name in enumerate(names):
            lot = browser.find_element("css selector", f'.lot[data-seat="{seat}"][data-lot="{i}"]')
            assert len(lot.find_elements("css selector", ".pair")) == len(lots[name])
    result = browser.find_element("id", "result").text
    assert all(str(score) in result for score in record["scores"])
    assert not _errors(browser)


@pytest.mark.slow
def test_the_demon_excuse_shows_its_coin_at_the_showdown(browser, tmp_path):
    out = tmp_path / "demon"
    tournament.main(
        [
            *("--game", "lith", "--players", "4", "--agents", "tag,bluffer,caller,random"),
            *("--hands", "400", "--seed", "3", "--rule", "excuse=demon", "--histories"),
            *("--out", str(out)),
        ]
    )
    assert analyze.main([str(out), "--html"]) == 0
    records = [json.loads(x) for x in (out / "histories.jsonl").read_text().splitlines()]
    index = next(i for i, r in enumerate(records) if r["demon"])
    _open(browser, out / "report.html")
    browser.execute_script(f"window.reportOpen({index})")
    browser.find_element("id", "step-end").click()
    coin = records[index]["demon"]
    role = "imposter" if coin == "heads" else "beggar"
    log = browser.find_element("id", "step-log").text
    assert f"The Excuse plays as the {role}: the demon's coin came up {coin}" in log
    assert not _errors(browser)


@pytest.mark.slow
def test_each_agent_has_one_colour_across_the_page(browser, lith_page):
    """The results chart, the betting and exchange charts and the hand browser colour an agent
    alike (tag before bluffer in the tournament, after it alphabetically)."""
    _open(browser, lith_page / "report.html")
    colours = browser.execute_script(
        """
        const agents = ['tag', 'bluffer'];
        const found = {tag: [], bluffer: []};
        const fill = (el) => el && (el.getAttribute('fill') || el.getAttribute('stroke'));
        for (const text of document.querySelectorAll('svg text')) {
          const name = text.textContent.trim();
          if (!agents.includes(name)) continue;
          const before = text.previousElementSibling, after = text.nextElementSibling;
          if (before && before.tagName === 'rect') found[name].push(fill(before));  // legends
          if (after && after.tagName === 'g') found[name].push(fill(after.querySelector('circle')));
        }
        for (const dot of document.querySelectorAll('.dot')) {
          const name = dot.parentElement.textContent.trim();
          if (agents.includes(name)) found[name].push(getComputedStyle(dot).backgroundColor);
        }
        return found;
        """
    )
    hexes = {"rgb(31, 119, 180)": "#1f77b4", "rgb(255, 127, 14)": "#ff7f0e"}
    for name, seen in colours.items():
        assert len(seen) >= 4, (name, seen)  # results chart, two legends, the hand browser
        assert {hexes.get(c, c) for c in seen} == {"#1f77b4" if name == "tag" else "#ff7f0e"}
    text = browser.find_element("id", "rates-table").text
    assert "exchange gain" in text
