"""``manage.py bracket``: a blank bracket for seeds 1..N, without a league or a database."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def bracket(*args):
    out = StringIO()
    call_command("bracket", *args, stdout=out)
    return out.getvalue()


def test_single_elimination_of_twelve_as_json():
    printed = json.loads(bracket("--kind", "single", "--teams", "12", "--format", "json"))
    assert printed["kind"] == "single"
    assert printed["teams"] == 12
    matches = printed["matches"]
    assert len(matches) == 15
    assert [
        [slot["label"] for slot in match["slots"]] for match in matches if match["round"] == 1
    ] == [
        ["Seed 1", "Bye"],
        ["Seed 8", "Seed 9"],
        ["Seed 4", "Bye"],
        ["Seed 5", "Seed 12"],
        ["Seed 2", "Bye"],
        ["Seed 7", "Seed 10"],
        ["Seed 3", "Bye"],
        ["Seed 6", "Seed 11"],
    ]
    assert sum(1 for match in matches if not match["is_bye"]) == 11
    assert matches[8] == {
        "code": "W2-1",
        "bracket": "winners",
        "round": 2,
        "pool": None,
        "slots": [
            {"kind": "winner", "label": "Winner of W1-1", "match": "W1-1"},
            {"kind": "winner", "label": "Winner of W1-2", "match": "W1-2"},
        ],
        "is_bye": False,
        "reset_of": None,
        "winner_place": None,
        "loser_place": 5,
    }


def test_single_elimination_with_a_third_place_match():
    printed = json.loads(bracket("--kind", "single", "--teams", "4", "--third-place"))
    assert [match["code"] for match in printed["matches"]] == ["W1-1", "W1-2", "W2-1", "3P"]
    assert [slot["label"] for slot in printed["matches"][3]["slots"]] == [
        "Loser of W1-1",
        "Loser of W1-2",
    ]
    assert printed["third_place"] is True


def test_double_elimination_with_a_reset():
    printed = json.loads(
        bracket("--kind", "double", "--teams", "8", "--grand-final-reset", "--format", "json")
    )
    codes = [match["code"] for match in printed["matches"]]
    assert codes[-2:] == ["GF1", "GF2"]
    assert len(codes) == 2 * 8 - 1
    assert printed["matches"][-1]["reset_of"] == "GF1"
    assert [slot["label"] for slot in printed["matches"][9]["slots"]] == [
        "Loser of W2-2",
        "Winner of L1-1",
    ]


def test_round_robin_shows_who_sits_out():
    printed = json.loads(bracket("--kind", "round-robin", "--teams", "5"))
    assert printed["kind"] == "round_robin"
    assert len(printed["matches"]) == 15
    byes = [match for match in printed["matches"] if match["is_bye"]]
    assert [(m["round"], m["slots"][0]["seed"]) for m in byes] == [
        (1, 1),
        (2, 4),
        (3, 2),
        (4, 5),
        (5, 3),
    ]
    twice = json.loads(bracket("--kind", "round-robin", "--teams", "4", "--cycles", "2"))
    assert len(twice["matches"]) == 12


def test_text_format_is_a_printable_sheet():
    printed = bracket("--kind", "single", "--teams", "3", "--format", "text")
    assert printed.splitlines() == [
        "W1-1     winners      round 1   Seed 1 v Bye (bye)",
        "W1-2     winners      round 1   Seed 2 v Seed 3",
        "W2-1     winners      round 2   Winner of W1-1 v Winner of W1-2",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--kind", "single", "--teams", "1"), "A bracket needs at least 2 teams."),
        (
            ("--kind", "double", "--teams", "8", "--third-place"),
            "--third-place applies to single elimination only.",
        ),
        (
            ("--kind", "single", "--teams", "8", "--grand-final-reset"),
            "--grand-final-reset applies to double elimination only.",
        ),
        (
            ("--kind", "single", "--teams", "8", "--cycles", "2"),
            "--cycles applies to round robin only.",
        ),
    ],
)
def test_bad_arguments_are_explained(args, message):
    with pytest.raises(CommandError) as refused:
        bracket(*args)
    assert str(refused.value) == message
