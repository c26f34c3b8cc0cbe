"""The browser game: its JSON calls (every bad request a 4xx naming it, the table intact), what
it sends (never a card the seat may not see), a fuzz of bad and replayed requests, the command,
and whole games played through the page in Debian's headless Chromium."""

from __future__ import annotations

import collections
import json
import random
import re
import socket
from pathlib import Path

import numpy as np
import pytest
from starlette.testclient import TestClient

from gendeneia_env.cards import card_name
from gendeneia_env.history import replay_game
from lith_env.cards import CARDS
from lith_env.history import load_records, replay_hand
from webplay import cli
from webplay.app import MAX_BODY, make_app


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(tmp_path / "web")) as test_client:
        yield test_client


def new(client, **body) -> dict:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.json()
    return response.json()


def act(client, state, choice, amount=None) -> dict:
    body = {"choice": choice, "version": state["version"]}
    if amount is not None:
        body["amount"] = amount
    response = client.post(f"/api/tables/{state['id']}/act", json=body)
    assert response.status_code == 200, response.json()
    return response.json()


def folder_of(tmp_path, state) -> Path:
    """The session's folder on the server's disk: the page is sent only its name."""
    return tmp_path / "web" / state["history"]


def table_of(client, state):
    """The server's table behind a state (the test looks inside; a client cannot)."""
    return client.app_state_tables[state["id"]]


@pytest.fixture
def store_client(tmp_path, monkeypatch):
    """A client whose app's tables the test can reach, to check what is hidden."""
    import webplay.app as app_module

    stores = []
    original = app_module.TableStore

    class Kept(original):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            stores.append(self)

    monkeypatch.setattr(app_module, "TableStore", Kept)
    with TestClient(make_app(tmp_path / "web")) as test_client:
        test_client.app_state_tables = stores[0].tables
        yield test_client


def _about_now(state: dict) -> str:
    """What a state says of the deal in play: the view, the choices and the bots' decisions.
    (The log and past results name cards that were public then and may be dealt again: the
    tests below check them hand by hand.)"""
    decisions = [f["decisions"] for f in state["finished"]]
    return json.dumps([state["view"], state["choices"], decisions])


def _hidden_lith_names(table) -> set[str]:
    """The names of the cards other seats hold that this seat has not seen."""
    hand, me = table.engine.hand, table.me
    given = {log.discards.get(me) for log in hand.exchanges} - {None}  # what this seat gave away
    mine = set(hand.cards[me]) | given
    shown = {c for cards in table.engine.observe(me).showdown.values() for c in cards}
    others = {c for s in range(hand.n) if s != me for c in hand.cards[s]}
    return {CARDS[c].name for c in others - mine - shown}


@pytest.mark.parametrize(
    "players,rules",
    [
        (2, {}),
        (3, {"betting": "pot-limit"}),
        (4, {"betting": "no-limit", "excuse": "demon"}),
        (6, {"excuse": "beggar"}),
        (10, {"pawns_and_courts": False, "excuse": "imposter"}),
    ],
)
def test_a_lith_table_plays_and_never_sends_a_hidden_card(store_client, players, rules):
    bots = ",".join(["caller", "tag", "bluffer"][: players - 1])
    state = new(store_client, game="lith", players=players, bots=bots, rules=rules, seed=5)
    rng = random.Random(players)
    for _ in range(60):
        if state["over"]:
            break
        table = table_of(store_client, state)
        sent = _about_now(state)
        for name in _hidden_lith_names(table):
            assert f'"{name}"' not in sent and f"{name} " not in sent and f" {name}" not in sent, (
                name
            )
        assert set(state["view"]["cards"]) == set(table.engine.hand.cards[table.me])
        i = rng.randrange(len(state["choices"]))
        choice = state["choices"][i]
        amount = None if "amount" not in choice else rng.randint(*choice["amount"])
        state = act(store_client, state, i, amount)
    assert state["finished"], "no hand finished in 60 moves"
    done = state["finished"][-1]
    assert sum(done["net"]) == 0  # chips conserved
    for decision in done["decisions"]:
        assert decision["seat"] != 0 and decision["played"]
        assert not any(n in json.dumps(decision) for n in (c.name for c in CARDS))  # no card named


