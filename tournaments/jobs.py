"""The tournaments app's background jobs, by name: how its services ask a worker for work without
importing ``tournaments.tasks`` (the tasks import the services, never the other way round), as
``scoring.games.jobs`` does for scoring.

- ``tournaments.email_night_seats``: email each consenting player their seats of a night
  (a published rotation, or seats changed by a repair or a substitute).
- ``tournaments.email_night_report``: email each consenting player their night, once it ended.
- ``tournaments.email_consent_confirmation``: the one email a player's sign-up gets before it
  is confirmed: the link that confirms it.

Services call these from ``transaction.on_commit``; a broker outage is logged and the send is
lost (``core.enqueue``): the next publish or repair sends the seats then.
"""

from __future__ import annotations

from core.enqueue import send_job

EMAIL_NIGHT_SEATS = "tournaments.email_night_seats"
EMAIL_NIGHT_REPORT = "tournaments.email_night_report"
EMAIL_CONSENT_CONFIRMATION = "tournaments.email_consent_confirmation"


def send_night_seats_email(night_id: int) -> bool:
    return send_job(EMAIL_NIGHT_SEATS, night_id)


def send_night_report_email(night_id: int) -> bool:
    return send_job(EMAIL_NIGHT_REPORT, night_id)


def send_consent_confirmation_email(consent_id: int) -> bool:
    return send_job(EMAIL_CONSENT_CONFIRMATION, consent_id)
