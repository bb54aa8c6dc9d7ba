"""The audited doors to games: the only ways code gets a game a caller may score.

*Captain-token guesses*: a wrong captain token, from a ``/t/<token>/`` link or an API
``X-Captain-Token`` header, counts against one limit per client address
(``CAPTAIN_TOKEN_GUESSES_PER_MINUTE``, one django-ratelimit group for both doors); past it, every
token from that address is refused (429) until the minute is over.
"""

from dataclasses import dataclass

from django.conf import settings
from django.db.models import OuterRef, QuerySet
from django_ratelimit.core import is_ratelimited

from league.access import client_address, organiser_role_exists
from league.errors import AccessDeniedError, NotFoundError
from scoring.models import Game


def _games() -> QuerySet[Game]:
    """Games with what a page of one shows (season, league, teams, players)."""
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


def _one(games: QuerySet[Game]) -> Game | None:
    """The game of a query on a unique column, or ``None``: without ``first()``'s ordering (the
    ORM takes longer to compile an ORDER BY than PostgreSQL takes to run the query)."""
    return next(iter(games.order_by()), None)


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


def games_to_score(*, lock: bool = False) -> QuerySet[Game]:
    """Games with what a write needs: the season and its rulebook (the names of the seats and
    teams are read by the pages that show them, not by a write). ``lock``: the game row is
    locked for the rest of the transaction (a no-op on SQLite, whose IMMEDIATE transactions
    already serialise writers)."""
    games = Game.objects.select_related("season__rulebook")
    return games.select_for_update(of=("self",)) if lock else games


def _captains_game(games: QuerySet[Game], token: str) -> Game:
    game = _one(games.filter(captain_token=token)) if token else None
    if game is None:
        raise NotFoundError("this score-card link is not valid (it may have been replaced)")
    return game


def _organisers_game(games: QuerySet[Game], user, pk) -> Game:
    games = games.filter(pk=pk)
    role = organiser_role_exists(user=user, league_id=OuterRef("season__league_id"))
    if isinstance(role, bool):  # decided without a role row
        game, is_organiser = _one(games), role
    else:
        game = _one(games.annotate(user_is_organiser=role))
        is_organiser = game is not None and game.user_is_organiser
    if game is None:
        raise NotFoundError("no such game")
    if not is_organiser:
        raise AccessDeniedError("only an organiser of this league may change its games")
    return game


def game_for_captain(*, token: str, to_score: bool = False) -> Game:
    """The game a captain's link opens; a wrong or revoked token is not found. ``to_score``: read
    only what a write needs (the season and its rulebook)."""
    return _captains_game(games_to_score() if to_score else _games(), token)


def game_for_organiser(*, user, pk: int, to_score: bool = False) -> Game:
    """The game an organiser of its league may change, read with the answer to whether ``user``
    is one (one query). ``to_score``: read only what a write needs (the season and its
    rulebook)."""
    return _organisers_game(games_to_score() if to_score else _games(), user, pk)


OTHER_GAME = "this score-card link is for another game"
OTHER_GAME_CODE = "other_game"
"""A captain's token of another game: a real token, so not a wrong guess."""


@dataclass(frozen=True)
class GameDoor:
    """The way a request may score game ``pk``: as its captain (``captain_token``), or as
    ``user``, an organiser of its league. A write opens it (:meth:`locked`) in its own
    transaction, so the game is found, its access checked and its row locked in one read."""

    pk: object
    user: object = None
    captain_token: str | None = None

    def locked(self) -> Game:
        """The game, its row locked; :class:`NotFoundError` for a wrong token or id (or a token
        of another game), :class:`AccessDeniedError` for a user who may not score it."""
        games = games_to_score(lock=True)
        if self.captain_token is None:
            return _organisers_game(games, self.user, self.pk)
        game = _captains_game(games, self.captain_token)
        if str(game.pk) != str(self.pk):
            raise NotFoundError(OTHER_GAME, code=OTHER_GAME_CODE)
        return game
