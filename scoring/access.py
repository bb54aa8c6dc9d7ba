"""The audited doors to games: the only ways code gets a game a caller may score.

*Captain-token guesses*: a wrong captain token, from a ``/t/<token>/`` link or an API
``X-Captain-Token`` header, counts against one limit per client address
(``CAPTAIN_TOKEN_GUESSES_PER_MINUTE``, one django-ratelimit group for both doors); past it, every
token from that address is refused (429) until the minute is over.
"""

from django.conf import settings
from django.db.models import QuerySet
from django_ratelimit.core import is_ratelimited

from league.access import client_address, is_league_organiser
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


CAPTAIN_GUESS_GROUP = "captain-token-guess"


def _guess_rate(group: str, request) -> str:
    return settings.CAPTAIN_TOKEN_GUESSES_PER_MINUTE


def captain_guesses_exceeded(request, *, increment: bool) -> bool:
    """Has this address tried too many wrong captain tokens this minute? ``increment`` counts one
    more wrong token first."""
    return is_ratelimited(
        request,
        group=CAPTAIN_GUESS_GROUP,
        key=client_address,
        rate=_guess_rate,
        increment=increment,
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
