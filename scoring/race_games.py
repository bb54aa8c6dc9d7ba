"""What a season's playoff race is computed from besides its results: the games still to play.

- *games left*: the season's games scheduled or under way that count for its standings (bracket
  games do not: ``counts_for_standings`` is false for them), each with what the race reads of it:
  the two teams, the four seats, its night and its number of hands. A game starting play stays a
  game left; one finishing leaves it (and changes the results, which the results version tells).
- *nights*: the season's nights with their date (the race weighs the nearest games first) and,
  in an individual season, their status: its projected ranks count the nights still to come and
  the nights under way (a team season's race reads only its games, so a night starting or ending
  there does not make it due).
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
from scoring.models import Game

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
    "hands_per_game",
)
_NIGHT_FIELDS = ("season_id", "pk", "date", "season__format", "status")
_CHUNK = 900
"""Seasons per query, under SQLite's limit of variables in a query."""


def games_digests(season_ids: Iterable[int]) -> dict[int, str]:
    """The games digest of each season of ``season_ids`` (see the module docstring)."""
    ids = sorted(set(season_ids))
    parts: dict[int, list[str]] = defaultdict(list)
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        games = (
            Game.objects.filter(
                season_id__in=chunk, status__in=GAMES_LEFT_STATUSES, counts_for_standings=True
            )
            .order_by("season_id", "pk")
            .values_list(*_GAME_FIELDS)
        )
        for season_id, *fields in games:
            parts[season_id].append("g" + ",".join(map(str, fields)))
        nights = (
            Night.objects.filter(season_id__in=chunk)
            .order_by("season_id", "pk")
            .values_list(*_NIGHT_FIELDS)
        )
        for season_id, pk, date, season_format, status in nights:
            shown = status if season_format == Season.Format.INDIVIDUAL else ""
            parts[season_id].append(f"n{pk},{date},{shown}")
    return {
        season_id: hashlib.md5(
            ";".join(parts[season_id]).encode(), usedforsecurity=False
        ).hexdigest()
        for season_id in ids
    }


def games_digest(season_id: int) -> str:
    """The games digest of one season."""
    return games_digests([season_id])[season_id]
