"""The round clock's arithmetic (tournaments.domain.clock), without a database: the end, the
seconds left (rounded up, never below zero), an early stop, the mm:ss text, and the minutes an
organiser may type or add."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.errors import DomainError
from league.domain.rules import Rulebook
from tournaments.domain.clock import (
    clock_minutes,
    clock_read,
    extension_minutes,
    remaining_text,
    rulebook_minutes,
)

START = datetime(2026, 11, 28, 19, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("elapsed", "left", "over"),
    [
        (timedelta(0), 1200, False),
        (timedelta(milliseconds=1), 1200, False),  # 1199.999 s left still reads 20:00
        (timedelta(seconds=1), 1199, False),
        (timedelta(minutes=19, seconds=59, milliseconds=500), 1, False),
        (timedelta(minutes=20), 0, True),
        (timedelta(hours=3), 0, True),
    ],
)
def test_a_20_minute_clock_read_as_time_goes_by(elapsed, left, over):
    reading = clock_read(started_at=START, minutes=20, stopped_at=None, now=START + elapsed)
    assert reading.ends_at == START + timedelta(minutes=20)
    assert (reading.remaining_seconds, reading.is_over, reading.is_stopped) == (left, over, False)


def test_an_early_stop_ends_the_clock_then_and_a_late_one_changes_nothing():
    stop = START + timedelta(minutes=7)
    early = clock_read(started_at=START, minutes=20, stopped_at=stop, now=stop)
    assert (early.ends_at, early.remaining_seconds, early.is_over) == (stop, 0, True)
    late = START + timedelta(minutes=25)
    after = clock_read(started_at=START, minutes=20, stopped_at=late, now=START)
    assert (after.ends_at, after.remaining_seconds, after.is_stopped) == (
        START + timedelta(minutes=20),
        1200,
        True,
    )


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(1200, "20:00"), (1199, "19:59"), (605, "10:05"), (61, "01:01"), (1, "00:01"), (0, "Time!")],
)
def test_remaining_time_in_words(seconds, text):
    assert remaining_text(seconds) == text


@pytest.mark.parametrize("minutes", [1, 20, 240])
def test_lengths_an_organiser_may_type(minutes):
    assert clock_minutes(minutes) == minutes


@pytest.mark.parametrize(
    ("value", "words"),
    [(0, "1 to 240"), (241, "1 to 240"), (-5, "1 to 240"), ("20", "whole"), (True, "whole")],
)
def test_lengths_refused_with_a_reason(value, words):
    with pytest.raises(DomainError, match=words) as refused:
        clock_minutes(value)
    assert refused.value.field == "minutes"


def test_extensions_are_1_to_60_minutes_and_keep_the_round_within_240():
    assert extension_minutes(5, length=20) == 5
    assert extension_minutes(60, length=180) == 60
    for value, length, words in [(0, 20, "1 to 60"), (61, 20, "1 to 60"), (30, 220, "240")]:
        with pytest.raises(DomainError, match=words):
            extension_minutes(value, length=length)


def test_the_rulebooks_minutes_only_when_its_games_are_timed():
    assert rulebook_minutes(Rulebook()) is None  # played to a target score, no clock
    assert rulebook_minutes(Rulebook(time_limit_minutes=20)) == 20  # to 10 or 20 minutes
    timed = Rulebook.from_options({"game_length": "time", "time_limit_minutes": 25})
    assert rulebook_minutes(timed) == 25
