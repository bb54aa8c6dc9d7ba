"""Pasted lists (league.domain.pasted): roster lines, team lines and a series of nights' dates."""

import datetime

import pytest

from core.errors import DomainError
from league.domain.pasted import (
    MAX_PASTED_LINES,
    PastedTeam,
    pasted_names,
    pasted_teams,
    recurring_dates,
)


def test_names_keep_their_line_numbers_and_a_tab_separates_an_email():
    text = "Ann Baker\r\n\n   \nBob Carter\tbob@example.com\n  Cal Dunn  "
    assert pasted_names(text) == [
        (1, "Ann Baker", ""),
        (4, "Bob Carter", "bob@example.com"),
        (5, "Cal Dunn", ""),
    ]


def test_too_many_lines_are_refused():
    with pytest.raises(DomainError, match=f"at most {MAX_PASTED_LINES} lines"):
        pasted_names("x\n" * (MAX_PASTED_LINES + 1))


@pytest.mark.parametrize(
    "line",
    [
        "Ann Baker & Bob Carter",
        "Ann Baker&Bob Carter",
        "Ann Baker + Bob Carter",
        "Ann Baker / Bob Carter",
        "Ann Baker, Bob Carter",
        "Ann Baker\tBob Carter",
        "Ann Baker AND Bob Carter",
        "  Ann   Baker  &  Bob Carter ",
    ],
)
def test_every_separator_joins_a_pair(line):
    assert pasted_teams(line) == (
        [PastedTeam(1, "Ann Baker & Bob Carter", "Ann Baker", "Bob Carter")],
        [],
    )


def test_a_team_name_before_a_colon_and_names_holding_and():
    teams, problems = pasted_teams("Aces:  Sandra Lee & Andy Moss\nAlexandra & Randall")
    assert problems == []
    assert teams == [
        PastedTeam(1, "Aces", "Sandra Lee", "Andy Moss"),
        PastedTeam(2, "Alexandra & Randall", "Alexandra", "Randall"),
    ]


@pytest.mark.parametrize("line", ["Ann Baker", "Ann & Bob & Cal", "Aces: & Bob", "Ann &"])
def test_a_line_that_is_not_two_players_is_a_problem(line):
    teams, problems = pasted_teams("Dee & Eve\n" + line)
    assert [team.line for team in teams] == [1]
    assert problems == [(2, "write two players joined by &, e.g. “Ann Baker & Bob Carter”")]


THURSDAY = 3


def test_weekly_nights_from_the_first_weekday_on_or_after_the_start():
    dates, skipped = recurring_dates(start=datetime.date(2026, 9, 1), weekday=THURSDAY, count=3)
    assert dates == [
        datetime.date(2026, 9, 3),
        datetime.date(2026, 9, 10),
        datetime.date(2026, 9, 17),
    ]
    assert skipped == []
    same_day, _ = recurring_dates(start=datetime.date(2026, 9, 3), weekday=THURSDAY, count=1)
    assert same_day == [datetime.date(2026, 9, 3)]


def test_skipped_dates_do_not_count_and_dates_off_the_series_are_ignored():
    dates, skipped = recurring_dates(
        start=datetime.date(2026, 12, 1),
        weekday=THURSDAY,
        count=4,
        every_weeks=2,
        skip={datetime.date(2026, 12, 17), datetime.date(2026, 12, 25)},
    )
    assert dates == [
        datetime.date(2026, 12, 3),
        datetime.date(2026, 12, 31),
        datetime.date(2027, 1, 14),
        datetime.date(2027, 1, 28),
    ]
    assert skipped == [datetime.date(2026, 12, 17)]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"weekday": 7}, "weekday"),
        ({"every_weeks": 0}, "every_weeks"),
        ({"count": 0}, "count"),
        ({"count": 61}, "count"),
    ],
)
def test_a_series_out_of_bounds_is_refused(options, field):
    arguments = {"start": datetime.date(2026, 9, 1), "weekday": THURSDAY, "count": 3, **options}
    with pytest.raises(DomainError) as refused:
        recurring_dates(**arguments)
    assert refused.value.field == field
