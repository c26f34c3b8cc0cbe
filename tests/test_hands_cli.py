"""python -m lith_env.hands: the table and single-hand modes."""

import re
import subprocess
import sys

import pytest

from lith_env.hands import CATEGORIES, main
from tests.lith_helpers import beggar_distribution
from tests.rules_brief import BRIEF_TABLE


def run(capsys, *argv):
    code = main(list(argv))
    return code, capsys.readouterr().out


def table_rows(out):
    """category -> count, read from lines that start with a category name and its count."""
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^(\D+?)\s+(\d+)\s", line)
        if m and m.group(1) in (*CATEGORIES, "Total"):
            rows[m.group(1)] = int(m.group(2))
    return rows


def test_table_extended(capsys):
    code, out = run(capsys, "--table")
    assert code == 0
    rows = table_rows(out)
    assert list(rows)[:24] == list(CATEGORIES)
    assert rows["Total"] == 13244
    assert rows["Kindred Pair"] == 123 and rows["Single Flush Pair"] == 136
    assert rows["Void"] == BRIEF_TABLE["extended"]["Void"][0]
    assert re.search(r"^Doubly Kindred\s+1\s+1\s+0\s+0\s+0\.00008$", out, re.M)


def test_table_basic(capsys):
    _, out = run(capsys, "--table", "--basic")
    rows = table_rows(out)
    assert rows["Total"] == 7140
    assert {c: rows[c] for c in CATEGORIES} == {c: n for c, (n, _) in BRIEF_TABLE["basic"].items()}
    assert re.search(r"^Totum\s+29\s+9\s+0\s+20\s+0\.00406$", out, re.M)


@pytest.mark.parametrize(
    ("role", "basic", "total"), [("beggar", False, 14190), ("imposter", True, 7770)]
)
def test_table_with_excuse(capsys, role, basic, total):
    _, out = run(capsys, "--table", "--excuse", role, *(["--basic"] if basic else []))
    assert table_rows(out)["Total"] == total
    assert f"the Excuse as {role}" in out


@pytest.mark.parametrize("basic", [False, True], ids=["extended", "basic"])
def test_beggar_table_counts_each_hand_as_its_weakest_completion(capsys, basic):
    _, out = run(capsys, "--table", "--excuse", "beggar", *(["--basic"] if basic else []))
    expected = beggar_distribution(not basic)  # enumerated with the reference evaluator
    for category, by_qualifier in expected.items():
        counts = [by_qualifier[q] for q in ("kindred", "fortune", "neither")]
        row = rf"^{category}\s+{sum(counts)}\s+{counts[0]}\s+{counts[1]}\s+{counts[2]}\s"
        assert re.search(row, out, re.M), category


def test_beggar_hand_reads_as_its_weakest_completion(capsys):
    _, out = run(capsys, "bard", "end", "excuse", "--excuse", "beggar")
    # Not the Fortune Pair the Bard and the End made with an Excuse that counted as a card.
    assert "just below the hand with The Origin in its place" in out
    assert "Pair (neither)" in out and "Fortune Pair" not in out


def test_one_hand(capsys):
    code, out = run(capsys, "The Pact", "The Diplomat", "The Mountain")
    assert code == 0
    assert "Pure Twin Flush (fortune)" in out
    assert re.search(r"strength percentile: 99\.\d\d", out)


def test_imposter_hand_names_the_card_copied(capsys):
    _, out = run(capsys, "pact", "diplomat", "excuse", "--excuse", "imposter")
    assert "the Excuse plays as The Harvest" in out
    assert "Running Twin Flush" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["The Pact", "The Diplomat"], "expected three cards"),
        (["The Pact", "The Diplomat", "The Mountian"], "did you mean 'The Mountain'"),
        (["The Pact", "The Pact", "The Sea"], "duplicate card"),
        (["The Pact", "The Diplomat", "The Consul", "--basic"], "The Consul is not in the deck"),
        (["--table", "The Pact"], "not both"),
        (["--excuse", "demon", "--table"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_runs_as_a_module():
    result = subprocess.run(
        # -W error: running the module must not warn that the package imported it first
        [
            sys.executable,
            "-W",
            "error",
            "-m",
            "lith_env.hands",
            "The End",
            "The Market",
            "The Origin",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Doubly Kindred (kindred)" in result.stdout
    assert "strength percentile: 100.00" in result.stdout
