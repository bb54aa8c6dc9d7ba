import os
import random
from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import GameFactory, LeagueRoleFactory, SeasonFactory
from tests.mail_server import smtp, smtp_server  # noqa: F401  (the email tests' SMTP server)

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def require(condition: bool, reason: str) -> None:
    """Skip when a service or browser is missing, except under CI, where that is a failure."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"CI=true and {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On the embedded default, each test process gets a SQLite file of its own, in WAL mode like
    the product's (``config.settings``), not Django's shared in-memory database. There, the live
    server's threads each hold a connection to one shared cache with table locks: a page read
    while a test writes makes the write fail at once ("database table is locked"), which the
    product's SQLite never does (in WAL, readers never block the writer)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3" and not database.get("TEST", {}).get(
        "NAME"
    ):
        folder = tmp_path_factory.mktemp("database")
        database.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")


@pytest.fixture
def one_minute(monkeypatch):
    """One rate-limit window for the whole test (no window boundary falls between its
    requests), and a client address of its own, so counts left in a shared cache (Redis) by
    other tests never mix in."""
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: 1.8e9 + 7))
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"


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
def organiser_client(organiser):
    """The organiser signed in to the pages, in a browser of its own (beside the anonymous
    ``client``; the API client uses a token)."""
    client = Client()
    client.force_login(organiser)
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


@pytest.fixture(autouse=True)
def no_outage_carried_over():
    """A test that took Redis down leaves its process remembering it for a few seconds (sends
    paused, the cache on its fallback). The next test starts with the broker and Redis known
    to be up, as a fresh process would."""
    from config.cache import forget_outages
    from core.enqueue import resume_sends

    resume_sends()
    forget_outages()


@pytest.fixture(autouse=True)
def in_process_tasks_and_cache(request, settings):
    """Tests run their Celery tasks in process with a fresh local cache, as the embedded shape does,
    because a worker in another process cannot see a test's uncommitted rows. Tests marked
    ``services`` keep the real broker, cache and worker (the second pass of the suite)."""
    if request.node.get_closest_marker("services"):
        yield
        return
    from config.celery import app

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": request.node.nodeid,
        }
    }
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = eager