LITH_NAMES = [c.name for c in CARDS]  # no name holds another (test_play checks it)


def _named(text: str) -> set[str]:
    """The Lith cards ``text`` names."""
    return {name for name in LITH_NAMES if name in text}


def _lith_seen_in(record: dict, me: int) -> set[str]:
    """The cards of a finished hand seat ``me`` may see: those it was dealt, received or gave
    away at an exchange, and those the rules show at showdown."""
    seen = set(record["cards"][me] or ())  # None: a seat out of chips, not dealt in
    for exchange in record["exchanges"]:
        seen.add(exchange["discards"].get(str(me)))
        if str(me) in exchange["received"]:
            seen.add(exchange["received"][str(me)]["card"])
    for cards in record["showdown"].values():
        seen |= set(cards)
    return seen


def _lith_seen_now(table) -> set[str]:
    """The cards of the hand in play the person may see: theirs, those they gave away, and
    those shown (none before the showdown)."""
    hand, me = table.engine.hand, table.me
    seen = set(hand.cards[me]) | {log.discards.get(me) for log in hand.exchanges}
    seen |= {c for cards in table.engine.observe(me).showdown.values() for c in cards}
    return {CARDS[c].name for c in seen - {None}}


def _log_by_hand(log: list[str], hands_played: int) -> dict[int, list[str]]:
    """The sent log's lines by the hand they tell of: a hand's lines end with "hand N is
    over", and the lines after the last of those are the hand in play's."""
    by_hand: dict[int, list[str]] = collections.defaultdict(list)
    hand = hands_played + 1
    for line in reversed(log):
        over = re.fullmatch(r"hand (\d+) is over", line)
        if over:
            hand = int(over.group(1))
        by_hand[hand].append(line)
    return by_hand


