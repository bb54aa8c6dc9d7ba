"""``manage.py rotation``: a chart for players 1..N with its report, as JSON or CSV."""

import csv
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def rotation(*args):
    out = StringIO()
    call_command("rotation", *args, stdout=out)
    return out.getvalue()


def test_perfect_chart_for_eight_as_json():
    printed = json.loads(rotation("--players", "8", "--format", "json"))
    assert printed["players"] == 8
    assert len(printed["rounds"]) == 7
    for round_ in printed["rounds"]:
        assert sorted(p for table in round_["tables"] for p in table) == list(range(1, 9))
        assert round_["byes"] == []
    report = printed["report"]
    assert report["summary"] == (
        "perfect: everyone partners everyone once and opposes everyone twice"
    )
    assert report["partner_histogram"] == {"1": 28}
    assert report["opponent_histogram"] == {"2": 28}


def test_short_night_with_byes_as_json():
    printed = json.loads(rotation("--players", "10", "--rounds", "5", "--seed", "3"))
    assert len(printed["rounds"]) == 5
    assert all(len(r["byes"]) == 2 and len(r["tables"]) == 2 for r in printed["rounds"])
    assert (printed["report"]["byes_fewest"], printed["report"]["byes_most"]) == (1, 1)


def test_csv_has_one_row_per_table_and_per_bye():
    rows = list(
        csv.reader(StringIO(rotation("--players", "9", "--rounds", "3", "--format", "csv")))
    )
    assert rows[0] == ["round", "table", "seat_1", "seat_2", "seat_3", "seat_4"]
    assert len(rows) == 1 + 3 * (2 + 1)
    assert [row[1] for row in rows[1:4]] == ["1", "2", "bye"]


def test_too_few_players_is_a_command_error():
    with pytest.raises(CommandError, match="a rotation needs at least 4 players"):
        rotation("--players", "3")
