"""The audited doors to games: the only ways code gets a game a caller may score.

*Captain-token guesses*: a captain token, from a ``/t/<token>/`` link or an API
``X-Captain-Token`` header, is looked up first; only a *wrong* one (no game has it) is a guess.
Guesses count against two limits (``CAPTAIN_TOKEN_GUESSES_PER_MINUTE`` each, django-ratelimit
groups shared by both doors): one per client address, and one per token start (its first
:data:`GUESS_PREFIX_LENGTH` characters, from any address: someone who saw the start of a table's
link and tries endings from many addresses). Past either, a wrong token is answered 429 with
``Retry-After`` instead of 404 (:func:`captain_guess_refused`).

A valid token is never counted and never refused: one phone's typos on a bar's Wi-Fi must not
lock out the captains behind the same address. What a guesser learns is no more than a 404 says:
the 429 is the same answer whichever limit gave it, and valid tokens leave the counts alone, so
the counts cannot tell anyone that a right token was sent from their address or with their start.
A refusal is no defence of the token itself, which is 128 random bits (``new_captain_token``);
the limits keep a guesser's traffic a stream of cheap refusals.
"""

import functools
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.db.models import OuterRef, QuerySet
from django_ratelimit.core import get_usage

from core.errors import AccessDeniedError, NotFoundError
from league.access import (
    client_address,
    is_organiser_given_role,
    organiser_role_exists,
    retry_after,
)
from league.models import MAX_ID, LeagueRole, Rulebook, Season
from scoring.games.models import Game


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
"""The django-ratelimit group of wrong captain tokens per client address."""
CAPTAIN_GUESS_PREFIX_GROUP = "captain-token-guess-prefix"
"""The django-ratelimit group of wrong captain tokens per token start, from any address."""
GUESS_PREFIX_LENGTH = 8
"""How many of a token's first characters make its start: 48 of a token's 128 bits, so two
tables' tokens (or a random guess and a table's token) share one about once in 2^48 draws."""


def _guess_rate(group: str, request) -> str:
    return settings.CAPTAIN_TOKEN_GUESSES_PER_MINUTE


def _token_start(token: str):
    def key(group: str, request) -> str:
        return token[:GUESS_PREFIX_LENGTH]

    return key


def captain_guess_refused(request, *, token: str) -> int | None:
    """Count ``token``, a captain token no game has, as one more wrong guess from this client
    address and with this start; the seconds to wait (``Retry-After``) if either count is now over
    the limit (the answer is then 429, not 404), else ``None``. Call it only once the door found no
    game for ``token``."""
    waits = []
    for group, key in (
        (CAPTAIN_GUESS_GROUP, client_address),
        (CAPTAIN_GUESS_PREFIX_GROUP, _token_start(token)),
    ):
        usage = get_usage(request, group=group, key=key, rate=_guess_rate, increment=True)
        if usage is not None and usage["should_limit"]:
            waits.append(retry_after(usage))
    return max(waits, default=None)


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