@pytest.mark.parametrize(
    "players,bots,rules,seed",
    [
        (2, "tag", {}, 1),
        (3, "rock,caller", {}, 2),
        (4, "tag,bluffer,rock", {"excuse": "demon"}, 3),
    ],
)
def test_a_bots_cards_reach_the_person_only_at_a_showdown(store_client, players, bots, rules, seed):
    """Every state's finished hands and log, hand by hand: each names only the cards the
    person may see in that hand (their own, and those shown at showdown), so a folded bot's
    cards are never sent. The hands are judged by their records, which the server keeps and
    does not send. (The view, the choices and the decisions: the test above.)"""
    state = new(store_client, game="lith", players=players, bots=bots, rules=rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(80):
        table = table_of(store_client, state)
        records = table.engine.records
        for done in state["finished"]:
            seen = _lith_seen_in(records[done["hand"] - 1], table.me)
            assert _named(json.dumps(done)) <= seen, done["hand"]
        for hand, lines in _log_by_hand(state["log"], len(records)).items():
            in_play = hand > len(records)
            seen = _lith_seen_now(table) if in_play else _lith_seen_in(records[hand - 1], table.me)
            assert _named(json.dumps(lines)) <= seen, hand
        if state["over"]:
            break
        i = rng.randrange(len(state["choices"]))
        choice = state["choices"][i]
        amount = None if "amount" not in choice else rng.randint(*choice["amount"])
        state = act(store_client, state, i, amount)
    records = table_of(store_client, state).engine.records
    # what the test is for happened: a bot folded, and a hand went to showdown
    assert any(a["kind"] == "fold" and a["seat"] != 0 for r in records for a in r["actions"])
    assert any(r["showdown"] for r in records)


def test_the_default_bots_are_the_zoos_where_it_has_one_for_the_table(client):
    games = client.get("/api/options").json()["games"]
    assert games["lith"]["bots"]["2"] == "zoo:lith-hu"
    assert games["lith"]["bots"]["6"] == "zoo:lith-6max"
    assert games["lith"]["bots"]["4"] == "tag,bluffer,rock"  # no zoo bot for four seats
    assert set(games["gendeneia"]["bots"].values()) == {"zoo:gendeneia-3p"}
    state = new(client, game="lith", players=6, seed=1)
    assert state["players"] == ["you"] + ["zoo:lith-6max"] * 5


def test_the_zoo_bots_give_their_probabilities_after_the_hand(store_client):
    """Each betting decision's probabilities are the bot's own strategy at that decision, as
    an independent copy of the bot reads it from the same observation (not uniform numbers,
    nor another state's)."""
    from tablegame.registry import make_agent

    client = store_client
    state = new(client, game="lith", players=2, seed=2)  # zoo:lith-hu by default
    table = table_of(client, state)
    seen: list[tuple[np.ndarray, np.ndarray]] = []
    for bot in {id(b): b for b in table.bots.values()}.values():  # seat -> bot, once each
        plays = bot.act

        def spying(observation, mask, plays=plays):
            seen.append((np.asarray(observation).copy(), np.asarray(mask).copy()))
            return plays(observation, mask)

        bot.act = spying
    while not state["finished"]:  # one hand, the person calling
        calls = [
            i for i, c in enumerate(state["choices"]) if c["label"].startswith(("call", "check"))
        ]
        state = act(client, state, calls[0] if calls else 0)
    decisions = state["finished"][-1]["decisions"]
    assert decisions and all(d["bot"] == "zoo:lith-hu" for d in decisions)
    reader = make_agent("zoo:lith-hu", "lith", config=table.config)
    compared = 0
    for decision, (observation, mask) in zip(decisions[::-1], seen[::-1], strict=False):
        given = sorted(p["p"] for p in decision["probabilities"])
        assert sum(given) == pytest.approx(1.0, abs=1e-3)
        if decision["played"].split()[0] not in ("check", "call", "fold", "bet", "raise"):
            continue  # an exchange's discards are summed under one label
        legal = mask.astype(bool)
        expected = reader.action_probabilities(observation[None], mask[None])[0][legal]
        shown = [p for p in given if p > 0]  # rounded to 4 digits: the tiny ones show as 0
        want = sorted(float(q) for q in expected if q >= 5e-5)
        assert shown == pytest.approx(want, abs=1e-4), (decision, list(expected))
        compared += 1
    assert compared >= 2
    assert any(len(set(p["p"] for p in d["probabilities"])) > 1 for d in decisions)


@pytest.mark.slow
def test_the_gendeneia_search_shows_the_distribution_each_move_was_drawn_from(client):
    state = new(client, game="gendeneia", players=2, seed=3)  # zoo:gendeneia-3p, the search
    while not state["over"]:
        state = act(client, state, 0)
    decisions = state["finished"][-1]["decisions"]
    assert decisions and all(d["bot"] == "zoo:gendeneia-3p" for d in decisions)
    for decision in decisions:
        probabilities = {p["action"]: p["p"] for p in decision["probabilities"]}
        assert sum(probabilities.values()) == pytest.approx(1.0, abs=1e-3)
        assert probabilities[decision["played"]] > 0  # it played what it could draw


def test_a_gendeneia_game_plays_to_its_end_and_hides_the_other_pairs(store_client, tmp_path):
    """The view, the choices, the decisions, the log's new lines and the finished game's
    result never name a card of another seat's pair in hand."""
    state = new(store_client, game="gendeneia", players=3, bots="greedy,spoiler", seed=4)
    moves, logged = 0, 0  # my moves; the server's log lines already checked
    while True:
        table = table_of(store_client, state)
        fresh = len(table.log) - logged
        new_lines = state["log"][-fresh:] if fresh else []
        logged = len(table.log)
        sent = _about_now(state) + json.dumps([new_lines, state["finished"]])
        for seat, pair in enumerate(table.engine.hands):
            if seat != table.me:
                for card in pair:
                    if card is not None:
                        name = card_name(card)
                        assert not re.search(rf"(?<![0-9]){name}\b", sent), name
        if state["over"]:
            break
        state = act(store_client, state, moves % len(state["choices"]))
        moves += 1
    assert state["view"]["winners"] and state["finished"][-1]["scores"] == state["view"]["scores"]
    (record,) = load_records(folder_of(tmp_path, state) / "histories.jsonl")
    assert record["seed"] == 4 and record["agents"] == ["you", "greedy", "spoiler"]
    assert replay_game(record).scores() == record["scores"]


@pytest.mark.parametrize(
    "body,status,message",
    [
        ("{bad", 400, "the body is not JSON"),
        ("[1, 2]", 400, "must be a JSON object, got list"),
        ('{"game": "lith"}', 400, "game and players are required"),
        ('{"game": "poker", "players": 2}', 400, "game: must be one of lith, gendeneia"),
        ('{"game": "lith", "players": 11}', 400, "players: lith seats 2-10, got 11"),
        ('{"game": "gendeneia", "players": 7}', 400, "players: gendeneia seats 2-6"),
        ('{"game": "lith", "players": "2"}', 400, "players: a whole number"),
        ('{"game": "lith", "players": 2, "seat": 2}', 400, "seat: must be 0-1"),
        ('{"game": "lith", "players": 2, "seed": -1}', 400, "seed: 0 or more"),
        ('{"game": "lith", "players": 2, "bots": "nobody"}', 400, "unknown agent 'nobody'"),
        ('{"game": "lith", "players": 2, "rules": {"betting": "capped"}}', 400, "betting"),
        ('{"game": "lith", "players": 2, "rules": {"speed": 3}}', 400, "speed"),
        ('{"game": "lith", "players": 2, "colour": "red"}', 400, "unknown key(s) colour"),
    ],
)
def test_a_bad_new_table_is_a_4xx_naming_what_is_wrong(client, body, status, message):
    response = client.post("/api/tables", content=body)
    assert response.status_code == status
    assert message in response.json()["error"]


def test_a_bad_move_is_refused_and_the_table_stays_as_it_was(client):
    state = new(client, game="lith", players=2, bots="caller", seed=1)
    url = f"/api/tables/{state['id']}/act"
    before = client.get(f"/api/tables/{state['id']}").json()
    v = state["version"]
    for body, status, message in (
        ("{bad", 400, "not JSON"),
        ('{"choice": 0}', 400, "choice and version are required"),
        (json.dumps({"choice": 99, "version": v}), 400, "choice: must be 0-"),
        (json.dumps({"choice": -1, "version": v}), 400, "choice: must be 0-"),
        (json.dumps({"choice": True, "version": v}), 400, "choice: a whole number"),
        (json.dumps({"choice": 0, "version": v - 1}), 409, "version: the table is at"),
        (
            json.dumps({"choice": 0, "version": v, "amount": 5}),
            400,
            "amount: this choice takes none",
        ),
        (json.dumps({"choice": 0, "version": v, "extra": 1}), 400, "unknown key(s) extra"),
        ('{"choice": 0, "version": 1, "pad": "' + "x" * MAX_BODY + '"}', 413, "at most"),
    ):
        response = client.post(url, content=body)
        assert response.status_code == status, (body[:60], response.json())
        assert message in response.json()["error"]
        assert client.get(f"/api/tables/{state['id']}").json() == before
    assert client.get("/api/tables/not-a-table").status_code == 404
    assert (
        client.post("/api/tables/not-a-table/act", json={"choice": 0, "version": 1}).status_code
        == 404
    )
    assert client.get("/assets/../app.py").status_code == 404
    assert client.get("/assets/secret.py").status_code == 404


def test_a_replayed_move_does_nothing_and_a_left_table_is_gone(client):
    state = new(client, game="lith", players=2, bots="caller", seed=3)
    body = {"choice": 1, "version": state["version"]}
    first = client.post(f"/api/tables/{state['id']}/act", json=body)
    again = client.post(f"/api/tables/{state['id']}/act", json=body)
    assert first.status_code == 200 and again.status_code == 409
    assert client.get(f"/api/tables/{state['id']}").json() == first.json()
    assert client.delete(f"/api/tables/{state['id']}").json()["left"] is True
    assert client.get(f"/api/tables/{state['id']}").status_code == 404
    assert client.delete(f"/api/tables/{state['id']}").status_code == 404


def test_custom_amounts_are_checked_against_the_legal_range(client):
    state = new(
        client, game="lith", players=2, bots="caller", rules={"betting": "no-limit"}, seed=6
    )
    i = next(i for i, c in enumerate(state["choices"]) if "amount" in c)
    low, high = state["choices"][i]["amount"]
    url = f"/api/tables/{state['id']}/act"
    bad = [(low - 1, f"amount: must be {low}-{high}"), (high + 1, "amount: must be"),
           (None, "amount: a whole number"), (2.5, "amount: a whole number")]  # fmt: skip
    for amount, message in bad:
        response = client.post(
            url, json={"choice": i, "version": state["version"], "amount": amount}
        )
        assert response.status_code == 400 and message in response.json()["error"]
    after = act(client, state, i, low)
    assert after["version"] == state["version"] + 1


def test_a_fuzz_of_bad_and_replayed_requests_leaves_every_game_consistent(client, tmp_path):
    """Many tables, random requests (good, stale, replayed, malformed, for other tables); every
    answer is 200 or a 4xx, and every game still plays to the end with its chips conserved
    and every finished hand replayed by the engine from its record."""
    rng = random.Random(7)
    tables = [
        new(client, game="lith", players=p, bots=",".join(["caller", "tag"][: p - 1]), seed=p)
        for p in (2, 3, 4, 5)
    ]
    tables.append(new(client, game="gendeneia", players=3, bots="greedy", seed=9))
    states = {t["id"]: t for t in tables}
    sent: list[tuple[str, str]] = []
    for _ in range(400):
        table_id = rng.choice([*states, "zzz"])
        state = states.get(table_id)
        kind = rng.random()
        if kind < 0.1 and sent:
            url, body = rng.choice(sent)  # a replay of an earlier request
        elif kind < 0.2:
            url, body = f"/api/tables/{table_id}/act", rng.choice(["{", "null", '"x"', "{}", "[]"])
        else:
            version = state["version"] if state and rng.random() < 0.8 else rng.randint(-2, 50)
            choices = len(state["choices"]) if state else 3
            body = json.dumps({"choice": rng.randint(-1, choices), "version": version})
            url = f"/api/tables/{table_id}/act"
        response = client.post(url, content=body)
        assert response.status_code in (200, 400, 404, 409), response.text
        sent.append((url, body))
        if response.status_code == 200:
            states[table_id] = response.json()
    for table_id, state in states.items():
        state = client.get(f"/api/tables/{table_id}").json()
        assert state["version"] >= 1
        for _ in range(3000):
            if state["over"] or (state["game"] == "lith" and len(state["finished"]) >= 3):
                break
            state = act(client, state, 0 if len(state["choices"]) == 1 else 1)
        if state["game"] == "lith":
            records = load_records(folder_of(tmp_path, state) / "histories.jsonl")
            assert records, table_id
            for record in records:
                replay_hand(record)  # raises if the record does not replay
                assert sum(record["net"]) == 0


def test_a_session_opens_in_the_reports_replayer(client, tmp_path, capsys):
    """The session's folder is a tournament folder to the report: its hands, every decision
    for the rates, and each label's chips with an interval."""
    from tournaments.report import cli as report

    state = new(client, game="lith", players=3, bots="tag,caller", seed=8)
    while len(state["finished"]) < 3:
        state = act(client, state, 1 if len(state["choices"]) > 1 else 0)
    folder = folder_of(tmp_path, state)
    results = json.loads((folder / "results.json").read_text())
    assert results["agents"] == ["you", "tag", "caller"]
    hands = {a: r["hands"] for a, r in results["agents_results"].items()}
    assert hands == {"you": 3, "tag": 3, "caller": 3}
    assert report.main([str(folder), "--html"]) == 0
    assert "(3 hands to browse)" in capsys.readouterr().out
    for record in load_records(folder / "histories.jsonl"):
        assert replay_hand(record).net() == record["net"]


def test_no_answer_names_a_path_of_the_server(client, tmp_path):
    """The page is sent the name of the session's folder, never where the server keeps it:
    no answer of any call (a state, an error, leaving) names a path on the server's disk."""
    answers = [client.get("/api/options").json()]
    for game, players, bots in (("lith", 2, "caller"), ("gendeneia", 3, "greedy")):
        state = new(client, game=game, players=players, bots=bots, seed=1)
        answers.append(state)
        assert state["history"] == f"{game}-{state['id']}"
        assert folder_of(tmp_path, state).is_dir()
        for _ in range(40):
            if state["over"] or len(state["finished"]) >= 2:
                break
            state = act(client, state, 0)
            answers.append(state)
        url = f"/api/tables/{state['id']}"
        answers.append(client.get(url).json())
        answers.append(client.post(f"{url}/act", json={"choice": 99, "version": 0}).json())
        answers.append(client.delete(url).json())
        assert answers[-1] == {"left": True, "history": state["history"]}
    text = json.dumps(answers)
    for path in (tmp_path, Path.cwd(), Path.home(), Path(__file__).resolve().parents[1]):
        assert str(path) not in text, path
    assert not re.search(r"(?<![\w.])/[\w.-]+/", text)  # no absolute path of any folder


def test_the_command_refuses_bad_options(capsys, tmp_path, monkeypatch):
    def serve(*args, **kwargs):
        raise AssertionError("the server started despite a bad option")

    monkeypatch.setattr("uvicorn.run", serve)
    for argv, message in ((["--port", "0"], "--port"), (["--port", "70000"], "--port"),
                          (["--port", "x"], "--port")):  # fmt: skip
        with pytest.raises(SystemExit) as stop:
            cli.main(argv)
        assert stop.value.code == 2 and message in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    with pytest.raises(SystemExit) as stop:
        cli.main(["--history-dir", str(tmp_path / "file")])
    assert stop.value.code == 2 and "--history-dir" in capsys.readouterr().err
    # An address of TEST-NET (RFC 5737), on no machine: binding it fails here, sending nothing.
    with pytest.raises(SystemExit) as stop:
        cli.main(["--host", "192.0.2.1"])
    assert stop.value.code == 2 and "--host: cannot listen on 192.0.2.1:" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(SystemExit) as stop:
            cli.main(["--port", str(taken.getsockname()[1])])
    assert stop.value.code == 2 and "--port: cannot listen on" in capsys.readouterr().err
    assert cli.build_parser().get_default("host") == "127.0.0.1"


def test_the_command_refuses_a_host_name_that_does_not_resolve(capsys, monkeypatch):
    """A name no resolver knows, without asking one: the lookup is made to fail as it would."""

    def unknown(host, *args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(cli.socket, "getaddrinfo", unknown)
    with pytest.raises(SystemExit) as stop:
        cli.main(["--host", "no.such.host.invalid"])
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert "--host: 'no.such.host.invalid' is not an address of this machine" in err


# ------------------------------------------------------------------------ in the browser


@pytest.fixture(scope="module")
def browser():
    from tournaments.report.browser import chromium

    with chromium(1280, 1400) as driver:
        yield driver


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from webplay.app import serving

    with serving(tmp_path_factory.mktemp("web")) as url:
        assert url.startswith("http://127.0.0.1:")
        yield url


def _start(browser, server, game, players, bots, seed, **selects):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(server + "/")
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game option"))
    Select(browser.find_element(By.ID, "game")).select_by_value(game)
    for field, value in (("players", players), ("bots", bots), ("seed", seed)):
        box = browser.find_element(By.ID, field)
        box.clear()
        box.send_keys(str(value))
    for field, value in selects.items():
        Select(browser.find_element(By.ID, field)).select_by_value(value)
    browser.find_element(By.ID, "start").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#seats .seat"))


def _click(browser, prefer: tuple[str, ...]) -> bool:
    """Click the first choice whose label starts with one of ``prefer`` (else the first);
    False when there is none. Waits for the page to show the answer."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    buttons = browser.find_elements(By.CSS_SELECTOR, "#choices button")
    if not buttons:
        return False
    pick = next((b for p in prefer for b in buttons if b.text.startswith(p)), buttons[0])
    pick.click()
    WebDriverWait(browser, 30).until(
        lambda d: not d.find_elements(By.CSS_SELECTOR, "#choices button[disabled]")
    )
    return True


@pytest.mark.slow
def test_a_person_plays_a_lith_hand_with_an_exchange_to_a_showdown(browser, server):
    from selenium.webdriver.common.by import By

    _start(browser, server, "lith", 2, "caller", 11, betting="limit", excuse="demon")
    mine = [
        c.get_attribute("data-card")
        for c in browser.find_elements(By.CSS_SELECTOR, ".seat.me .card")
    ]
    theirs = browser.find_elements(By.CSS_SELECTOR, ".seat:not(.me) .card")
    assert len(mine) == 3 and "hidden" not in mine
    assert [c.get_attribute("data-card") for c in theirs] == ["hidden"] * 3
    discarded = False
    for _ in range(30):
        labels = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#choices button")]
        discarded |= any(label.startswith("discard") for label in labels)
        if browser.find_elements(By.CSS_SELECTOR, "#finished .shown"):
            break
        assert _click(browser, ("discard", "check", "call"))
    assert discarded, "no exchange was offered"
    shown = browser.find_elements(By.CSS_SELECTOR, "#finished .shown")
    assert len(shown) == 2  # a showdown: both hands face up
    assert all(len(s.find_elements(By.CSS_SELECTOR, ".card")) == 3 for s in shown)
    assert "pot of" in browser.find_element(By.ID, "finished").text
    saved = browser.find_element(By.ID, "history").text  # the folder by name, not its path
    assert re.search(r"saved in the folder lith-\S+ of the server's --history-dir", saved)
    assert "decktet report runs/web/lith-" in saved
    assert not re.search(r"(?<![\w.])/[\w.-]+/", saved)
    assert browser.find_element(By.CSS_SELECTOR, "table.decisions tbody tr")
    assert browser.find_element(By.ID, "error").text == ""
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not severe, severe


@pytest.mark.slow
def test_a_person_plays_a_whole_gendeneia_game(browser, server):
    from selenium.webdriver.common.by import By

    _start(browser, server, "gendeneia", 3, "greedy,spoiler", 12)
    assert not browser.find_element(By.ID, "betting").is_displayed()  # Lith's rules hidden
    assert len(browser.find_elements(By.CSS_SELECTOR, "#my-pair .card")) == 2
    for _ in range(400):
        if "The game is over" in browser.find_element(By.ID, "status").text:
            break
        assert _click(browser, ("play",))
    status = browser.find_element(By.ID, "status").text
    assert "The game is over" in status and "lowest score" in status
    assert "scores:" in browser.find_element(By.ID, "finished").text
    assert browser.find_element(By.ID, "error").text == ""


def test_the_match_ends_for_the_person_once_they_are_out_of_chips(store_client):
    """At three seats the bots would otherwise play the rest of the match alone, hundreds of
    hands inside one request."""
    rules = {"starting_chips": 20, "betting": "pot-limit"}
    state = new(store_client, game="lith", players=3, bots="rock,caller", rules=rules, seed=5)
    engine = table_of(store_client, state).engine
    moves = 0
    while not state["over"]:
        folds = [i for i, c in enumerate(state["choices"]) if c["label"].startswith("fold")]
        state = act(store_client, state, folds[0] if folds else 0)
        moves += 1
        assert moves < 300
    assert state["over"] and not state["choices"]
    me = state["seat"]
    assert engine.stacks[me] == 0  # out of chips, not the end of the match
    assert sum(1 for chips in engine.stacks if chips > 0) >= 2  # the bots were not played out
