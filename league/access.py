"""The audited doors to league objects (Zulip's ``access_*`` idea): who may see or change what.

Public data (leagues, seasons, rosters' names, games, standings) is readable by anyone; a change
needs an organiser (owner or co-organiser) of the league the object belongs to, or a superuser.
"""

from league.errors import AccessDeniedError, NotFoundError
from league.models import League, LeagueRole, Season


def is_league_organiser(*, user, league_id: int) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return LeagueRole.objects.filter(league_id=league_id, user=user).exists()


def require_league_organiser(*, user, league_id: int) -> None:
    if not is_league_organiser(user=user, league_id=league_id):
        raise AccessDeniedError("only an organiser of this league may change it")


def league_for_organiser(*, user, pk: int) -> League:
    league = League.objects.filter(pk=pk).first()
    if league is None:
        raise NotFoundError("no such league")
    require_league_organiser(user=user, league_id=league.pk)
    return league


def season_for_organiser(*, user, pk: int) -> Season:
    season = Season.objects.select_related("league", "rulebook").filter(pk=pk).first()
    if season is None:
        raise NotFoundError("no such season")
    require_league_organiser(user=user, league_id=season.league_id)
    return season
