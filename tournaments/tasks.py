"""Celery tasks of the tournaments app. They take ids, are idempotent and are enqueued on commit.

- ``tournaments.bracket_advance``: a game's final result changed (``game_finished``): reconcile
  its bracket match from the database (``tournaments.services.brackets.advance.bracket_advance``).
- ``tournaments.email_night_seats``, ``tournaments.email_night_report``,
  ``tournaments.email_consent_confirmation``: the emails players opted into
  (``tournaments.services.mail``); each records what it sent, so a retry sends nothing twice.
  They retry a mail server that refused or could not be reached.
- ``tournaments.sweep_brackets`` (beat): reconcile what a lost signal left behind (a ready match
  already won, a decided match whose games changed), so a worker or broker that was down loses
  nothing.
"""

from smtplib import SMTPException

from celery import shared_task
from django.db import OperationalError

from tournaments import jobs
from tournaments.services import mail
from tournaments.services.brackets import advance

MAIL_RETRY = {
    "autoretry_for": (SMTPException, ConnectionError, TimeoutError, OperationalError),
    "retry_backoff": 30,
    "retry_backoff_max": 15 * 60,
    "max_retries": 8,
}
"""A mail server that refused or was down: try again, 30 s, then a minute, … up to 15 minutes."""


@shared_task(
    name="tournaments.bracket_advance",
    autoretry_for=(ConnectionError, OperationalError),
    retry_backoff=True,
    max_retries=5,
)
def bracket_advance(game_id: int) -> int | None:
    bracket = advance.bracket_advance(game_id=game_id)
    return bracket.pk if bracket is not None else None


@shared_task(name="tournaments.sweep_brackets")
def sweep_brackets() -> list[int]:
    return advance.bracket_sweep()


@shared_task(name=jobs.EMAIL_NIGHT_SEATS, **MAIL_RETRY)
def email_night_seats(night_id: int) -> int:
    return mail.night_seats_email(night_id=night_id)


@shared_task(name=jobs.EMAIL_NIGHT_REPORT, **MAIL_RETRY)
def email_night_report(night_id: int) -> int:
    return mail.night_report_email(night_id=night_id)


@shared_task(name=jobs.EMAIL_CONSENT_CONFIRMATION, **MAIL_RETRY)
def email_consent_confirmation(consent_id: int) -> bool:
    return mail.consent_confirmation_email(consent_id=consent_id)
