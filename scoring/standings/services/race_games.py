"""What a season's playoff race is computed from besides its results: the games still to play.

- *games left*: the season's games scheduled or under way that count for its standings (bracket
  games do not: ``counts_for_standings`` is false for them), each with what the race reads of it:
  the two teams, the four seats, its night and its number of hands. A game starting play stays a
  game left; one finishing leaves it (and changes the results, which the results version tells).
- *nights*: in an individual season, its nights not finished yet, with their date and status:
  its projected ranks count the nights still to come and the nights under way. (A team season's
  race reads only its games; their nights' dates, which order them, go with the games.)
- *games digest*: an MD5 of the games left and the nights, in id order. The race stores the
  digest it was computed from (``StandingSnapshot.race_games``); a season whose digest differs
  has had a game added, moved or removed (through a service, the admin or a restore) since, so
  its race is due: the API says it is not current, and the beat's sweep asks for it again.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable

from league.models import Night, Season
from scoring.games.models import Game

GAMES_LEFT_STATUSES = (Game.Status.SCHEDULED, Game.Status.IN_PROGRESS)
_GAME_FIELDS = (
    "season_id",
    "pk",
    "team_a_id",
    "team_b_id",
    "seat_0_id",
    "seat_1_id",
    "seat_2_id",
    "seat_3_id",
    "night_id",
    "night__date",
    "hands_per_game",
)
_NIGHTS_NOT_FINISHED = (Night.Status.PLANNED, Night.Status.CHECK_IN, Night.Status.PLAYING)
_CHUNK = 900
"""Seasons per query, under SQLite's limit of variables in a query."""
EMPTY_DIGEST = hashlib.md5(b"", usedforsecurity=False).hexdigest()
"""The games digest of a season with no game left and no night to come."""


def games_digests(season_ids: Iterable[int] | None = None) -> dict[int, str]:
    """The games digest of each season of ``season_ids``; with ``None``, of every season that
    has a game left or a night to come (any other season's is :data:`EMPTY_DIGEST`). Reads only
    the games left (a partial index holds them) and the nights not finished: what is left to
    play, not the history."""
    games = Game.objects.filter(status__in=GAMES_LEFT_STATUSES, counts_for_standings=True)
    nights = Night.objects.filter(
        status__in=_NIGHTS_NOT_FINISHED, season__format=Season.Format.INDIVIDUAL
    )
    parts: dict[int, list[str]] = defaultdict(list)
    if season_ids is None:
        _read(parts, games, nights)
        ids: list[int] = sorted(parts)
    else:
        ids = sorted(set(season_ids))
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            _read(parts, games.filter(season_id__in=chunk), nights.filter(season_id__in=chunk))
    return {
        season_id: hashlib.md5(
            ";".join(parts[season_id]).encode(), usedforsecurity=False
        ).hexdigest()
        for season_id in ids
    }


def _read(parts: dict[int, list[str]], games, nights) -> None:
    for season_id, *fields in games.order_by("season_id", "pk").values_list(*_GAME_FIELDS):
        parts[season_id].append("g" + ",".join(map(str, fields)))
    rows = nights.order_by("season_id", "pk").values_list("season_id", "pk", "date", "status")
    for season_id, *fields in rows:
        parts[season_id].append("n" + ",".join(map(str, fields)))


def games_digest(season_id: int) -> str:
    """The games digest of one season."""
    return games_digests([season_id])[season_id]
