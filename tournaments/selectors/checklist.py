"""A season's set-up checklist for its dashboard: what to do next, each step ticked once done.

Steps (a link each): the rulebook, the roster (at least 4 active players), teams (a team
season: at least 2 teams) or nights (an individual season: at least one), the schedule (a team
schedule; or a night's rotation planned) and publishing (a rotation published; or the team
schedule on nights players can see). Reads only.
"""

from dataclasses import dataclass

from django.urls import reverse

from league.models import Night, Player, Season, Team
from tournaments.models import NightPlan, TeamSchedule

MIN_PLAYERS = 4
"""One table of euchre."""


@dataclass(frozen=True)
class Step:
    label: str
    detail: str
    url: str
    is_done: bool


def season_checklist(*, season: Season) -> list[Step]:
    league_id = season.league_id
    players = Player.objects.filter(league_id=league_id, is_active=True).count()
    nights = Night.objects.filter(season=season)
    night_count = nights.count()
    next_night = nights.exclude(status=Night.Status.FINISHED).order_by("date", "pk").first()
    nights_url = reverse("manage:nights", args=[season.pk])
    steps = [
        Step(
            "Rulebook",
            f"{season.rulebook}: check the scoring rules",
            reverse("manage:season-rules", args=[season.pk]),
            season.rulebook_id is not None,
        ),
        Step(
            "Roster",
            f"{players} active player{'s' if players != 1 else ''}; at least {MIN_PLAYERS}",
            reverse("manage:roster", args=[league_id]),
            players >= MIN_PLAYERS,
        ),
    ]
    if season.format == Season.Format.TEAMS:
        teams = Team.objects.filter(season=season, is_withdrawn=False).count()
        has_schedule = TeamSchedule.objects.filter(season=season).exists()
        steps += [
            Step(
                "Teams",
                f"{teams} team{'s' if teams != 1 else ''}; at least 2",
                reverse("manage:teams", args=[season.pk]),
                teams >= 2,
            ),
            Step(
                "Nights",
                f"{night_count} night{'s' if night_count != 1 else ''} on the calendar",
                nights_url,
                night_count >= 1,
            ),
            Step(
                "Schedule",
                "who plays whom, night by night",
                reverse("brackets:manage-schedule", args=[season.pk]),
                has_schedule,
            ),
            Step(
                "Publish",
                "players see the schedule on the season's public page",
                reverse("public-season", args=[season.league.slug, season.pk]),
                has_schedule and night_count >= 1,
            ),
        ]
    else:
        plans = NightPlan.objects.filter(night__season=season)
        desk = reverse("night-manage", args=[next_night.pk]) if next_night else nights_url
        steps += [
            Step(
                "Nights",
                f"{night_count} night{'s' if night_count != 1 else ''} on the calendar",
                nights_url,
                night_count >= 1,
            ),
            Step(
                "Schedule",
                "check players in and plan a night's rotation at the night desk",
                desk,
                plans.exists(),
            ),
            Step(
                "Publish",
                "publish the rotation: players find their seats",
                desk,
                plans.filter(status=NightPlan.Status.PUBLISHED).exists(),
            ),
        ]
    return steps
