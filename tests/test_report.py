"""The HTML report's data: every recorded hand and game encoded losslessly for the replayer,
linked to its decisions, and every bad folder refused with the file and line named
(``python -m tournaments.report DIR --html``). The page itself is driven in Chromium in
``test_report_browser.py``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gendeneia_env.cards import card_name, parse_card
from lith_env.cards import CARDS, card_id
from lith_env.hands import CATEGORIES, classify
from tournaments import cli as tournament
from tournaments.report import ReportError, build_report
from tournaments.report import cli as analyze
from tournaments.report.compact import ALPHABET, LITH_KINDS, lith_cards

KIND_OF = {v: k for k, v in LITH_KINDS.items()}


def _data(page: str) -> dict:
    found = re.search(
        r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S
    )
    assert found, "the page carries its data"
    return json.loads(found.group(1))


def _lith_folder(tmp_path: Path, *extra: str) -> Path:
    out = tmp_path / "lith"
    tournament.main(
        [
            *("--game", "lith", "--players", "2", "--agents", "tag,bluffer", "--hands", "200"),
            *("--seed", "5", "--histories", "--out", str(out), *extra),
        ]
    )
    return out


@pytest.fixture(scope="module")
def lith_folder(tmp_path_factory) -> Path:
    return _lith_folder(tmp_path_factory.mktemp("report"))


def _card(ch: str) -> int | None:
    return None if ch == "." else ALPHABET.index(ch)


def _decode_lith(line: str) -> dict:
    """The test's own reading of a line (the layout documented in docs/report.md)."""
    fields = line.split("|")
    assert len(fields) == 12
    ident, agents, dealer, dealt, actions, exchanges, showdown, pots, net, cats, bluffs, _ = fields
    n = len(agents)
    out = {
        "id": ident,
        "agents": [ALPHABET.index(a) for a in agents],
        "dealer": ALPHABET.index(dealer),
        "cards": [
            None
            if dealt[3 * s] == "."
            else [CARDS[_card(c)].name for c in dealt[3 * s : 3 * s + 3]]
            for s in range(n)
        ],
        "actions": [],
        "exchanges": [],
        "showdown": {},
        "pots": [],
        "net": [int(x) for x in net.split(",")],
        "categories": [None if c == "." else CATEGORIES[ALPHABET.index(c)] for c in cats],
        "bluffers": sorted(ALPHABET.index(c) for c in bluffs),
        "demon": {"h": "heads", "t": "tails", "": None}[fields[11]],
    }
    for token in actions.split(",") if actions else []:
        seat, kind, rest = ALPHABET.index(token[0]), KIND_OF[token[1]], token[2:]
        action = {"seat": seat, "kind": kind}
        if kind == "discard":
            action["card"] = CARDS[_card(rest)].name
        elif rest:
            chips, _, amount = rest.partition("/")
            action["chips"] = int(chips)
            if amount:
                action["amount"] = int(amount)
        out["actions"].append(action)
    for round_ in exchanges.split(";") if exchanges else []:
        received, bottom = {}, []
        for token in round_.split(",") if round_ else []:
            if token.startswith("_"):
                bottom = [CARDS[_card(c)].name for c in token[1:]]
            else:
                source = _card(token[2])
                received[str(ALPHABET.index(token[0]))] = {
                    "card": CARDS[_card(token[1])].name,
                    "from": "deck" if source is None else source,
                }
        out["exchanges"].append({"received": received, "to_bottom": bottom})
    for token in showdown.split(",") if showdown else []:
        out["showdown"][str(ALPHABET.index(token[0]))] = {
            "cards": [CARDS[_card(c)].name for c in token[1:4]],
            "category": CATEGORIES[ALPHABET.index(token[4])],
        }
    for token in pots.split(","):
        amount, _, winners = token.partition(">")
        out["pots"].append({"amount": int(amount), "winners": [ALPHABET.index(w) for w in winners]})
    return out


def test_every_lith_hand_is_encoded_losslessly(lith_folder):
    page, count = build_report(lith_folder)
    data = _data(page)
    records = [json.loads(x) for x in (lith_folder / "histories.jsonl").read_text().splitlines()]
    lines = data["hands"].split("\n")
    assert count == len(lines) == len(records) == 200
    assert data["agents"] == ["tag", "bluffer"] and data["cards"] == lith_cards()
    shown = 0
    for line, record in zip(lines, records, strict=True):
        hand = _decode_lith(line)
        assert hand["id"] == record["id"]
        assert [data["agents"][a] for a in hand["agents"]] == record["agents"]
        assert hand["dealer"] == record["dealer"] and hand["cards"] == record["cards"]
        assert hand["net"] == record["net"]
        for got, logged in zip(hand["actions"], record["actions"], strict=True):
            want = {k: logged[k] for k in ("seat", "kind", "card", "chips") if k in logged}
            if logged.get("amount") is not None and logged["amount"] != logged.get("chips"):
                want["amount"] = logged["amount"]
            assert got == want
        for got, logged in zip(hand["exchanges"], record["exchanges"], strict=True):
            assert got == {"received": logged["received"], "to_bottom": logged["to_bottom"]}
        assert [(p["amount"], p["winners"]) for p in hand["pots"]] == [
            (p["amount"], p["winners"]) for p in record["pots"]
        ]
        for seat, cards in record["showdown"].items():
            shown += 1
            assert hand["showdown"][seat]["cards"] == cards
            assert hand["showdown"][seat]["category"] == classify(cards).category
    assert shown > 50, "the sample has showdowns to check"


