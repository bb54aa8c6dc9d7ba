"""Round clocks: start, extend and stop (words: :mod:`tournaments.domain.clock`).

- ``round_clock_start``: start the clock of a round being played, of a night (``night`` and
  ``round_number``) or of a bracket (``bracket`` and ``round_number``), for ``minutes`` or, when
  none are given, the season rulebook's time limit. The round must have games, not all of them
  over. A second start (a double tap, a retry) finds the clock already running and changes
  nothing.
- ``round_clock_extend``: add ``minutes`` to a running clock. The caller says the length it saw
  (``from_minutes``), so a double tap adds them once: a repeat finds the clock already that long.
- ``round_clock_stop``: call time now. Stopping a stopped or run-out clock changes nothing.

Each is one transaction under the lock of the night (or the bracket) the clock belongs to,
checks that ``user`` organises its league, and writes one audit entry when it changes something.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import ConflictError, DomainError
from league.access import require_league_organiser
from league.audit import actor_of, audit_record
from league.models import Night
from scoring.games.models import Game
from scoring.games.services import rulebook_rules
from tournaments.domain.clock import (
    clock_minutes,
    clock_read,
    extension_minutes,
    rulebook_minutes,
)
from tournaments.models import Bracket, RoundClock
from tournaments.services.locks import bracket_lock, night_lock


@dataclass(frozen=True)
class ClockChange:
    """A clock after a start, extension or stop; ``changed`` is false for a repeat."""

    clock: RoundClock
    changed: bool


def _picture(clock: RoundClock) -> dict:
    return {
        "night": clock.night_id,
        "bracket": clock.bracket_id,
        "round": clock.round_number,
        "started_at": clock.started_at.isoformat(),
        "minutes": clock.minutes,
        "extended_minutes": clock.extended_minutes,
        "stopped_at": clock.stopped_at.isoformat() if clock.stopped_at else None,
    }


def _owner(night: Night | None, bracket: Bracket | None, user) -> tuple[Night | Bracket, dict]:
    """The clock's night or bracket, its row locked, and the filter of its clocks and games."""
    if (night is None) == (bracket is None):
        raise ValueError("a round clock belongs to a night or to a bracket")
    if night is not None:
        require_league_organiser(user=user, league_id=night.season.league_id)
        return night_lock(night.pk), {"night_id": night.pk}
    require_league_organiser(user=user, league_id=bracket.season.league_id)
    return bracket_lock(bracket.pk), {"bracket_id": bracket.pk}


def _round_games(owner: Night | Bracket, round_number: int):
    games = Game.objects.exclude(status=Game.Status.VOIDED)
    if isinstance(owner, Night):
        return games.filter(night=owner, round_number=round_number)
    return games.filter(bracket_link__match__bracket=owner, bracket_link__match__round=round_number)


def _audit(owner: Night | Bracket, user, action: str, clock, before, after) -> None:
    audit_record(
        league=owner.season.league_id,
        season=owner.season_id,
        actor=actor_of(user),
        action=action,
        target=clock,
        before=before,
        after=after,
    )


def _clock(owner_filter: dict, round_number: int) -> RoundClock | None:
    return RoundClock.objects.filter(**owner_filter, round_number=round_number).first()


def _round_words(owner: Night | Bracket, round_number: int) -> str:
    return f"round {round_number}" + (f" of {owner.name}" if isinstance(owner, Bracket) else "")


def round_clock_start(
    *,
    user,
    round_number: int,
    night: Night | None = None,
    bracket: Bracket | None = None,
    minutes: int | None = None,
) -> ClockChange:
    """Start the round's clock (see the module's words); a repeat returns the running one."""
    with transaction.atomic():
        owner, owned = _owner(night, bracket, user)
        existing = _clock(owned, round_number)
        if existing is not None:
            return ClockChange(existing, changed=False)
        if minutes is None:
            minutes = rulebook_minutes(rulebook_rules(owner.season.rulebook))
            if minutes is None:
                raise DomainError(
                    "say how many minutes the round lasts (the season's games are not timed)",
                    field="minutes",
                )
        minutes = clock_minutes(minutes)
        games = list(_round_games(owner, round_number).values_list("status", flat=True))
        words = _round_words(owner, round_number)
        if not games:
            raise ConflictError(f"{words} has not started: start it first", code="not_started")
        if all(status == Game.Status.FINISHED for status in games):
            raise ConflictError(f"every table has finished {words}", code="round_over")
        try:
            with transaction.atomic():
                clock = RoundClock.objects.create(
                    **owned,
                    round_number=round_number,
                    started_at=timezone.now(),
                    minutes=minutes,
                    started_by=user if getattr(user, "is_authenticated", False) else None,
                )
        except IntegrityError:  # started at the same instant by another request
            return ClockChange(_clock(owned, round_number), changed=False)
        _audit(owner, user, "round_clock.start", clock, None, _picture(clock))
        return ClockChange(clock, changed=True)


def _running(owned: dict, owner, round_number: int) -> RoundClock:
    clock = _clock(owned, round_number)
    if clock is None:
        words = _round_words(owner, round_number)
        raise ConflictError(f"{words} has no clock: start it first", code="no_clock")
    return clock


def round_clock_extend(
    *,
    user,
    round_number: int,
    minutes: int,
    from_minutes: int,
    night: Night | None = None,
    bracket: Bracket | None = None,
) -> ClockChange:
    """Add ``minutes`` to the clock the caller saw ``from_minutes`` long (a repeat adds none)."""
    with transaction.atomic():
        owner, owned = _owner(night, bracket, user)
        clock = _running(owned, owner, round_number)
        minutes = extension_minutes(minutes, length=from_minutes)
        if clock.minutes == from_minutes + minutes:
            return ClockChange(clock, changed=False)  # the same tap again
        if clock.minutes != from_minutes:
            raise ConflictError(
                f"the clock was changed meanwhile: the round now lasts {clock.minutes} minutes",
                code="clock_changed",
            )
        if clock.stopped_at is not None:
            raise ConflictError("time was called on this round", code="clock_stopped")
        before = _picture(clock)
        clock.minutes += minutes
        clock.extended_minutes += minutes
        clock.save(update_fields=["minutes", "extended_minutes", "updated_at"])
        _audit(owner, user, "round_clock.extend", clock, before, _picture(clock))
        return ClockChange(clock, changed=True)


def round_clock_stop(
    *,
    user,
    round_number: int,
    night: Night | None = None,
    bracket: Bracket | None = None,
) -> ClockChange:
    """Call time on the round now; a stopped or run-out clock is left as it is."""
    with transaction.atomic():
        owner, owned = _owner(night, bracket, user)
        clock = _running(owned, owner, round_number)
        now = timezone.now()
        reading = clock_read(
            started_at=clock.started_at, minutes=clock.minutes, stopped_at=clock.stopped_at, now=now
        )
        if reading.is_over:
            return ClockChange(clock, changed=False)
        before = _picture(clock)
        clock.stopped_at = now
        clock.save(update_fields=["stopped_at", "updated_at"])
        _audit(owner, user, "round_clock.stop", clock, before, _picture(clock))
        return ClockChange(clock, changed=True)
