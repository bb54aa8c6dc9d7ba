"""The audited doors to games: the only ways code gets a game a caller may score.

*Captain-token guesses*: a wrong captain token, from a ``/t/<token>/`` link or an API
``X-Captain-Token`` header, counts against one limit per client address
(``CAPTAIN_TOKEN_GUESSES_PER_MINUTE``, one django-ratelimit group for both doors); past it, every
token from that address is refused (429) until the minute is over.
"""

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import OuterRef, QuerySet
from django_ratelimit.core import is_ratelimited

from league.access import (
    client_address,
    is_organiser_given_role,
    organiser_role_exists,
    organiser_role_sql,
    role_row_sql,
)
from league.api.authentication import token_sql, token_width
from league.errors import AccessDeniedError, NotFoundError
from league.models import Rulebook, Season
from league.rows import col, columns, fetch_one_checking, per_backend, q, statement, table
from scoring.models import Game


def _games() -> QuerySet[Game]:
    """Games with what a page of one shows (season, league, teams, players). A door ``to_score``
    reads only what a write needs, the season and its rulebook (``_door_sql``): PostgreSQL plans
    a join of nine tables in milliseconds, longer than it takes to run, and a hand's write needs
    none of the names."""
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


@per_backend
def _door_columns():
    return (
        columns(Game, "g"),
        columns(Season, "s", ("id", "league", "rulebook")),
        columns(Rulebook, "r", ("id", "options")),
    )


@statement
def _door_sql(by: str, role: str) -> str:
    """The game whose ``by`` column is ``%s``, with its season and rulebook as a write needs
    them, in plain SQL written once; with ``role`` (``league.access.organiser_role_sql`` on the
    season's league, taking the user's id), first, whether the user is an organiser."""
    games, seasons, rulebooks = _door_columns()
    return (
        f"SELECT {role + ', ' if role else ''}{games.sql}, {seasons.sql}, {rulebooks.sql} "
        f"FROM {table(Game)} g "
        f"{_door_joins('INNER JOIN')} WHERE g.{col(Game, by)} = %s"
    )


def _door_joins(join: str) -> str:
    """The door's game ``g``, season ``s`` and rulebook ``r``, each joined with ``join``."""
    return (
        f"{join} {table(Season)} s ON g.{col(Game, 'season')} = s.{col(Season, 'id')} "
        f"{join} {table(Rulebook)} r ON s.{col(Season, 'rulebook')} = r.{col(Rulebook, 'id')}"
    )


def _built_door(values):
    """The game (with its season and rulebook) of a door's columns in a row."""
    games, seasons, rulebooks = _door_columns()
    middle = len(games)
    game = games.build(values[:middle])
    season = seasons.build(values[middle : middle + len(seasons)])
    season._state.fields_cache["rulebook"] = rulebooks.build(values[middle + len(seasons) :])
    game._state.fields_cache["season"] = season
    return game


def _game_to_score(by: str, value, *, role: str = "", user_id: int | None = None):
    """The game whose ``by`` is ``value``, with its season and rulebook (``_door_sql``), and,
    with ``role``, whether the user ``user_id`` is an organiser of its league; ``(None, False)``
    when there is no such game."""
    value = Game._meta.get_field(by).get_prep_value(value)
    row = fetch_one_checking(_door_sql(by, role), [user_id, value] if role else [value])
    if row is None:
        return None, False
    return _built_door(row[1:] if role else row), bool(row[0]) if role else False


USER_FIELDS = ("id", "is_active", "is_superuser")
"""What the plain hand POST reads of its token's user (``user_and_game_to_score``): who it is,
whether it may sign in, whether its being an organiser depends on a role row."""


@per_backend
def _user_columns():
    return columns(get_user_model(), "u", USER_FIELDS)


