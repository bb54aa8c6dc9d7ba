"""The shares' statements (``scoring.standings.services.shares``: plain SQL named through the
models' ``_meta``) against references written the plain way, on the database the suite runs on
(SQLite, then PostgreSQL).

- *share rows*: ``shares_replace`` stores, per ranked game, what the test adds up hand by hand
  in Python from the ORM's rows: the games a plain ORM filter calls ranked (finished, counting,
  not of an archived night, between two teams in a team season), their counted hands (current,
  not misdealt, not thrown in), the maker counts summed per makers' side and the caller counts
  per caller's seat. Games that stop being ranked lose their share.
- *seat sums*: ``shares_counted`` adds the stored shares up per player and seat and per team and
  side as the domain adds the same shares up one by one (``Counted.of_shares``), for every game
  and for a few.
"""

from __future__ import annotations

import random

import pytest
from django.db.models import Q
from django.utils import timezone

from league.models import Season
from scoring.games.hand_counts import CALLER_COLUMNS, MAKER_COLUMNS
from scoring.games.models import Game, Hand
from scoring.standings.domain.season_totals import Counted
from scoring.standings.models import StandingGame
from scoring.standings.services.shares import (
    share_of,
    shares_counted,
    shares_in_played_order,
    shares_replace,
)
from tests.factories import GameFactory, NightFactory, TeamFactory, team_game
from tests.integration.test_hand_counts import GRID, hand_of

pytestmark = pytest.mark.django_db

_RESULT = ("seat_0_id", "seat_1_id", "seat_2_id", "seat_3_id", "team_a_id", "team_b_id")
_SCORE = ("score_a", "score_b", "winner", "night_id", "finished_at")


def reference_ranked(season: Season):
    """The season's ranked games, as a plain ORM filter says it."""
    games = Game.objects.filter(
        Q(night__isnull=True) | Q(night__archived_at__isnull=True),
        season=season,
        status=Game.Status.FINISHED,
        counts_for_standings=True,
    )
    if season.format == Season.Format.TEAMS:
        games = games.filter(team_a__isnull=False, team_b__isnull=False)
    return games


def reference_shares(season: Season) -> dict[int, tuple]:
    """Per ranked game, its share's columns added up in Python from its hands' rows."""
    expected = {}
    for game in reference_ranked(season):
        hands = Hand.objects.filter(
            game=game, status=Hand.Status.ACTIVE, misdeal=False, thrown_in=False
        ).values_list("number", "makers", "caller_id", *MAKER_COLUMNS, *CALLER_COLUMNS)
        numbers = [hand[0] for hand in hands]
        sides = {side: [0] * len(MAKER_COLUMNS) for side in "AB"}
        calls = [[0] * len(CALLER_COLUMNS) for _seat in range(4)]
        for _number, makers, caller_id, *packs in hands:
            if makers in sides:
                for index in range(len(MAKER_COLUMNS)):
                    sides[makers][index] += packs[index]
            for seat, player in enumerate(game.seat_player_ids):
                if caller_id == player:
                    for index in range(len(CALLER_COLUMNS)):
                        calls[seat][index] += packs[len(MAKER_COLUMNS) + index]
        expected[game.pk] = (
            *(getattr(game, name) for name in (*_RESULT, *_SCORE)),
            min(numbers) if numbers else None,
            *sides["A"],
            *sides["B"],
            *(count for seat in calls for count in seat),
        )
    return expected


def stored_shares(season: Season) -> dict[int, tuple]:
    sums = ("first_number", *(f"{x}{n}" for x in "ab" for n in range(4)))
    sums += tuple(f"c{n}" for n in range(8))
    rows = StandingGame.objects.filter(season=season).values_list(
        "game_id", *_RESULT, *_SCORE, *sums
    )
    return {row[0]: row[1:] for row in rows}


def played(game: Game, chance: random.Random, hands: int) -> Game:
    """``game`` finished after ``hands`` hands drawn from the grid (and a few that count for
    nothing: misdealt, thrown in, corrected)."""
    facts = chance.sample(GRID, hands)
    rows = [hand_of(game, number, fact) for number, fact in enumerate(facts, start=1)]
    rows.append(hand_of(game, hands + 1, facts[0], misdeal=True))
    rows.append(hand_of(game, hands + 2, facts[1], thrown_in=True))
    rows.append(
        hand_of(
            game,
            hands + 3,
            facts[2],
            status=Hand.Status.SUPERSEDED,
            change_reason="corrected",
        )
    )
    Hand.objects.bulk_create(rows)
    score_a, score_b = chance.randint(0, 10), chance.randint(0, 10)
    game.status = Game.Status.FINISHED
    game.score_a, game.score_b = score_a, score_b
    game.winner = "A" if score_a > score_b else "B" if score_b > score_a else ""
    game.finished_at = timezone.now()
    game.save()
    return game


