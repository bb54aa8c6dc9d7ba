"""The audited doors to games: the only ways code gets a game a caller may score."""

from django.db.models import QuerySet

from league.access import is_league_organiser
from league.errors import AccessDeniedError, NotFoundError
from scoring.models import Game


def _games() -> QuerySet[Game]:
    return Game.objects.select_related(
        "season__rulebook",
        "season__league",
        "team_a",
        "team_b",
        "seat_0",
        "seat_1",
        "seat_2",
        "seat_3",
    )


def game_for_captain(*, token: str) -> Game:
    """The game a captain's link opens; a wrong or revoked token is not found."""
    if not token:
        raise NotFoundError("this score-card link is not valid")
    game = _games().filter(captain_token=token).first()
    if game is None:
        raise NotFoundError("this score-card link is not valid (it may have been replaced)")
    return game


def game_for_organiser(*, user, pk: int) -> Game:
    game = _games().filter(pk=pk).first()
    if game is None:
        raise NotFoundError("no such game")
    if not is_league_organiser(user=user, league_id=game.season.league_id):
        raise AccessDeniedError("only an organiser of this league may change its games")
    return game
