"""The public pages as a player reads them on a phone (issue 31, item 7), through the test client:
every player of an individual season listed (those whose first game is still being played, and
those checked in with no game yet, unranked at the bottom), the league home's title, the compact
standings row with its full reason behind a tap, the player page's upcoming games apart."""

import datetime
import re
from html import unescape

import pytest

from league.models import Attendance, League, Night, Player, Season
from scoring.games import services
from scoring.games.models import Game
from scoring.standings.services.recompute import season_standings_recompute
from tests.factories import GameFactory, NightFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.fixture
def twelve():
    """An individual season of twelve players: table 1 (players 1–4) finished 10–4, table 2
    (5–8) is being played (one hand in), table 3 (9–12) is seated but not started; player 13
    is checked in for the night and plays in none; player 14 is on the roster only."""
    league = League.objects.create(name="Thursday at the Crown", slug="crown")
    season = SeasonFactory(
        league=league,
        name="Winter",
        format=Season.Format.INDIVIDUAL,
        rulebook__slug="standard",
        starts_on=datetime.date(2026, 1, 1),
    )
    players = {n: Player.objects.create(league=league, name=f"Player {n:02}") for n in range(1, 15)}
    night = NightFactory(season=season, date=datetime.date(2026, 1, 8), status="playing")
    games = []
    for table, first in enumerate((1, 5, 9), start=1):
        games.append(
            GameFactory(
                season=season,
                night=night,
                round_number=1,
                table_number=table,
                **{f"seat_{seat}": players[first + seat] for seat in range(4)},
            )
        )
    services.game_record_final_score(game=games[0], score_a=10, score_b=4)
    services.hand_record(game=games[1], data=services.HandInput(makers="A", tricks_won=3))
    for n in range(1, 14):
        Attendance.objects.create(night=night, player=players[n])
    season_standings_recompute(season_id=season.pk)
    return {"season": season, "players": players, "night": night, "games": games}


def standings_names(client, season) -> list[str]:
    body = client.get(f"/l/crown/s/{season.pk}/").content.decode()
    return re.findall(r'<td class="who"><a href="[^"]+">([^<]+)</a>', body)


def test_every_player_of_the_night_is_listed_not_only_those_with_a_finished_game(client, twelve):
    names = standings_names(client, twelve["season"])
    assert sorted(names[:2]) == ["Player 01", "Player 03"]  # the one finished game's winners
    assert sorted(names) == [f"Player {n:02}" for n in range(1, 14)]  # 14 never came


def test_a_player_checked_in_later_is_listed_at_the_next_recompute(client, twelve):
    season, night = twelve["season"], twelve["night"]
    Attendance.objects.create(night=night, player=twelve["players"][14])
    season_standings_recompute(season_id=season.pk, force=True)
    assert "Player 14" in standings_names(client, season)


def test_an_archived_night_s_check_ins_are_not_listed(client, twelve):
    season = twelve["season"]
    other = Night.objects.create(season=season, date=datetime.date(2026, 1, 15))
    Attendance.objects.create(night=other, player=twelve["players"][14])
    Night.objects.filter(pk=other.pk).update(archived_at=datetime.datetime.now(datetime.UTC))
    season_standings_recompute(season_id=season.pk, force=True)
    assert "Player 14" not in standings_names(client, season)


def test_the_league_home_title_is_text(client, twelve):
    body = client.get("/l/crown/").content.decode()
    (title,) = re.findall(r"<title>(.*?)</title>", body, re.S)
    assert title.strip() == "Thursday at the Crown · Euchre league"
    # The players' list is on the page itself, once.
    assert body.count('<h2 id="players">Players</h2>') == 1
    assert 'href="/l/crown/players/' in body.split('<h2 id="players">')[1]


def test_the_standings_row_says_why_in_a_few_words_and_the_rest_behind_a_tap(client, twelve):
    body = client.get(f"/l/crown/s/{twelve['season'].pk}/").content.decode()
    # The two winners are level on everything: a recorded coin flip orders them.
    top, second = standings_names(client, twelve["season"])[:2]
    first = body.split("<tr data-entrant")[1]
    # The short reason is the <summary> of a <details> holding the full sentence.
    summary, full = re.search(
        r'<details class="reason"[^>]*><summary>(.*?)</summary><p>(.*?)</p></details>', first
    ).groups()
    assert summary == f"level with {second}: a coin flip"
    assert unescape(full) == (
        f"{min(top, second)} and {max(top, second)} have not played each other; level with "
        f"{second} on everything; ahead by a recorded coin flip (seed 0)."
    )
    # The unranked rows say why, in words too.
    waiting = next(row for row in body.split("<tr data-entrant")[1:] if "Player 13" in row)
    assert "not ranked yet: no game finished" in text(waiting)


def test_the_player_page_shows_games_to_come_apart_with_their_dates(client, twelve):
    player = twelve["players"][9]  # seated at table 3, not started
    body = client.get(f"/l/crown/players/{player.pk}/").content.decode()
    recent, upcoming = body.split('<h2 id="upcoming">Coming up</h2>')
    assert "0–0" not in text(recent.split("Recent games", 1)[1])
    assert "No game played yet." in recent
    assert text(upcoming).startswith(
        "Thu Jan 8 · Round 1 · Table 3 Player 09 & Player 11 v Player 10 & Player 12"
    )
    assert '<time datetime="2026-01-08">' in upcoming
    played = twelve["players"][5]  # at table 2, being played: recent, not upcoming
    body = client.get(f"/l/crown/players/{played.pk}/").content.decode()
    assert "Coming up" not in body
    assert "in progress · hand 2" in text(body)


def test_the_players_of_a_finished_game_that_does_not_count_are_listed(client, twelve):
    """A finished game that does not count for the standings (a bracket's, say) ranks nobody,
    but its players are of the season: listed, unranked, like those seated in a game not yet
    finished (the recompute gathers seats only from the games that are not finished and
    counting, whose players are ranked already)."""
    season, night = twelve["season"], twelve["night"]
    league = season.league
    extra = [Player.objects.create(league=league, name=f"Player {n:02}") for n in range(15, 19)]
    game = GameFactory(
        season=season,
        night=night,
        counts_for_standings=False,
        **{f"seat_{seat}": extra[seat] for seat in range(4)},
    )
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        score_a=10,
        score_b=2,
        winner="A",
        finished_at=datetime.datetime.now(datetime.UTC),
    )
    season_standings_recompute(season_id=season.pk, force=True)
    names = standings_names(client, season)
    assert {f"Player {n:02}" for n in range(15, 19)} <= set(names)
    assert sorted(names[:2]) == ["Player 01", "Player 03"]  # still the only ranked winners
