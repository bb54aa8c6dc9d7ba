"""Fixtures the page tests share."""

import pytest

from league.models import Season
from tests.factories import NightFactory, SeasonFactory


@pytest.fixture
def night(league):
    """A night of an individual season of the organiser's league."""
    season = SeasonFactory(
        league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    return NightFactory(season=season, venue="Rosie's")
