import os

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import GameFactory, LeagueRoleFactory, SeasonFactory

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def require(condition: bool, reason: str) -> None:
    """Skip when a service or browser is missing, except under CI, where that is a failure."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"CI=true and {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def organiser_role(db):
    return LeagueRoleFactory()


@pytest.fixture
def organiser(organiser_role):
    return organiser_role.user


@pytest.fixture
def league(organiser_role):
    return organiser_role.league


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def organiser_api(organiser):
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=organiser)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def make_season(league):
    def make(slug: str = "standard", **kwargs):
        return SeasonFactory(league=league, rulebook__slug=slug, **kwargs)

    return make


@pytest.fixture
def make_game(make_season):
    def make(slug: str = "standard", **kwargs):
        season = kwargs.pop("season", None) or make_season(slug)
        return GameFactory(season=season, **kwargs)

    return make


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Hashing with PBKDF2 on every factory user would dominate the suite's time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
