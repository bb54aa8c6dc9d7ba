"""Round clocks through the API and the pages: an organiser starts a started round's clock,
extends it and calls time; a double tap or a retry changes nothing; another league's organiser
is refused (403) and a night that does not exist is not found (404); bad input is refused (400)
and writes nothing. Every display (the captain's card, the table card, the night page, the wall,
``/clock/``) carries the clock's end and the server's now from one reading."""

import re
from datetime import datetime, timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.models import AuditEntry, Season
from scoring.games.models import Game
from tests.api.test_brackets import make_teams
from tests.factories import LeagueRoleFactory, NightFactory, PlayerFactory, SeasonFactory
from tournaments.models import RoundClock, TableCard
from tournaments.services import clocks as clock_services
from tournaments.services import nights as night_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(league, organiser):
    """An individual night of 8 players, its plan published and round 1 started (2 tables)."""
    season = SeasonFactory(
        league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )
    night = NightFactory(season=season)
    for number in range(1, 9):
        player = PlayerFactory(league=league, name=f"Player {number}")
        night_services.night_check_in(night=night, user=organiser, player=player)
    night_services.night_plan(night=night, rounds=3, user=organiser)
    night_services.night_publish(night=night, user=organiser)
    night_services.round_start(night=night, number=1, user=organiser)
    return night


def clock_url(night, number=1):
    return f"/api/v1/nights/{night.pk}/rounds/{number}/clock/"


def audits(action):
    return AuditEntry.objects.filter(action=action).count()


def test_start_extend_and_stop_a_rounds_clock(organiser_api, api, night):
    before = api.get(clock_url(night))
    assert before.status_code == 200
    assert before.data["is_running"] is False and before.data["started_at"] is None

    started = organiser_api.post(clock_url(night), {"action": "start", "minutes": 20})
    assert started.status_code == 201, started.data
    clock = RoundClock.objects.get()
    assert (clock.night_id, clock.round_number, clock.minutes) == (night.pk, 1, 20)
    ends_at = datetime.fromisoformat(started.data["ends_at"])
    assert ends_at == clock.started_at + timedelta(minutes=20)
    left = clock.started_at + timedelta(minutes=20) - timezone.now()
    assert abs(started.data["remaining_seconds"] - left.total_seconds()) <= 1
    assert started.data["server_now"] is not None and started.data["is_running"] is True

    again = organiser_api.post(clock_url(night), {"action": "start", "minutes": 30})
    assert again.status_code == 200  # a double tap: the running clock, unchanged
    assert again.data["minutes"] == 20 and RoundClock.objects.count() == 1
    assert audits("round_clock.start") == 1

    extend = {"action": "extend", "minutes": 5, "from_minutes": 20}
    assert organiser_api.post(clock_url(night), extend).data["minutes"] == 25
    assert organiser_api.post(clock_url(night), extend).data["minutes"] == 25  # once only
    clock.refresh_from_db()
    assert (clock.minutes, clock.extended_minutes, audits("round_clock.extend")) == (25, 5, 1)
    stale = {"action": "extend", "minutes": 10, "from_minutes": 20}
    refused = organiser_api.post(clock_url(night), stale)
    assert refused.status_code == 409 and "now lasts 25 minutes" in str(refused.data)
    clock.refresh_from_db()
    assert clock.minutes == 25

    stopped = organiser_api.post(clock_url(night), {"action": "stop"})
    assert stopped.status_code == 200
    assert stopped.data["is_running"] is False and stopped.data["remaining_seconds"] == 0
    assert organiser_api.post(clock_url(night), {"action": "stop"}).status_code == 200
    clock.refresh_from_db()
    assert clock.stopped_at is not None and audits("round_clock.stop") == 1
    entry = AuditEntry.objects.get(action="round_clock.stop")
    assert entry.season_id == night.season_id and entry.before["stopped_at"] is None
    late = organiser_api.post(clock_url(night), extend | {"from_minutes": 25})
    assert late.status_code == 409 and "time was called" in str(late.data)


