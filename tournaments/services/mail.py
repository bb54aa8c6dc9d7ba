"""The emails players opt into: their seats when a night's rotation is published (and again when
a repair or a substitute changes them), their night's report after it, and the one confirmation
email a sign-up gets. Sent through Django's email backend by the tasks of ``tournaments.tasks``.

Words:

- *consent*: ``league.models.EmailConsent``; a player is emailed only under a *counting* one
  (confirmed, not ended): never without consent, before its confirmation, or after an
  unsubscribe.
- *signed link*: a link carrying a value signed with the site's key (``django.core.signing``):
  the confirmation link (a consent's id, valid :data:`CONFIRM_DAYS` days) and the unsubscribe
  link (a player's id and a digest of the address, valid for ever). Nobody needs an account.
- *one-click unsubscribe* (RFC 8058): every email names its unsubscribe link in a
  ``List-Unsubscribe`` header, with ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``: a
  mail program POSTs to the link and the player is unsubscribed, with no page to read.
- *player link*: where an email sends the player to see more (:func:`player_email_link`).

Each message is recorded as it is sent (``tournaments.models.NightEmail``): a retry, a second
job, or publishing again never sends a message twice; seats that changed send "your seats
changed".
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from core.errors import DomainError, NotFoundError
from league import services as league_services
from league.models import EmailConsent, Night, Player
from scoring.games.models import Game
from tournaments import jobs
from tournaments.models import NightEmail, NightPlan
from tournaments.services.nights import PlayerRound, night_chart, night_players, player_schedule
from tournaments.services.wall import SEAT_NAMES

logger = logging.getLogger("tournaments.mail")

CONFIRM_DAYS = 7
"""How long a confirmation link works: a week, then the player signs up again."""
CONFIRM_SALT = "tournaments.mail.confirm"
UNSUBSCRIBE_SALT = "tournaments.mail.unsubscribe"


# --- links ------------------------------------------------------------------------------------


def site_link(path: str) -> str:
    """An absolute link to ``path`` on this site (``settings.SITE_URL``): emails are written by a
    worker, with no request to take the host from."""
    return settings.SITE_URL.rstrip("/") + path


def player_email_link(*, player: Player) -> str:
    """The one place an email's "your page" link is made: the player's own link (``/me/<token>/``:
    their seat now and next, the live score, the night's report), or their public page while an
    organiser has turned that link off. The email goes to the player alone, as the link must."""
    own = league_services.player_link_url(player=player)
    return site_link(own or reverse("public-player", args=[player.league.slug, player.pk]))


def confirm_token(consent: EmailConsent) -> str:
    return signing.dumps({"consent": consent.pk}, salt=CONFIRM_SALT, compress=True)


def unsubscribe_token(*, player_id: int, email: str) -> str:
    """The signed value of an unsubscribe link: the player and a digest of the address (never
    the address itself)."""
    key = league_services.email_address_key(email)
    return signing.dumps({"player": player_id, "address": key}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_link(*, player_id: int, email: str) -> str:
    token = unsubscribe_token(player_id=player_id, email=email)
    return site_link(reverse("email-unsubscribe", args=[token]))


def _read_unsubscribe(token: str) -> tuple[int, str]:
    try:
        value = signing.loads(token, salt=UNSUBSCRIBE_SALT)
        return int(value["player"]), str(value["address"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise NotFoundError("this unsubscribe link is not valid (was it cut short?)") from None


def unsubscribe_target(*, token: str) -> Player:
    """The player an unsubscribe link is for (its page names them, never the address)."""
    player_id, _address = _read_unsubscribe(token)
    player = Player.objects.select_related("league").filter(pk=player_id).first()
    if player is None:
        raise NotFoundError("this unsubscribe link is not valid any more")
    return player


# --- the player's side: sign up, confirm, unsubscribe ------------------------------------------


def email_signup(*, player: Player, email: str, agreed: bool) -> EmailConsent:
    """A player asks for the emails on their public page: a consent waiting for confirmation, and
    (on commit) the confirmation email to the address. Nothing else is sent until it is
    confirmed. An address already counting gets no email."""
    with transaction.atomic():
        consent = league_services.email_consent_request(player=player, email=email, agreed=agreed)
        if consent.confirmed_at is None:
            transaction.on_commit(lambda: jobs.send_consent_confirmation_email(consent.pk))
    return consent


def email_confirm(*, token: str) -> EmailConsent:
    """The confirmation link was opened: the consent counts from now on (idempotent), and the
    seats of a night already published that the player plays follow at once (on commit)."""
    try:
        value = signing.loads(token, salt=CONFIRM_SALT, max_age=CONFIRM_DAYS * 24 * 3600)
        consent_id = int(value["consent"])
    except signing.SignatureExpired:
        raise DomainError(
            f"this link was older than {CONFIRM_DAYS} days; sign up again from your page",
            code="expired",
        ) from None
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise NotFoundError("this confirmation link is not valid (was it cut short?)") from None
    with transaction.atomic():
        consent = league_services.email_consent_confirm(consent_id=consent_id)
        for night_id in _published_nights_of(consent.player_id):
            transaction.on_commit(lambda night_id=night_id: jobs.send_night_seats_email(night_id))
    return consent


def _published_nights_of(player_id: int) -> list[int]:
    """The nights not over whose published plan seats the player."""
    return list(
        Night.objects.not_archived()
        .filter(
            plan__status=NightPlan.Status.PUBLISHED,
            plan__planned_rounds__seats__player_id=player_id,
        )
        .exclude(status=Night.Status.FINISHED)
        .values_list("pk", flat=True)
        .distinct()
    )


def email_unsubscribe(*, token: str) -> int:
    """Stop the emails an unsubscribe link is for (idempotent: 0 when already stopped)."""
    player_id, address_key = _read_unsubscribe(token)
    return league_services.email_consent_end(player_id=player_id, address_key=address_key)


# --- who gets what ----------------------------------------------------------------------------


def night_email_recipients(*, night: Night) -> dict[int, EmailConsent]:
    """The night's players (seated or checked in) the league may email: a counting consent each."""
    players = [player.pk for player in night_players(night=night)]
    return league_services.email_consents_counting(player_ids=players)


def night_email_count(*, night: Night) -> int:
    """How many of the night's players will be emailed (the night desk says it)."""
    return len(night_email_recipients(night=night))


# --- the messages -----------------------------------------------------------------------------


@dataclass
class SeatLine:
    """One round of a player's night, as an email says it."""

    number: int
    table: int | None
    seat: str
    partner: str
    opponents: str
    score: str = ""
    result: str = ""

    @property
    def is_bye(self) -> bool:
        return self.table is None


def _result(place: PlayerRound) -> str:
    game = place.game
    if game is None or game.status != Game.Status.FINISHED:
        return ""
    if not game.winner:
        return "draw"
    ours = "A" if place.seat in (0, 2) else "B"
    return "won" if game.winner == ours else "lost"


def seat_lines(schedule: list[PlayerRound]) -> list[SeatLine]:
    """A player's rounds (from ``player_schedule``, the "find my seat" reader) as email lines."""
    lines = []
    for place in schedule:
        if place.is_bye:
            lines.append(SeatLine(place.number, None, "", "", "", "", ""))
            continue
        lines.append(
            SeatLine(
                number=place.number,
                table=place.table,
                seat=SEAT_NAMES[place.seat],
                partner=place.partner.name,
                opponents=" & ".join(opponent.name for opponent in place.opponents),
                score=place.score,
                result=_result(place),
            )
        )
    return lines


def _seats_digest(schedule: list[PlayerRound]) -> str:
    seats = [
        [place.number, place.table, place.seat, getattr(place.partner, "pk", None)]
        + [opponent.pk for opponent in place.opponents]
        for place in schedule
    ]
    return hashlib.sha256(json.dumps(seats).encode()).hexdigest()


def _message(*, consent: EmailConsent, subject: str, template: str, context: dict):
    """One email to a consenting player: plain text with an HTML alternative, its unsubscribe
    link in the body and in the RFC 8058 headers."""
    unsubscribe = unsubscribe_link(player_id=consent.player_id, email=consent.email)
    context = {**context, "unsubscribe": unsubscribe, "league": consent.player.league}
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string(f"email/{template}.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[consent.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(render_to_string(f"email/{template}.html", context), "text/html")
    return message


def _record_and_send(*, night: Night, consent: EmailConsent, kind: str, digest: str, build) -> bool:
    """Send one message unless it was sent: the row claiming its number is written in the same
    transaction as the message is handed to the mail server (a failed send rolls the claim back,
    so a retry sends it; the constraint makes a second job's claim fail, so it sends nothing).
    ``build(number)`` makes the message, ``number`` 1 for the first of its kind."""
    try:
        with transaction.atomic():
            last = (
                NightEmail.objects.filter(night=night, player_id=consent.player_id, kind=kind)
                .order_by("-number")
                .first()
            )
            if last is not None and (kind == NightEmail.Kind.REPORT or last.digest == digest):
                return False
            number = 1 if last is None else last.number + 1
            NightEmail.objects.create(
                night=night,
                player_id=consent.player_id,
                kind=kind,
                number=number,
                digest=digest,
                email=consent.email,
                sent_at=timezone.now(),
            )
            build(number).send()
    except IntegrityError:
        return False  # another job sent it meanwhile
    return True


def night_seats_email(*, night_id: int) -> int:
    """Email each consenting player of the night their seats, round by round, unless the seats
    they were last sent are the same; seats that changed are sent as "your seats changed".
    Nothing while the plan is a draft or after the night ended. Returns how many were sent."""
    night = Night.objects.not_archived().select_related("season__league").filter(pk=night_id)
    night = night.first()
    if night is None or night.status == Night.Status.FINISHED:
        return 0
    charts = night_chart(night=night)
    if not charts:
        return 0
    sent = 0
    for consent in night_email_recipients(night=night).values():
        schedule = player_schedule(night=night, player=consent.player, charts=charts)
        if not schedule:
            continue
        context = {
            "night": night,
            "player": consent.player,
            "lines": seat_lines(schedule),
            "night_link": site_link(reverse("night-public", args=[night.pk]))
            + "?"
            + urlencode({"name": consent.player.name}),
            "player_link": player_email_link(player=consent.player),
        }

        def build(number: int, consent=consent, context=context):
            changed = number > 1
            when = f"{night.date:%a} {night.date.day} {night.date:%b}"
            subject = f"{'Your seats changed' if changed else 'Your seats'}: {when}"
            return _message(
                consent=consent,
                subject=subject,
                template="seats",
                context={**context, "changed": changed},
            )

        if _record_and_send(
            night=night,
            consent=consent,
            kind=NightEmail.Kind.SEATS,
            digest=_seats_digest(schedule),
            build=build,
        ):
            sent += 1
    logger.info("night %s: seats emailed to %s players", night_id, sent)
    return sent


def night_report_email(*, night_id: int) -> int:
    """Email each consenting player who played the night their report (every round: table,
    partner, opponents, score, result), once, after the night ended. Returns how many were
    sent."""
    night = Night.objects.not_archived().select_related("season__league").filter(pk=night_id)
    night = night.first()
    if night is None or night.status != Night.Status.FINISHED:
        return 0
    charts = night_chart(night=night)
    sent = 0
    for consent in night_email_recipients(night=night).values():
        schedule = player_schedule(night=night, player=consent.player, charts=charts)
        lines = seat_lines(schedule)
        played = [line for line in lines if line.result]
        if not played:
            continue
        context = {
            "night": night,
            "player": consent.player,
            "lines": lines,
            "played": len(played),
            "won": sum(1 for line in played if line.result == "won"),
            "results_link": site_link(
                reverse("public-night", args=[night.season.league.slug, night.season_id, night.pk])
            ),
            "player_link": player_email_link(player=consent.player),
        }

        def build(number: int, consent=consent, context=context):
            when = f"{night.date:%a} {night.date.day} {night.date:%b}"
            return _message(
                consent=consent, subject=f"Your night: {when}", template="report", context=context
            )

        if _record_and_send(
            night=night, consent=consent, kind=NightEmail.Kind.REPORT, digest="", build=build
        ):
            sent += 1
    logger.info("night %s: reports emailed to %s players", night_id, sent)
    return sent


def consent_confirmation_email(*, consent_id: int) -> bool:
    """The confirmation email of a waiting sign-up (the only email it gets): its link confirms
    it. Nothing is sent for a consent already confirmed or ended."""
    consent = (
        EmailConsent.objects.select_related("player__league")
        .filter(pk=consent_id, confirmed_at__isnull=True, ended_at__isnull=True)
        .first()
    )
    if consent is None:
        return False
    context = {
        "player": consent.player,
        "consent": consent,
        "confirm": site_link(reverse("email-confirm", args=[confirm_token(consent)])),
        "days": CONFIRM_DAYS,
    }
    _message(
        consent=consent,
        subject=f"Confirm your emails from {consent.player.league.name}",
        template="confirm",
        context=context,
    ).send()
    return True
