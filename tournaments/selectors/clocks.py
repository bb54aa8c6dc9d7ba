"""The one read of a round clock for every display (words: :mod:`tournaments.domain.clock`).

``current_clock`` answers "which clock does this display show, and how does it read now": the
captain's card and the table card (``game``: its round's clock), the public night page and a
player's page (``night``, maybe with ``round_number``), a bracket round (``bracket`` and
``round_number``), the wall (its night, else its bracket). The answer carries the server's *now*
with the clock's end, so the page counts down from one server time (``round-clock.js``), and the
``source`` a display refreshes itself from (``/clock/?…``), whether or not a clock runs yet.

Render it with ``{% load round_clock %}{% round_clock … %}`` (``config/round_clock.py``), which
draws ``templates/includes/round_clock.html``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from league.models import Night
from scoring.games.models import Game
from scoring.games.services import rulebook_rules
from tournaments.domain.clock import ClockReading, clock_read, remaining_text, rulebook_minutes
from tournaments.models import Bracket, BracketMatchGame, RoundClock


@dataclass(frozen=True)
class ClockView:
    """What a display shows: ``clock`` (``None`` while no clock runs) read at ``now``, in words
    (``label``: "Round 2"; ``text``: "19:59" or "Time!"), and ``source``: the query that reads it
    again (``{"night": 4, "round": 2}``), empty when the display has no round to follow."""

    now: datetime
    clock: RoundClock | None = None
    reading: ClockReading | None = None
    label: str = ""
    source: dict[str, int] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return "" if self.reading is None else remaining_text(self.reading.remaining_seconds)

    @property
    def ends_at_ms(self) -> int | None:
        return None if self.reading is None else round(self.reading.ends_at.timestamp() * 1000)

    @property
    def now_ms(self) -> int:
        return round(self.now.timestamp() * 1000)


def _label(clock: RoundClock) -> str:
    if clock.bracket_id is not None:
        return f"{clock.bracket.name}, round {clock.round_number}"
    return f"Round {clock.round_number}"


def _view(clock: RoundClock | None, source: dict[str, int]) -> ClockView:
    now = timezone.now()
    if clock is None:
        return ClockView(now=now, source=source)
    reading = clock_read(
        started_at=clock.started_at, minutes=clock.minutes, stopped_at=clock.stopped_at, now=now
    )
    return ClockView(now=now, clock=clock, reading=reading, label=_label(clock), source=source)


def _round_is_playing(clock: RoundClock) -> bool:
    """Whether a game of the clock's round is still to be finished (a night's latest clock is
    shown while its round is played, not after)."""
    games = Game.objects.exclude(status__in=(Game.Status.VOIDED, Game.Status.FINISHED))
    if clock.night_id is not None:
        return games.filter(night_id=clock.night_id, round_number=clock.round_number).exists()
    return games.filter(
        bracket_link__match__bracket_id=clock.bracket_id,
        bracket_link__match__round=clock.round_number,
    ).exists()


def _latest(clocks) -> RoundClock | None:
    clock = clocks.select_related("bracket").order_by("-started_at", "-pk").first()
    return clock if clock is not None and _round_is_playing(clock) else None


def current_clock(
    *,
    game: Game | None = None,
    night: Night | int | None = None,
    bracket: Bracket | int | None = None,
    round_number: int | None = None,
) -> ClockView:
    """The clock a display shows now (see the module's words). With ``round_number``, that
    round's clock of ``night`` or ``bracket``, whether its round is over or not; without, the
    latest clock of a round still being played: of the night (its brackets' rounds included) or
    of the bracket."""
    if game is not None:
        # A bracket's game keeps its bracket round's clock, even when played on a night.
        link = BracketMatchGame.objects.filter(game=game).select_related("match").first()
        if link is not None:
            return current_clock(bracket=link.match.bracket_id, round_number=link.match.round)
        if game.night_id is not None and game.round_number is not None:
            return current_clock(night=game.night_id, round_number=game.round_number)
        return _view(None, {})
    night_id = getattr(night, "pk", night)
    bracket_id = getattr(bracket, "pk", bracket)
    if round_number is not None and (night_id is None) != (bracket_id is None):
        owner = {"night_id": night_id} if night_id is not None else {"bracket_id": bracket_id}
        source = {"night" if night_id is not None else "bracket": night_id or bracket_id}
        clock = (
            RoundClock.objects.filter(**owner, round_number=round_number)
            .select_related("bracket")
            .first()
        )
        return _view(clock, {**source, "round": round_number})
    if night_id is not None:
        clocks = RoundClock.objects.filter(night_id=night_id) | RoundClock.objects.filter(
            bracket__night_id=night_id, bracket__archived_at__isnull=True
        )
        return _view(_latest(clocks), {"night": night_id})
    if bracket_id is not None:
        return _view(
            _latest(RoundClock.objects.filter(bracket_id=bracket_id)), {"bracket": bracket_id}
        )
    return _view(None, {})


def season_round_minutes(*, season) -> int | None:
    """The minutes the season's rulebook gives a round (its games' time limit), else ``None``:
    what the desk's "Start the clock" offers."""
    return rulebook_minutes(rulebook_rules(season.rulebook))