@pytest.mark.parametrize(
    "body",
    [
        {"action": "start", "minutes": 0},
        {"action": "start", "minutes": 241},
        {"action": "start", "minutes": "twenty"},
        {"action": "start"},  # the standard rulebook's games are not timed: say the minutes
        {"action": "wind"},
        {},
    ],
)
def test_bad_input_is_refused_and_writes_nothing(organiser_api, night, body):
    response = organiser_api.post(clock_url(night), body, format="json")
    assert response.status_code == 400, response.data
    assert not RoundClock.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="round_clock").exists()


def test_a_timed_rulebook_gives_the_rounds_length(organiser_api, organiser_client, night):
    rulebook = night.season.rulebook
    rulebook.options = {**rulebook.options, "time_limit_minutes": 20}  # "to 10 or 20 minutes"
    rulebook.save()
    desk = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    assert re.search(r'name="minutes"[^>]*value="20"', desk)
    started = organiser_api.post(clock_url(night), {"action": "start"}, format="json")
    assert started.status_code == 201 and started.data["minutes"] == 20


def test_a_bad_extension_is_refused_and_writes_nothing(organiser_api, night):
    organiser_api.post(clock_url(night), {"action": "start", "minutes": 20})
    for body in (
        {"action": "extend", "minutes": 5},
        {"action": "extend", "minutes": 61, "from_minutes": 20},
        {"action": "extend", "minutes": 0, "from_minutes": 20},
    ):
        assert organiser_api.post(clock_url(night), body).status_code == 400
    assert RoundClock.objects.get().minutes == 20
    assert audits("round_clock.extend") == 0


def test_a_round_not_started_or_without_a_clock_is_a_conflict(organiser_api, night):
    response = organiser_api.post(clock_url(night, 2), {"action": "start", "minutes": 20})
    assert response.status_code == 409 and "has not started" in str(response.data)
    stop = organiser_api.post(clock_url(night), {"action": "stop"})
    assert stop.status_code == 409 and "no clock" in str(stop.data)
    Game.objects.filter(night=night).update(status=Game.Status.FINISHED)
    over = organiser_api.post(clock_url(night), {"action": "start", "minutes": 20})
    assert over.status_code == 409 and "finished round 1" in str(over.data)
    assert not RoundClock.objects.exists()


def test_only_the_leagues_organisers_run_its_clocks(api, night):
    stranger = APIClient()
    other = LeagueRoleFactory().user
    stranger.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=other).key}")
    body = {"action": "start", "minutes": 20}
    assert stranger.post(clock_url(night), body).status_code == 403
    assert api.post(clock_url(night), body).status_code in (401, 403)
    missing = f"/api/v1/nights/{night.pk + 999}/rounds/1/clock/"
    assert stranger.post(missing, body).status_code == 404
    assert not RoundClock.objects.exists()


def test_a_bracket_rounds_clock_and_its_captain_card(organiser_api, client, make_season):
    season = make_season("standard")
    teams = make_teams(season, 4)
    body = {"season": season.pk, "kind": "single", "teams": [team.pk for team in teams]}
    bracket_id = organiser_api.post("/api/v1/brackets/", body, format="json").json()["id"]
    assert organiser_api.post(f"/api/v1/brackets/{bracket_id}/publish/", {}).status_code == 200
    url = f"/api/v1/brackets/{bracket_id}/rounds/1/clock/"
    started = organiser_api.post(url, {"action": "start", "minutes": 15})
    assert started.status_code == 201 and started.data["bracket"] == bracket_id
    later = organiser_api.post(
        f"/api/v1/brackets/{bracket_id}/rounds/2/clock/", {"action": "start", "minutes": 15}
    )
    assert later.status_code == 409
    game = Game.objects.filter(bracket_link__match__bracket_id=bracket_id).first()
    page = client.get(f"/t/{game.captain_token}/").content.decode()
    clock = RoundClock.objects.get()
    ends = round((clock.started_at + timedelta(minutes=15)).timestamp() * 1000)
    assert f'data-ends-at="{ends}"' in page and "round 1" in page
    assert f'data-ends-at="{ends}"' in client.get(f"/clock/?bracket={bracket_id}").content.decode()