def test_bluffs_in_the_browser_are_the_analysis_bluffs(lith_folder):
    """A seat is marked a bluffer in a hand exactly when one of its decisions there is a bet
    or raise with equity below the threshold, and the marks move with --bluff-equity."""
    decisions = [json.loads(x) for x in (lith_folder / "decisions.jsonl").read_text().splitlines()]
    for threshold in (0.3, 0.5):
        expected: dict[str, set[int]] = {}
        for d in decisions:
            if d["phase"] == "bet" and d["kind"] in ("bet", "raise") and d["equity"] < threshold:
                expected.setdefault(d["hand"], set()).add(d["seat"])
        page, _ = build_report(lith_folder, bluff_equity=threshold)
        lines = [_decode_lith(x) for x in _data(page)["hands"].split("\n")]
        got = {h["id"]: set(h["bluffers"]) for h in lines if h["bluffers"]}
        assert got == expected
        assert len(got) > 5


def test_gendeneia_games_replay_from_their_changes(tmp_path):
    """Applying each step's changes to the opening hands rebuilds every seat's lots and the
    scores the record says the game ended with."""
    out = tmp_path / "gen"
    tournament.main(
        [
            *("--game", "gendeneia", "--players", "3", "--agents", "greedy,spoiler,random"),
            *("--games", "9", "--seed", "2", "--histories", "--out", str(out)),
        ]
    )
    page, count = build_report(out)
    data = _data(page)
    records = [json.loads(x) for x in (out / "histories.jsonl").read_text().splitlines()]
    assert count == len(records) == 9
    trumps = 0
    for line, record in zip(data["hands"].split("\n"), records, strict=True):
        _, agents, first, hands, steps, scores, winners, end = line.split("|")
        assert ALPHABET.index(first) == record["first_player"]
        assert [data["agents"][ALPHABET.index(a)] for a in agents] == record["agents"]
        lots: dict[tuple[str, int], list[str]] = {}
        for step, logged in zip(steps.split(";"), record["actions"], strict=True):
            token, _, changes = step.partition(":")
            assert ALPHABET.index(token[0]) == logged["seat"]
            if logged.get("card") is not None:
                assert card_name(ALPHABET.index(token[-1])) == logged["card"]
            for change in changes.split(",") if changes else []:
                if change[0] in "+-":
                    key = (change[1], int(change[2]))
                    pair = f"{card_name(_card(change[3]))}/{card_name(_card(change[4]))}"
                    if change[0] == "+":
                        lots.setdefault(key, []).append(pair)
                    else:
                        lots[key].remove(pair)
                        trumps += token[1] == "p"
        names = ("Collars", "Hope", "Blood")
        for seat, written in enumerate(record["lots"]):
            for i, name in enumerate(names):
                assert sorted(lots.get((ALPHABET[seat], i), [])) == sorted(written[name])
        assert [int(s) for s in scores.split(",")] == record["scores"]
        assert [ALPHABET.index(w) for w in winners] == record["winners"]
        assert end == record["end"]
        assert len(hands) == 2 * len(agents)
        assert all(parse_card(card_name(_card(c))) == _card(c) for c in hands)
    assert trumps > 0, "the games have trumping to show"


def test_a_tournament_of_one_block_makes_a_page(tmp_path):
    """One block has no interval (results.json keeps its infinite bounds as null): the page
    says n/a and draws the point without a line, rather than failing."""
    out = tmp_path / "one"
    tournament.main(
        [
            *("--game", "gendeneia", "--players", "3", "--agents", "greedy,spoiler,random"),
            *("--games", "3", "--histories", "--out", str(out)),
        ]
    )
    results = json.loads((out / "results.json").read_text())
    assert results["blocks"] == 1 and results["agents_results"]["greedy"]["win_rate"]["low"] is None
    page, count = build_report(out)
    assert count == 3
    assert "[n/a, n/a]" in page and page.count("<circle") >= 3


def test_a_batched_sample_is_browsable(tmp_path):
    """--batched --record N records N hands, linked to their decisions by id."""
    out = tmp_path / "batched"
    tournament.main(
        [
            *("--game", "lith", "--players", "2", "--agents", "tag,random", "--hands", "2000"),
            *("--seed", "3", "--batched", "--record", "150", "--out", str(out)),
        ]
    )
    page, count = build_report(out)
    data = _data(page)
    assert count == 150 and data["of"] == 2000
    ids = {json.loads(x)["hand"] for x in (out / "decisions.jsonl").read_text().splitlines()}
    assert {line.split("|")[0] for line in data["hands"].split("\n")} == ids