def assert_counted(season: Season, game_ids: list[int] | None) -> None:
    """The database's seat sums of the stored shares (of ``game_ids``) are the domain's."""
    is_teams = season.format == Season.Format.TEAMS
    shares = [
        share_of(row, is_teams=is_teams)
        for row in shares_in_played_order(season)
        if game_ids is None or row[0] in game_ids
    ]
    counted, expected = shares_counted(season, game_ids), Counted.of_shares(shares)
    assert per_entrant(counted.players) == per_entrant(expected.players)
    assert per_entrant(counted.teams) == per_entrant(expected.teams)
    # (an individual season's meetings may name the teams of games between teams: not read)
    keep = range(11) if is_teams else (0, 1, 2, 3, 4, 7, 8, 9, 10)
    assert [[meeting[index] for index in keep] for meeting in counted.meetings] == [
        [meeting[index] for index in keep] for meeting in expected.meetings
    ]


def per_entrant(sums) -> dict[int, tuple]:
    """Seat sums added up per player (or team), field by field, as the running totals add them
    (the database gives one row per player and seat, the domain one per share and seat)."""
    added: dict[int, list[int]] = {}
    for row in sums:
        fields = [*row[1:7], *row.side, *row.calls]
        total = added.setdefault(row.who, [0] * len(fields))
        for index, value in enumerate(fields):
            total[index] += value
    return {who: tuple(total) for who, total in added.items()}


@pytest.mark.parametrize("format", [Season.Format.TEAMS, Season.Format.INDIVIDUAL])
def test_the_shares_statements_count_what_the_plain_references_count(make_season, format):
    chance = random.Random(30)
    season = make_season("standard", format=format)
    teams = [TeamFactory(season=season) for _ in range(4)]
    nights = [NightFactory(season=season) for _ in range(2)]
    games = [
        played(team_game(season, teams[n % 4], teams[(n + 1) % 4], nights[n % 2]), chance, 9)
        for n in range(6)
    ]
    games.append(played(team_game(season, teams[0], teams[2]), chance, 7))  # no night
    games.append(team_game(season, teams[1], teams[3]))  # not finished: no share
    friendly = played(GameFactory(season=season, night=nights[0]), chance, 8)  # no teams
    uncounted = played(team_game(season, teams[2], teams[3], nights[1]), chance, 8)
    Game.objects.filter(pk=uncounted.pk).update(counts_for_standings=False)
    empty = team_game(season, teams[0], teams[1], nights[1])  # finished with no hand
    Game.objects.filter(pk=empty.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())

    shares_replace(season, None)
    expected = reference_shares(season)
    assert stored_shares(season) == expected
    assert (friendly.pk in expected) == (format == Season.Format.INDIVIDUAL)
    assert uncounted.pk not in expected and games[-1].pk not in expected
    assert expected[empty.pk][len(_RESULT) + len(_SCORE)] is None  # no first hand
    assert_counted(season, None)
    assert_counted(season, [games[0].pk, games[3].pk, friendly.pk])

    # Games leave the ranking (the second night archived, which logs a change for each of its
    # games; a game called off): their shares go; a game corrected is counted again; the
    # others are left as they were.
    nights[1].archived_at = timezone.now()
    nights[1].save()
    Game.objects.filter(pk=games[0].pk).update(status=Game.Status.VOIDED, winner="")
    Hand.objects.filter(game=games[2], number=1).update(
        status=Hand.Status.VOIDED, change_reason="undone"
    )
    of_night = [game.pk for game in (*games[:6], empty) if game.night_id == nights[1].pk]
    changed = sorted({games[0].pk, games[2].pk, *of_night})
    old, new = shares_replace(season, changed)
    expected = reference_shares(season)
    assert stored_shares(season) == expected
    assert not {games[0].pk, *of_night} & expected.keys()
    assert {games[2].pk, games[4].pk, games[6].pk} <= expected.keys()
    assert {meeting[0] for meeting in old.meetings} == set(changed)
    assert {meeting[0] for meeting in new.meetings} == {games[2].pk}
    assert_counted(season, None)
    assert_counted(season, [games[2].pk, games[4].pk])