def test_a_bracket_rounds_clock_from_its_page(organiser_api, organiser_client, client, make_season):
    season = make_season("standard")
    teams = make_teams(season, 4)
    body = {"season": season.pk, "kind": "single", "teams": [team.pk for team in teams]}
    bracket_id = organiser_api.post("/api/v1/brackets/", body, format="json").json()["id"]
    organiser_api.post(f"/api/v1/brackets/{bracket_id}/publish/", {})
    page = organiser_client.get(f"/manage/brackets/{bracket_id}/").content.decode()
    assert "Start the clock" in page
    url = f"/manage/brackets/{bracket_id}/rounds/1/clock/"
    done = organiser_client.post(url, {"action": "start", "minutes": "12"}, follow=True)
    html = done.content.decode()
    assert "The clock of round 1 is running: 12 minutes." in html and "Call time now" in html
    refused = organiser_client.post(url, {"action": "extend", "minutes": "5"}, follow=True)
    assert "The form was incomplete; reload the page." in refused.content.decode()
    assert RoundClock.objects.get().minutes == 12
    client.force_login(LeagueRoleFactory().user)
    assert client.post(url, {"action": "stop"}).status_code == 403
    assert RoundClock.objects.get().stopped_at is None


def server_now(html: str) -> int:
    return int(re.search(r'data-server-now="(\d+)"', html).group(1))


def test_every_display_carries_the_end_and_the_servers_now(client, organiser, night):
    clock = clock_services.round_clock_start(
        user=organiser, night=night, round_number=1, minutes=20
    ).clock
    ends = round((clock.started_at + timedelta(minutes=20)).timestamp() * 1000)
    game = Game.objects.filter(night=night, round_number=1).first()
    season = night.season
    pages = [
        f"/t/{game.captain_token}/",
        f"/nights/{night.pk}/",
        f"/clock/?night={night.pk}&round=1",
        f"/clock/?night={night.pk}",
        f"/l/{season.league.slug}/s/{season.pk}/wall/clock/",
    ]
    for path in pages:
        before = round(timezone.now().timestamp() * 1000)
        html = client.get(path).content.decode()
        after = round(timezone.now().timestamp() * 1000)
        assert f'data-ends-at="{ends}"' in html, path
        assert before <= server_now(html) <= after, path
        assert 'role="timer"' in html and "Round 1" in html
    wall = client.get(f"/l/{season.league.slug}/s/{season.pk}/wall/").content.decode()
    assert "data-pending" in wall and "data-ends-at" not in wall  # the cached page reads it later
    # a table whose game is over waits for the next round, with the round's clock
    card = TableCard.objects.create(night=night, number=game.table_number)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert f'data-ends-at="{ends}"' in client.get(f"/tables/{card.token}/").content.decode()
    # once every table has finished the round, the night's clock is no longer shown
    Game.objects.filter(night=night).update(status=Game.Status.FINISHED)
    assert "data-ends-at" not in client.get(f"/clock/?night={night.pk}").content.decode()
    assert client.get("/clock/?night=x").status_code == 404
    assert client.get(f"/clock/?night={night.pk + 999}").status_code == 404


def test_the_desk_starts_extends_and_stops_the_clock_with_htmx(organiser_client, client, night):
    desk = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    assert "Start the clock" in desk
    url = f"/manage/nights/{night.pk}/rounds/1/clock/"
    htmx = {"HTTP_HX_REQUEST": "true"}
    answer = organiser_client.post(url, {"action": "start", "minutes": "20"}, **htmx)
    html = answer.content.decode()
    assert answer.status_code == 200 and 'id="tables"' in html
    assert "The clock of round 1 is running: 20 minutes." in html and "+5 minutes" in html
    again = organiser_client.post(url, {"action": "start", "minutes": "20"}, **htmx)
    assert "was already running" in again.content.decode()
    extend = {"action": "extend", "minutes": "5", "from_minutes": "20"}
    organiser_client.post(url, extend, **htmx)
    assert "already lasts 25 minutes" in organiser_client.post(url, extend, **htmx).content.decode()
    refused = organiser_client.post(url, {"action": "start", "minutes": "abc"}, **htmx)
    assert "is not a whole number" in refused.content.decode()
    plain = organiser_client.post(url, {"action": "stop"}, follow=True)
    assert "Time called on round 1." in plain.content.decode()
    assert RoundClock.objects.get().minutes == 25 and audits("round_clock.extend") == 1
    stranger = LeagueRoleFactory().user
    client.force_login(stranger)
    assert client.post(url, {"action": "stop"}).status_code == 403