@statement
def _token_door_sql(users_only: bool = False) -> str:
    """The token's statement (``league.api.authentication.token_sql``) with, for the game whose
    id is the first ``%s``, whether the token's user has a role in its league and the door's
    columns (``_door_sql``), all NULL when there is no such game. ``users_only``: of the token
    and its user, only the user's :data:`USER_FIELDS`."""
    select, joined, where = token_sql()
    if users_only:
        select = _user_columns().sql
    games, seasons, rulebooks = _door_columns()
    user_id = get_user_model()._meta.pk
    role = role_row_sql(
        user_column=f"u.{q(user_id.column)}", league_column=f"s.{col(Season, 'league')}"
    )
    return (
        f"SELECT {select}, {role}, {games.sql}, {seasons.sql}, {rulebooks.sql} "
        f"FROM {joined} LEFT JOIN {table(Game)} g ON g.{col(Game, 'id')} = %s "
        f"{_door_joins('LEFT JOIN')} WHERE {where}"
    )


@dataclass(frozen=True)
class TokenDoor:
    """What a hand POST by an organiser's token read with the token: the game to score (``None``
    when there is none) and whether the token's user has a role in its league."""

    key: str
    game_id: object
    game: Game | None
    has_role: bool


def token_and_game_to_score(key: str, pk):
    """The token ``key``'s values (``league.api.authentication.token_width``; ``None`` for no such
    token) and the :class:`TokenDoor` to game ``pk``, in one statement; ``NotImplemented`` when
    ``pk`` is no game id (the usual reads answer it)."""
    return _door_read(key, pk, users_only=False)


def user_and_game_to_score(key: str, pk):
    """:func:`token_and_game_to_score`, with the token's user alone, its :data:`USER_FIELDS`
    read (the others deferred, as with ``only()``; ``None`` for no such token), in place of the
    token's values: the plain hand POST's door (``scoring.api.fast_hands``), which needs no more
    of either and so parses no password, name or sign-in times."""
    read = _door_read(key, pk, users_only=True)
    if read is NotImplemented or read[0] is None:
        return read
    values, door = read
    return _user_columns().build(values), door


def _door_read(key: str, pk, *, users_only: bool):
    """``(the row's token or user values, TokenDoor)`` of ``_token_door_sql(users_only)``."""
    try:
        value = Game._meta.pk.get_prep_value(pk)
    except (TypeError, ValueError):
        return NotImplemented
    row = fetch_one_checking(_token_door_sql(users_only), [value, key])
    if row is None:
        return None, None
    width = len(_user_columns()) if users_only else token_width()
    values, has_role, door = row[:width], row[width], row[width + 1 :]
    game = None if door[0] is None else _built_door(door)
    return values, TokenDoor(key, pk, game, bool(has_role))


def game_for_captain(*, token: str, to_score: bool = False) -> Game:
    """The game a captain's link opens; a wrong or revoked token is not found. ``to_score``: read
    only what a write needs (see ``_door_sql``)."""
    if not token:
        raise NotFoundError("this score-card link is not valid")
    if to_score:
        game, _ = _game_to_score("captain_token", token)
    else:
        game = _one(_games().filter(captain_token=token))
    if game is None:
        raise NotFoundError("this score-card link is not valid (it may have been replaced)")
    return game


def game_for_organiser(
    *, user, pk: int, to_score: bool = False, read: TokenDoor | None = None
) -> Game:
    """The game an organiser of its league may change, read with the answer to whether ``user``
    is one (one query). ``to_score``: read only what a write needs (see ``_door_sql``); ``read``:
    what was read for it with the token ``user`` signed in by (:func:`token_and_game_to_score`),
    so nothing more is read."""
    if read is not None:
        game, is_organiser = read.game, is_organiser_given_role(user=user, has_role=read.has_role)
    elif to_score:
        role = organiser_role_sql(user=user, league_column=f"s.{col(Season, 'league')}")
        if isinstance(role, bool):  # decided without a role row
            (game, _), is_organiser = _game_to_score("id", pk), role
        else:
            game, is_organiser = _game_to_score("id", pk, role=role, user_id=user.pk)
    else:
        role = organiser_role_exists(user=user, league_id=OuterRef("season__league_id"))
        games = _games().filter(pk=pk)
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