def test_the_page_is_self_contained(lith_folder):
    """Nothing is fetched: no external script, style, image or font, and no fetch()."""
    page, _ = build_report(lith_folder)
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", page)
    assert "fetch(" not in page and "http://" not in page.replace('xmlns="http://www.w3.org', "")
    assert "<svg" in page and "<title>" in page  # the charts, with their hover counts


def _html(folder: Path, capsys) -> str:
    with pytest.raises(SystemExit) as stop:
        analyze.main([str(folder), "--html"])
    assert stop.value.code == 2
    return capsys.readouterr().err


@pytest.mark.slow
def test_bad_folders_are_refused_by_name(lith_folder, tmp_path, capsys):
    import shutil

    folder = tmp_path / "copy"
    shutil.copytree(lith_folder, folder)
    (folder / "histories.jsonl").rename(folder / "kept.jsonl")
    message = _html(folder, capsys)
    assert "no hand records" in message and "--histories" in message
    lines = (folder / "kept.jsonl").read_text().splitlines()

    (folder / "histories.jsonl").write_text("\n".join([lines[0], "{not json", *lines[2:]]))
    assert "histories.jsonl:2: not JSON" in _html(folder, capsys)

    tampered = json.loads(lines[3])
    tampered["net"] = [n + 1 for n in tampered["net"]]
    (folder / "histories.jsonl").write_text("\n".join([*lines[:3], json.dumps(tampered)]))
    assert "histories.jsonl:4: net: the replay gives" in _html(folder, capsys)

    stranger = json.loads(lines[0])
    stranger["agents"] = ["tag", "caller"]
    (folder / "histories.jsonl").write_text(json.dumps(stranger))
    assert "histories.jsonl:1: agents: 'caller' is not one of the tournament's agents" in _html(
        folder, capsys
    )

    (folder / "histories.jsonl").write_text("\n".join(lines))
    (folder / "decisions.jsonl").unlink()
    message = _html(folder, capsys)
    assert "no decisions" in message  # analyze's own check, before the page
    (folder / "results.json").write_text("[1, 2]")
    assert "results.json" in _html(folder, capsys)
    assert not (folder / "report.html").exists(), "no page from a bad folder"


def test_records_without_ids_link_to_decisions_in_order(lith_folder, tmp_path):
    """Records written before they carried ids still link to their decisions, in order."""
    import shutil

    folder = tmp_path / "old"
    shutil.copytree(lith_folder, folder)
    records = [json.loads(x) for x in (folder / "histories.jsonl").read_text().splitlines()]
    ids = [r.pop("id") for r in records]
    (folder / "histories.jsonl").write_text("\n".join(json.dumps(r) for r in records))
    page, _ = build_report(folder)
    assert [line.split("|")[0] for line in _data(page)["hands"].split("\n")] == ids
    (folder / "histories.jsonl").write_text("\n".join(json.dumps(r) for r in records[:-1]))
    with pytest.raises(ReportError, match="carry no hand ids and there are 199 of them"):
        build_report(folder)


def test_the_page_draws_decktet_cards_with_rank_and_suits():
    """Known cards of the Decktet (docs/rules.md §1, the card table): rank and suits high to low."""
    cards = lith_cards()
    assert len(cards) == 45
    assert cards[card_id("Ace of Suns")] == ["Ace of Suns", "Ace", ["Suns"]]
    assert cards[card_id("The Origin")] == ["The Origin", "2", ["Waves", "Leaves"]]
    assert cards[card_id("The Light Keeper")] == [
        "The Light Keeper",
        "Pawn",
        ["Suns", "Waves", "Knots"],
    ]
    assert cards[card_id("The Sea")] == ["The Sea", "Crown", ["Waves"]]
    assert cards[card_id("The Excuse")] == ["The Excuse", "Excuse", []]


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["excuse=demon", "excuse=imposter", "betting=no-limit"])
def test_variants_encode_their_showdowns_and_bets(tmp_path, rule):
    """Under every Excuse role (the demon's by the hand's coin) a shown hand's category is the
    rules' category of its cards, and no-limit bets keep their chips and amounts."""
    out = tmp_path / "variant"
    tournament.main(
        [
            *("--game", "lith", "--players", "4", "--agents", "tag,bluffer,caller,random"),
            *("--hands", "400", "--seed", "3", "--rule", rule, "--histories", "--out", str(out)),
        ]
    )
    page, _ = build_report(out)
    records = [json.loads(x) for x in (out / "histories.jsonl").read_text().splitlines()]
    with_excuse = 0
    for line, record in zip(_data(page)["hands"].split("\n"), records, strict=True):
        hand = _decode_lith(line)
        excuse = record["config"]["excuse"]
        if excuse == "demon":
            excuse = "imposter" if record["demon_heads"] else "beggar"
        assert hand["demon"] == record["demon"]  # the coin, when it decided a role
        for seat, cards in record["showdown"].items():
            category = classify(cards, excuse=excuse).category
            assert hand["showdown"][seat]["category"] == category
            with_excuse += "The Excuse" in cards
        assert [a.get("chips") for a in hand["actions"]] == [
            a.get("chips") for a in record["actions"]
        ]
    if rule.startswith("excuse"):
        assert with_excuse > 0, "a shown hand held the Excuse"
