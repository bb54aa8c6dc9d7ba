"""The audited doors to games: the only ways code gets a game a caller may score.

*Captain-token guesses*: a wrong captain token, from a ``/t/<token>/`` link or an API
``X-Captain-Token`` header, counts against one limit per client address
(``CAPTAIN_TOKEN_GUESSES_PER_MINUTE``, one django-ratelimit group for both doors); past it, every
token from that address is refused (429) until the minute is over.
"""

import functools
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.db.models import OuterRef, QuerySet
from django_ratelimit.core import is_ratelimited

from league.access import client_address, is_organiser_given_role, organiser_role_exists
from league.errors import AccessDeniedError, NotFoundError
from league.models import MAX_ID, LeagueRole, Rulebook, Season
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


@functools.cache
def _door_sql(vendor: str, by: str, lock: bool) -> str:
    """The door's one statement (written once per database and shape, from the models' field
    lists): the game whose ``by`` column is the second ``%s`` (all its columns, so
    ``Game.objects.raw`` gives a whole game), its season's league and rulebook, the rulebook's
    options, and whether the user whose id is the first ``%s`` has a role in its league;
    ``lock``: the game's row locked for the rest of the transaction."""
    name = connection.ops.quote_name
    game, season, rulebook, role = (model._meta for model in (Game, Season, Rulebook, LeagueRole))

    def column(meta, field: str) -> str:
        return name(meta.get_field(field).column)

    columns = ", ".join(f"g.{name(field.column)}" for field in game.concrete_fields)
    sql = (
        f"SELECT {columns}, s.{column(season, 'league')} AS door_league_id, "
        f"s.{column(season, 'rulebook')} AS door_rulebook_id, "
        f"r.{column(rulebook, 'options')} AS door_rulebook_options, "
        f"EXISTS (SELECT 1 FROM {name(role.db_table)} lr "
        f"WHERE lr.{column(role, 'league')} = s.{column(season, 'league')} "
        f"AND lr.{column(role, 'user')} = %s) AS door_has_role "
        f"FROM {name(game.db_table)} g "
        f"JOIN {name(season.db_table)} s ON s.{column(season, 'id')} = g.{column(game, 'season')} "
        f"JOIN {name(rulebook.db_table)} r "
        f"ON r.{column(rulebook, 'id')} = s.{column(season, 'rulebook')} "
        f"WHERE g.{column(game, by)} = %s"
    )
    if lock and connection.features.has_select_for_update_of:
        sql += " FOR UPDATE OF g"
    return sql


def game_to_score(by: str, value, *, user=None, lock: bool = False) -> tuple[Game | None, bool]:
    """The game whose ``by`` is ``value``, with its season and rulebook (the fields a write
    reads: the season's league and rulebook, the rulebook's options), and whether ``user`` has
    a role in its league; ``(None, False)`` for no such game. One statement, made into a game
    by the ORM (``Manager.raw``)."""
    try:
        value = Game._meta.get_field(by).get_prep_value(value)
    except (TypeError, ValueError):
        return None, False
    if isinstance(value, int) and not 0 < value <= MAX_ID:
        return None, False  # no row has it (and SQLite could not even bind it)
    user_id = getattr(user, "pk", None)
    sql = _door_sql(connection.vendor, by, lock)
    game = next(iter(Game.objects.raw(sql, [user_id, value])), None)
    if game is None:
        return None, False
    options, database = Rulebook._meta.get_field("options"), Game.objects.db
    game.season = Season.from_db(
        database,
        ["id", "league_id", "rulebook_id"],
        [game.season_id, game.door_league_id, game.door_rulebook_id],
    )
    game.season.rulebook = Rulebook.from_db(
        database,
        ["id", "options"],
        [
            game.door_rulebook_id,
            options.from_db_value(game.door_rulebook_options, None, connection),
        ],
    )
    return game, bool(game.door_has_role)


def _captains(game: Game | None) -> Game:
    if game is None:
        raise NotFoundError("this score-card link is not valid (it may have been replaced)")
    return game


def _organisers_game(user, pk) -> Game:
    games = _games().filter(pk=pk)
    role = organiser_role_exists(user=user, league_id=OuterRef("season__league_id"))
    if isinstance(role, bool):  # decided without a role row
        game, is_organiser = _one(games), role
    else:
        game = _one(games.annotate(user_is_organiser=role))
        is_organiser = game is not None and game.user_is_organiser
    return _organisers(game, is_organiser)


def _organisers(game: Game | None, is_organiser: bool) -> Game:
    if game is None:
        raise NotFoundError("no such game")
    if not is_organiser:
        raise AccessDeniedError("only an organiser of this league may change its games")
    return game


def game_for_captain(*, token: str, to_score: bool = False) -> Game:
    """The game a captain's link opens; a wrong or revoked token is not found. ``to_score``: read
    only what a write needs (:func:`game_to_score`)."""
    if to_score:
        return _captains(game_to_score("captain_token", token)[0] if token else None)
    return _captains(_one(_games().filter(captain_token=token)) if token else None)


def game_for_organiser(*, user, pk: int, to_score: bool = False) -> Game:
    """The game an organiser of its league may change, read with the answer to whether ``user``
    is one (one query). ``to_score``: read only what a write needs (:func:`game_to_score`)."""
    if to_score:
        game, has_role = game_to_score("id", pk, user=user)
        return _organisers(game, is_organiser_given_role(user=user, has_role=has_role))
    return _organisers_game(user, pk)


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
        if self.captain_token is None:
            game, has_role = game_to_score("id", self.pk, user=self.user, lock=True)
            return _organisers(game, is_organiser_given_role(user=self.user, has_role=has_role))
        game = _captains(game_to_score("captain_token", self.captain_token, lock=True)[0])
        if str(game.pk) != str(self.pk):
            raise NotFoundError(OTHER_GAME, code=OTHER_GAME_CODE)
        return game
