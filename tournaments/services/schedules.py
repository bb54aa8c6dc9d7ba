"""A team season's schedule: every team meets every other once or twice, the rounds shared out
over the season's nights."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction

from core.errors import ConflictError, DomainError
from league import services as league_services
from league.access import require_league_organiser
from league.models import Night, Season
from scoring.games import services as scoring_services
from tournaments.domain.schedule import season_schedule
from tournaments.models import TeamSchedule
from tournaments.services.locks import season_lock

MAX_ROUNDS_PER_NIGHT = 32767
"""The most ``TeamSchedule.rounds_per_night`` stores (a small integer column on PostgreSQL)."""


def season_schedule_create(
    *, season: Season, nights: Sequence, cycles: int = 1, rounds_per_night: int, user
) -> TeamSchedule:
    """Schedule a team season: every team meets every other once (``cycles`` 1) or twice (2),
    by Berger tables, the rounds shared out over the ``nights`` (dates; at most
    ``rounds_per_night`` rounds each, the heavier nights first). Creates the nights (a night
    already planned on one of the dates is used as it is) and every game with its captain link;
    a team with a bye sits that round out. Once per season."""
    require_league_organiser(user=user, league_id=season.league_id)
    if season.format != Season.Format.TEAMS:
        raise DomainError(
            "A schedule of team meetings is for team seasons (fixed partnerships).",
            field="season",
        )
    if cycles not in (1, 2):
        raise DomainError("Teams meet once or twice (1 or 2 cycles).", field="cycles")
    if rounds_per_night < 1:
        raise DomainError("A night holds at least one round.", field="rounds_per_night")
    if rounds_per_night > MAX_ROUNDS_PER_NIGHT:
        raise DomainError(
            f"A night holds at most {MAX_ROUNDS_PER_NIGHT} rounds.", field="rounds_per_night"
        )
    dates = sorted(nights)
    if not dates:
        raise DomainError("Give the dates of the season's nights.", field="nights")
    if len(set(dates)) != len(dates):
        raise DomainError("Each date can be given once.", field="nights")
    teams = list(
        season.teams.filter(is_withdrawn=False)
        .select_related("player_one", "player_two")
        .order_by("pk")
    )
    if len(teams) < 2:
        raise DomainError("A schedule needs at least 2 teams in the season.", field="season")
    plan = season_schedule(
        team_count=len(teams),
        nights=len(dates),
        cycles=cycles,
        max_rounds_per_night=rounds_per_night,
    )
    with transaction.atomic():
        season_lock(season.pk)
        try:
            with transaction.atomic():
                schedule = TeamSchedule.objects.create(
                    season=season,
                    cycles=cycles,
                    rounds_per_night=rounds_per_night,
                    created_by=user if user is not None and user.is_authenticated else None,
                )
        except IntegrityError as error:
            raise ConflictError("This season already has a schedule.", code="scheduled") from error
        planned = {
            night.date: night
            for night in Night.objects.filter(season=season, date__in=dates).order_by("-id")
        }
        byes = []
        for planned_night, date in zip(plan.nights, dates, strict=True):
            night = planned.get(date) or league_services.night_create(
                season=season, date=date, user=user
            )
            for local, played in enumerate(planned_night.rounds, start=1):
                for table, pairing in enumerate(played.pairings, start=1):
                    first, second = teams[pairing.first - 1], teams[pairing.second - 1]
                    scoring_services.game_create(
                        season=season,
                        seats=(
                            first.player_one,
                            second.player_one,
                            first.player_two,
                            second.player_two,
                        ),
                        team_a=first,
                        team_b=second,
                        night=night,
                        round_number=local,
                        table_number=table,
                        first_dealer_seat=(played.number - 1) % 4,
                    )
                if played.bye is not None:
                    byes.append(
                        {"night": night.pk, "round": local, "team": teams[played.bye - 1].pk}
                    )
        schedule.byes = byes
        schedule.save(update_fields=["byes"])
    return schedule
