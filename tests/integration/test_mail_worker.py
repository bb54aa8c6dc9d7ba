"""With a real worker on Redis: publishing a rotation sends each consenting player's seats from
the worker process, through the SMTP backend, to the tests' real SMTP server; the one-click
unsubscribe from the received message stops the next one."""

from __future__ import annotations

import datetime
from urllib.parse import urlsplit

import pytest
from django.test import Client

from league import services as league_services
from league.models import EmailConsent
from tests.factories import NightFactory, PlayerFactory, SeasonFactory
from tests.integration.conftest import ROOT, _process_suffix, wait_for
from tournaments.models import NightEmail, Seat
from tournaments.services import nights as night_services

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_the_worker_emails_the_seats_and_honours_the_unsubscribe(
    celery_worker_process, smtp_server, league, organiser
):
    collector = smtp_server.collector
    with collector.lock:
        collector.messages.clear()
    season = SeasonFactory(league=league, format="individual", rulebook__slug="standard")
    night = NightFactory(season=season, date=datetime.date(2026, 12, 10))
    players = [PlayerFactory(league=league, name=f"Worker {n}") for n in range(1, 9)]
    for player in players[:2]:
        league_services.email_consent_record(
            player=player, email=f"w{player.pk}@example.org", agreed=True, user=organiser
        )
    for player in players:
        night_services.night_check_in(night=night, user=organiser, player=player)
    night_services.night_plan(night=night, rounds=2, user=organiser)
    night_services.night_publish(night=night, user=organiser)

    wanted = sorted(f"w{player.pk}@example.org" for player in players[:2])
    wait_for(lambda: collector.recipients() == wanted)
    first = collector.to(wanted[0])[0]
    mine = Seat.objects.get(round__plan__night=night, round__number=1, player=players[0])
    seat = ["North", "East", "South", "West"][mine.seat]
    assert f"Round 1: table {mine.table_number}, seat {seat}" in first.text
    # The row commits just after the message is handed over.
    wait_for(lambda: NightEmail.objects.filter(night=night).count() == 2)

    link = urlsplit(first.message["List-Unsubscribe"].strip().strip("<>")).path
    one_click = Client(enforce_csrf_checks=True).post(
        link, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert one_click.status_code == 200
    assert not EmailConsent.objects.get(player=players[0]).is_counting

    with collector.lock:
        collector.messages.clear()
    night_services.night_repair(
        night=night, user=organiser, substitute_for=players[2], substitute_name="Worker Sub"
    )
    # The job ran (its log line), and sent nothing to the unsubscribed player.
    wait_for(lambda: _seat_jobs_done(night.pk) == 2)
    assert wanted[0] not in collector.recipients()
    assert not NightEmail.objects.filter(player=players[0], number=2).exists()


def _seat_jobs_done(night_id: int) -> int:
    """How many seat jobs of the night the worker finished (its log's lines)."""
    log = (ROOT / "test-artifacts" / f"celery-worker{_process_suffix()}.log").read_text()
    return log.count(f"night {night_id}: seats emailed to ")
