"""The emails players opt into, sent to a real SMTP server (aiosmtpd, ``tests/mail_server.py``):
seats on publish, the unsubscribe link (its page and RFC 8058's one-click POST), nobody without
a counting consent, the double opt-in of a sign-up, and no message sent twice."""

from __future__ import annotations

import base64
import datetime
import re
from urllib.parse import urlsplit

import pytest
from django.test import Client

from league import services as league_services
from league.models import EmailConsent
from scoring.games import services as scoring
from scoring.games.domain.hand_input import HandInput
from scoring.games.models import Game
from tests.factories import NightFactory, PlayerFactory, SeasonFactory
from tournaments import tasks
from tournaments.models import NightEmail, Seat
from tournaments.services import nights as night_services

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bea", "Cy", "Dot", "Eve", "Fay", "Gus", "Hal"]
SEAT_WORDS = ["North", "East", "South", "West"]


@pytest.fixture
def night(league):
    season = SeasonFactory(league=league, format="individual", rulebook__slug="standard")
    return NightFactory(season=season, date=datetime.date(2026, 12, 3), venue="Rosie's")


@pytest.fixture
def players(league):
    return {name: PlayerFactory(league=league, name=name) for name in NAMES}


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run ``action()`` as a request would: its on-commit jobs (the emails) run when it commits."""

    def run(action, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return action(*args, **kwargs)

    return run


def address(name: str) -> str:
    return f"{name.lower()}@example.org"


def consent(player, organiser):
    return league_services.email_consent_record(
        player=player, email=address(player.name), agreed=True, user=organiser
    )


def publish(committed, night, organiser, names, *, rounds=3):
    for name in names:
        night_services.night_check_in(night=night, user=organiser, name=name)
    night_services.night_plan(night=night, rounds=rounds, user=organiser)
    committed(night_services.night_publish, night=night, user=organiser)


def expected_lines(night, player) -> list[str]:
    """The player's rounds read from the stored seats (not through the code that wrote the
    email): "Round 1: table 2, seat East, with Bea against Cy & Dot." """
    seats = list(Seat.objects.filter(round__plan__night=night).select_related("round", "player"))
    lines = []
    for number in sorted({seat.round.number for seat in seats}):
        mine = next(s for s in seats if s.round.number == number and s.player_id == player.pk)
        if mine.table_number is None:
            lines.append(f"Round {number}: you sit out.")
            continue
        table = {
            s.seat: s.player.name
            for s in seats
            if s.round.number == number and s.table_number == mine.table_number
        }
        deal = " (you deal first)" if mine.seat == 0 else ""
        lines.append(
            f"Round {number}: table {mine.table_number}, seat {SEAT_WORDS[mine.seat]}{deal}, "
            f"with {table[(mine.seat + 2) % 4]} against "
            f"{table[(mine.seat + 1) % 4]} & {table[(mine.seat + 3) % 4]}."
        )
    return lines


def round_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("Round ")]


def link_path(text: str, kind: str) -> str:
    (link,) = re.findall(rf"https?://\S+/emails/{kind}/\S+/", text)
    return urlsplit(link).path


def test_the_seat_message_arrives_with_the_right_seats(smtp, committed, night, players, organiser):
    consent(players["Ann"], organiser)
    consent(players["Eve"], organiser)
    players["Cy"].email = address("Cy")  # an address on the roster is no consent
    players["Cy"].save()

    publish(committed, night, organiser, NAMES)

    assert smtp.recipients() == [address("Ann"), address("Eve")]
    for name in ("Ann", "Eve"):
        (received,) = smtp.to(address(name))
        message = received.message
        assert message["Subject"] == "Your seats: Thu 3 Dec"
        assert message["To"] == address(name)
        assert round_lines(received.text) == expected_lines(night, players[name])
        assert len(round_lines(received.text)) == 3
        unsubscribe = link_path(received.text, "unsubscribe")
        assert message["List-Unsubscribe"].strip() == f"<http://127.0.0.1:8000{unsubscribe}>"
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        for line in expected_lines(night, players[name]):
            partner = line.split(", with ")[1].split(" against ")[0]
            assert f"<td>{partner}</td>" in received.html
        players[name].refresh_from_db()
        assert f"http://127.0.0.1:8000/me/{players[name].link_token}/" in received.text
    assert NightEmail.objects.filter(night=night, kind="seats").count() == 2

    page = Client().get(f"/manage/nights/{night.pk}/")
    assert page.status_code == 302  # the count is the organisers' (below), never public


def test_the_night_desk_says_how_many_will_be_emailed(
    smtp, committed, night, players, organiser, organiser_client
):
    consent(players["Ann"], organiser)
    consent(players["Bea"], organiser)
    for name in NAMES:
        night_services.night_check_in(night=night, user=organiser, name=name)
    night_services.night_plan(night=night, rounds=2, user=organiser)
    html = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    assert (
        "2 players who agreed to the league's emails will be emailed their seats when the plan "
        "is published" in html
    )
    assert smtp.messages == []  # a draft sends nothing


def test_the_unsubscribe_link_works_and_publishing_again_sends_nothing(
    smtp, committed, night, players, organiser
):
    publish(committed, night, organiser, NAMES)
    round_one = {
        s.player.name: (s.table_number, s.seat)
        for s in Seat.objects.filter(round__plan__night=night, round__number=1).select_related(
            "player"
        )
    }
    table, seat = round_one["Ann"]
    at_table = {s: name for name, (t, s) in round_one.items() if t == table}
    partner, left, right = (
        at_table[(seat + 2) % 4],
        at_table[(seat + 1) % 4],
        at_table[(seat + 3) % 4],
    )
    for name in ("Ann", left, right):
        consent(players[name], organiser)
    # Consents given after publishing: the next change (a re-plan for the same people) sends
    # them their seats, the first they get.
    committed(night_services.night_repair, night=night, user=organiser)
    assert smtp.recipients() == sorted(address(name) for name in ("Ann", left, right))

    browser = Client(enforce_csrf_checks=True)
    (ann,) = smtp.to(address("Ann"))
    path = link_path(ann.text, "unsubscribe")
    page = browser.get(path)
    assert page.status_code == 200
    assert b"Unsubscribe</button>" in page.content
    assert b"ann@example.org" not in page.content  # the page never shows the address
    payload = path.split("/")[-2].split(":")[0]
    assert b"ann@" not in base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    assert EmailConsent.objects.get(player=players["Ann"]).is_counting  # a GET changes nothing
    token = page.cookies["csrftoken"].value
    done = browser.post(path, {"csrfmiddlewaretoken": token})
    assert done.status_code == 200
    assert b"Unsubscribed" in done.content
    again = browser.post(path, {"csrfmiddlewaretoken": token})
    assert again.status_code == 200  # idempotent
    assert EmailConsent.objects.filter(player=players["Ann"], ending="unsubscribed").count() == 1

    (one_click,) = smtp.to(address(left))
    header = one_click.message["List-Unsubscribe"].strip().strip("<>")
    response = Client(enforce_csrf_checks=True).post(
        urlsplit(header).path,
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert not EmailConsent.objects.get(player=players[left]).is_counting

    smtp.messages.clear()
    # Ann's partner leaves: a substitute takes their seats, so Ann's table changes.
    committed(
        night_services.night_repair,
        night=night,
        user=organiser,
        substitute_for=players[partner],
        substitute_name="Zed",
    )
    assert smtp.recipients() == [address(right)]  # the one still subscribed
    (changed,) = smtp.to(address(right))
    assert changed.message["Subject"] == "Your seats changed: Thu 3 Dec"
    assert round_lines(changed.text) == expected_lines(night, players[right])
    assert "Zed" in changed.text


def test_nobody_without_a_counting_consent_gets_mail(
    smtp, committed, night, players, organiser, league
):
    consent(players["Bea"], organiser)
    consent(players["Cy"], organiser)
    league_services.email_consent_stop(player=players["Cy"], user=organiser)
    league_services.email_consent_request(player=players["Dot"], email=address("Dot"), agreed=True)
    outsider = PlayerFactory(league=league, name="Out")
    consent(outsider, organiser)  # counting, but not playing tonight
    players["Eve"].email = address("Eve")
    players["Eve"].save()
    with pytest.raises(Exception, match="tick the box"):
        league_services.email_consent_record(
            player=players["Fay"], email=address("Fay"), agreed=False, user=organiser
        )
    assert not EmailConsent.objects.filter(player=players["Fay"]).exists()

    publish(committed, night, organiser, NAMES, rounds=1)
    games = night_services.round_start(night=night, number=1, user=organiser)
    for game in games:
        while Game.objects.get(pk=game.pk).status != Game.Status.FINISHED:
            scoring.hand_record(
                game=Game.objects.get(pk=game.pk), data=HandInput(makers="A", tricks_won=5)
            )
    committed(night_services.night_finish, night=night, user=organiser)

    assert smtp.recipients() == [address("Bea"), address("Bea")]
    seats, report = smtp.to(address("Bea"))
    assert seats.message["Subject"] == "Your seats: Thu 3 Dec"
    assert report.message["Subject"] == "Your night: Thu 3 Dec"
    game = next(g for g in games if players["Bea"].pk in g.seat_player_ids)
    won = game.seat_player_ids.index(players["Bea"].pk) in (0, 2)
    assert f"you won {1 if won else 0} of 1 game." in report.text
    assert ("10–0, won" if won else "0–10, lost") in report.text
    assert report.message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    smtp.messages.clear()
    tasks.email_night_report.delay(night.pk)  # a second finish job: sent once only
    assert smtp.messages == []


def test_double_opt_in_from_the_players_page(smtp, committed, night, players, organiser, league):
    ann = players["Ann"]
    public = Client(enforce_csrf_checks=True)
    player_page = public.get(f"/l/{league.slug}/players/{ann.pk}/")
    assert f'href="/l/{league.slug}/players/{ann.pk}/emails/"'.encode() in player_page.content
    form_page = public.get(f"/l/{league.slug}/players/{ann.pk}/emails/")
    csrf = form_page.cookies["csrftoken"].value

    refused = public.post(
        f"/l/{league.slug}/players/{ann.pk}/emails/",
        {"email": "ann@example.org", "csrfmiddlewaretoken": csrf},
    )
    assert refused.status_code == 400
    assert b"Tick the box to agree" in refused.content
    assert not EmailConsent.objects.exists()
    assert smtp.messages == []

    asked = committed(
        public.post,
        f"/l/{league.slug}/players/{ann.pk}/emails/",
        {"email": "ann@example.org", "agreed": "on", "csrfmiddlewaretoken": csrf},
    )
    assert asked.status_code == 200
    assert b"Check your inbox" in asked.content
    (confirmation,) = smtp.to("ann@example.org")
    assert confirmation.message["Subject"] == f"Confirm your emails from {league.name}"
    assert confirmation.message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    pending = EmailConsent.objects.get(player=ann)
    assert pending.confirmed_at is None
    assert "email me, at ann@example.org, my seats" in pending.wording

    publish(committed, night, organiser, NAMES[:4], rounds=1)
    assert len(smtp.to("ann@example.org")) == 1  # unconfirmed: nothing but the confirmation

    path = link_path(confirmation.text, "confirm")
    page = public.get(path)
    assert page.status_code == 200
    assert EmailConsent.objects.get(player=ann).confirmed_at is None  # a GET confirms nothing
    csrf = page.cookies["csrftoken"].value
    confirmed = committed(public.post, path, {"csrfmiddlewaretoken": csrf})
    assert confirmed.status_code == 200
    assert b"Confirmed" in confirmed.content
    assert EmailConsent.objects.get(player=ann).is_counting
    assert public.get("/emails/confirm/forged-token/").status_code == 200
    forged = public.post(
        "/emails/confirm/forged-token/", {"csrfmiddlewaretoken": page.cookies["csrftoken"].value}
    )
    assert forged.status_code == 400

    # Confirmed while tonight's plan is published: tonight's seats follow at once, once.
    confirmation_and_seats = smtp.to("ann@example.org")
    assert len(confirmation_and_seats) == 2
    seats = confirmation_and_seats[1]
    assert seats.message["Subject"] == "Your seats: Thu 3 Dec"
    assert round_lines(seats.text) == expected_lines(night, ann)
    committed(public.post, path, {"csrfmiddlewaretoken": csrf})  # confirmed again: nothing
    assert len(smtp.to("ann@example.org")) == 2


def test_retries_never_send_twice(smtp, committed, night, players, organiser):
    for name in ("Ann", "Bea", "Cy"):
        consent(players[name], organiser)
    smtp.refuse.add(address("Bea"))  # the mail server refuses Bea's message once
    with pytest.raises(Exception, match="try again later"):
        publish(committed, night, organiser, NAMES)
    sent = smtp.recipients()
    assert address("Bea") not in sent
    assert NightEmail.objects.filter(player=players["Bea"]).count() == 0  # rolled back

    # The retry (the task run again) sends what is missing, and nothing twice.
    assert tasks.email_night_seats.apply(args=[night.pk]).get() == 3 - len(sent)
    assert tasks.email_night_seats.apply(args=[night.pk]).get() == 0
    assert smtp.recipients() == [address("Ann"), address("Bea"), address("Cy")]
    assert NightEmail.objects.filter(night=night).count() == 3


def test_the_organiser_records_consent_only_with_the_box_ticked(
    smtp, organiser_client, players, league, client
):
    bea = players["Bea"]
    page = organiser_client.get(f"/manage/players/{bea.pk}/")
    assert b"Bea gets no emails." in page.content
    assert b"Tick only with the player's consent" in page.content

    refused = organiser_client.post(
        f"/manage/players/{bea.pk}/emails/", {"consent_email": "bea@example.org"}
    )
    assert refused.status_code == 400
    assert b"tick the box only once the player has agreed" in refused.content
    assert not EmailConsent.objects.exists()

    done = organiser_client.post(
        f"/manage/players/{bea.pk}/emails/",
        {"consent_email": "bea@example.org", "agreed": "on"},
        follow=True,
    )
    assert b"Sent to <b>bea@example.org</b>" in done.content
    recorded = EmailConsent.objects.get(player=bea)
    assert recorded.is_counting and recorded.source == "organiser"
    assert recorded.wording == league_services.email_consent_wording(
        league=league, email="bea@example.org"
    )
    assert smtp.messages == []  # recorded in person: no confirmation email

    # The address is the organisers' alone: not on the public pages nor in the public API.
    assert b"bea@example.org" not in client.get(f"/l/{league.slug}/players/{bea.pk}/").content
    assert b"bea@example.org" not in client.get(f"/api/v1/players/{bea.pk}/").content

    stopped = organiser_client.post(f"/manage/players/{bea.pk}/emails/stop/", follow=True)
    assert b"No more emails to Bea." in stopped.content
    assert EmailConsent.objects.get(player=bea).ending == "stopped"
    organiser_client.post(f"/manage/players/{bea.pk}/emails/stop/")  # twice: nothing more
    assert EmailConsent.objects.filter(ending="stopped").count() == 1


def test_sign_ups_from_one_address_are_limited(smtp, committed, players, league, settings):
    settings.EMAIL_SIGNUP_RATE = "2/h"
    ann = players["Ann"]
    url = f"/l/{league.slug}/players/{ann.pk}/emails/"
    answers = [
        committed(Client().post, url, {"email": f"a{n}@example.org", "agreed": "on"}).status_code
        for n in range(3)
    ]
    assert answers == [200, 200, 429]
    assert smtp.recipients() == ["a0@example.org", "a1@example.org"]
    assert EmailConsent.objects.filter(player=ann).count() == 2
