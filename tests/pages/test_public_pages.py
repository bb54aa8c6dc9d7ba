"""The public pages through Django's test client: a known team season (three teams, two nights, one
game still being played) rendered with exact standings, reasons, rules, stats and chart; live
polling only while something can change; the cache keyed on the results; 404s for whatever is not
in the league."""

import datetime
import re
from html import unescape

import pytest
from django.utils import timezone

from league.models import League, Night, Player, Season, Team
from scoring.games import services
from scoring.games.models import Game
from scoring.standings.services.recompute import season_standings_recompute
from tests.factories import LeagueFactory, SeasonFactory, team_game

pytestmark = pytest.mark.django_db

LONE_MARCH = {"caller_alone": True, "tricks_won": 5}
MARCH = {"tricks_won": 5}


def hand(game, side, **facts):
    return services.hand_record(game=game, data=services.HandInput(makers=side, **facts))


@pytest.fixture
def known():
    """Rosie's Fall season: Aces beat Bowers 12–0 on Sep 8; Clubs beat Bowers 10–0 on Sep 15;
    Aces v Clubs is being played (4–0 after one hand). Standard rules (game to 10)."""
    league = LeagueFactory(name="Tuesday at Rosie's", slug="rosies")
    season = SeasonFactory(
        league=league, name="Fall", rulebook__slug="standard", starts_on=datetime.date(2026, 9, 1)
    )
    names = {"Aces": ("Ann", "Al"), "Bowers": ("Bea", "Bo"), "Clubs": ("Cy", "Cat")}
    teams = {}
    for name, (one, two) in names.items():
        teams[name] = Team.objects.create(
            season=season,
            name=name,
            player_one=Player.objects.create(league=league, name=one),
            player_two=Player.objects.create(league=league, name=two),
        )
    first = Night.objects.create(
        season=season, date=datetime.date(2026, 9, 8), venue="Rosie's", status="finished"
    )
    second = Night.objects.create(
        season=season, date=datetime.date(2026, 9, 15), venue="Rosie's", status="playing"
    )
    opener = team_game(season, teams["Aces"], teams["Bowers"], first)
    for _ in range(3):
        hand(opener, "A", caller_id=teams["Aces"].player_one_id, **LONE_MARCH)
    second_game = team_game(season, teams["Bowers"], teams["Clubs"], second)
    hand(second_game, "B", caller_id=teams["Clubs"].player_one_id, **LONE_MARCH)
    hand(second_game, "B", caller_id=teams["Clubs"].player_two_id, **LONE_MARCH)
    hand(second_game, "B", caller_id=teams["Clubs"].player_one_id, **MARCH)
    playing = team_game(season, teams["Aces"], teams["Clubs"], second)
    hand(playing, "A", caller_id=teams["Aces"].player_two_id, **LONE_MARCH)
    season_standings_recompute(season_id=season.pk)
    season.refresh_from_db()
    return {
        "league": league,
        "season": season,
        "teams": teams,
        "nights": (first, second),
        "games": (opener, second_game, playing),
        "base": f"/l/rosies/s/{season.pk}/",
    }


def text(html: str) -> str:
    """The page's words: tags dropped, whitespace squeezed."""
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip())


def standing_rows(html: str) -> list[str]:
    return [text(row) for row in re.findall(r"<tr data-entrant[^>]*>(.*?)</tr>", html, re.S)]


def test_league_list_and_home(client, known):
    LeagueFactory(name="Another league", slug="another")
    body = client.get("/").content.decode()
    assert text(re.search(r"<ul class=\"cards\">(.*?)</ul>", body, re.S).group(1)) == (
        "Another league 0 seasons Tuesday at Rosie's 1 season"
    )
    home = client.get("/l/rosies/").content.decode()
    assert f'href="{known["base"]}"' in home
    assert "Fall Teams · from Sep 1, 2026" in text(home)
    assert "Tue Sep 15, 2026 Fall · Rosie's · Playing" in text(home)
    assert "Tue Sep 8, 2026 Fall · Rosie's · Finished" in text(home)

    # Nights to come are listed apart, soonest first, not above tonight as "recent".
    today = timezone.localdate()
    for weeks in (3, 1, 2, 4):
        Night.objects.create(season=known["season"], date=today + datetime.timedelta(weeks=weeks))
    words = text(client.get("/l/rosies/").content.decode())
    coming = words[words.index("Coming up") : words.index("Recent nights")]
    assert [f"{today + datetime.timedelta(weeks=w):%a %b %-d, %Y} Fall" for w in (1, 2, 3)] == [
        line.strip() for line in re.findall(r"\w{3} \w{3} \d+, \d{4} Fall", coming)
    ]
    recent = words[words.index("Recent nights") :]
    assert recent.index("Tue Sep 15, 2026") < recent.index("Tue Sep 8, 2026")
    for weeks in (1, 2, 3, 4):
        assert f"{today + datetime.timedelta(weeks=weeks):%a %b %-d, %Y}" not in recent
    season_page = client.get(known["base"]).content.decode()
    feed = f'<a href="/seasons/{known["season"].pk}/nights.ics">'
    assert feed + "Add these nights to your calendar</a>" in season_page


def test_standings_rank_explain_and_poll_while_a_game_is_in_progress(client, known):
    response = client.get(known["base"])
    assert response.status_code == 200
    assert response["Vary"] == "HX-Request"
    body = response.content.decode()
    assert standing_rows(body) == [
        # The reason in a few words, then the full sentence (behind a tap: <details>).
        "1 Aces bigger margin than Clubs Aces and Clubs have not played each other; ahead of "
        "Clubs on point difference (+12 to +10). 1–0 100% 12 +12",
        "2 Clubs smaller margin than Aces Aces and Clubs have not played each other; behind "
        "Aces on point difference (+10 to +12). 1–0 100% 10 +10",
        "3 Bowers won less often than Clubs Behind Clubs on win percentage (0.000 to 1.000). "
        "0–2 0% 0 -22",
    ]
    assert 'hx-get="{}" hx-trigger="every 5s" hx-swap="outerHTML"'.format(known["base"]) in body
    assert "Playing now" in body
    assert "Aces 4–0 Clubs in progress · hand 2" in text(body)
    assert "Ranked by win percentage, then head-to-head, then point difference, then points " in (
        body
    )
    assert "for, then a coin flip (seed 0)." in body
    assert "<li>Every night counts.</li><li>A bye is worth nothing.</li>" in (body)
    assert "New results are being counted" not in body
    team = known["teams"]["Aces"]
    assert f'<a href="/l/rosies/s/{known["season"].pk}/teams/{team.pk}/">Aces</a>' in body


def test_the_polled_partial_is_the_standings_alone(client, known):
    response = client.get(known["base"], HTTP_HX_REQUEST="true")
    assert response["Vary"] == "HX-Request"
    body = response.content.decode()
    assert body.startswith('<div id="standings" class="standings" hx-get=')
    assert "<html" not in body and "How the standings work" not in body
    assert len(standing_rows(body)) == 3


def test_polling_stops_when_nothing_can_change_and_says_when_results_are_pending(client, known):
    playing = known["games"][2]
    hand(playing, "A", caller_id=playing.seat_0_id, **LONE_MARCH)
    hand(playing, "A", caller_id=playing.seat_0_id, **MARCH)  # 10–0: the game is over
    pending = client.get(known["base"]).content.decode()
    assert "New results are being counted…" in pending
    assert 'hx-trigger="every 5s"' in pending  # still waiting for the recompute
    assert standing_rows(pending)[0].startswith("1 Aces")
    assert "1–0" in standing_rows(pending)[0]  # the old snapshot until the new one lands

    season_standings_recompute(season_id=known["season"].pk)
    final = client.get(known["base"]).content.decode()
    assert "hx-trigger" not in final and "hx-get" not in final
    assert "New results are being counted" not in final and "Playing now" not in final
    assert standing_rows(final)[:2] == [
        "1 Aces won more often than Clubs Ahead of Clubs on win percentage (1.000 to 0.500). "
        "2–0 100% 22 +22",
        "2 Clubs won less often than Aces Behind Aces on win percentage (0.500 to 1.000). "
        "1–1 50% 10 0",
    ]


def test_the_season_chart_draws_a_path_per_entrant(client, known):
    body = client.get(known["base"]).content.decode()
    svg = re.search(r"<svg .*?</svg>", body, re.S).group(0)
    paths = re.findall(r'<path class="series" data-entrant="(\d+)" d="([^"]+)"', svg)
    teams = known["teams"]
    assert [int(entrant) for entrant, _d in paths] == [
        teams["Aces"].pk,
        teams["Clubs"].pk,
        teams["Bowers"].pk,
    ]
    # wins after each night, on a 0–1 scale: start, Sep 8, Sep 15
    assert [d for _entrant, d in paths] == [
        "M48 273 L337 11 L626 11",  # nudged 3 up, so equal totals stay visible
        "M48 276 L337 276 L626 14",
        "M48 279 L337 279 L626 279",  # nudged 3 down
    ]
    assert ">Sep 8</text>" in svg and ">Sep 15</text>" in svg
    assert 'aria-label="Running total of wins after each night: Aces 1, Clubs 1, Bowers 0."' in svg


def test_pages_are_cached_on_the_results_version(client, known, django_assert_max_num_queries):
    client.get(known["base"])
    with django_assert_max_num_queries(3):  # league, season, versions: the page comes from cache
        again = client.get(known["base"])
    assert "Aces 4–0 Clubs" in text(again.content.decode())
    hand(known["games"][2], "B", caller_id=known["games"][2].seat_1_id, **MARCH)
    assert "Aces 4–2 Clubs" in text(client.get(known["base"]).content.decode())


def test_rules_page_data_follow_the_seasons_chosen_rules(client, known):
    season = known["season"]
    season.standing_rules = {
        "tiebreaks": ["wins", "buchholz", "marches"],
        "count_best_nights": 3,
        "min_games": 2,
    }
    season.save()
    season_standings_recompute(season_id=season.pk, force=True)
    body = client.get(known["base"]).content.decode()
    assert (
        '<p class="chain">Ranked by wins, then opponents&#x27; strength, then marches, then a '
        "coin flip (seed 0).</p>"
    ) in body
    assert (
        "<li>Only each entrant&#x27;s best 3 nights count (best by wins, then points).</li>"
        "<li>At least 2 games to be ranked.</li>"
    ) in body
    rows = standing_rows(body)
    assert rows[0] == "1 Bowers the only ranked entrant 0–2 0% 0 -22"
    assert sorted(rows[1:]) == [  # unranked, level on wins: their order is the coin flip's
        "– Aces not ranked yet: 1 of 2 games 1–0 100% 12 +12",
        "– Clubs not ranked yet: 1 of 2 games 1–0 100% 10 +10",
    ]


def test_night_results(client, known):
    _first, second = known["nights"]
    body = client.get(f"{known['base']}nights/{second.pk}/").content.decode()
    assert "Tuesday, September 15, 2026" in body
    table = re.search(r"<tbody>(.*?)</tbody>", body, re.S).group(1)
    assert [text(row) for row in re.findall(r"<tr>(.*?)</tr>", table)] == [
        "Clubs 1 1 10",
        "Bowers 1 0 0",
    ]
    assert "Bowers 0–10 Clubs final" in text(body)
    assert "Aces 4–0 Clubs in progress · hand 2" in text(body)


def test_team_page_stats(client, known):
    clubs = known["teams"]["Clubs"]
    body = client.get(f"{known['base']}teams/{clubs.pk}/").content.decode()
    assert "<h1>Clubs</h1>" in body
    assert (
        "<b>#2</b> · Aces and Clubs have not played each other; behind Aces on point difference "
        "(+10 to +12)"
    ) in body
    stats = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", body))
    assert stats == {
        "Games": "1",
        "Record": "1–0",
        "Hands": "3",
        "Points for / against": "10 / 0",
        "Points per game": "10.00",
        "Calls / made": "3 / 3 (100%)",
        "Marches": "3",
        "Loners tried / made / marched": "2 / 2 / 2",
        "Euchres suffered / inflicted": "0 / 0",
        "Reneges": "0",
    }
    assert "Bowers 1 1–0" in text(body)
    assert "Playoff" not in body

    # A playoff game (a bracket's: it counts in no standings) is listed, marked, and said to be.
    final = team_game(known["season"], clubs, known["teams"]["Aces"])
    Game.objects.filter(pk=final.pk).update(counts_for_standings=False)
    hand(final, "A", caller_id=clubs.player_one_id, **MARCH)
    body = client.get(f"{known['base']}teams/{clubs.pk}/").content.decode()
    listed = re.findall(r'<li class="game[^"]*">(.*?)</li>', body, re.S)
    assert [text(game).startswith("Playoff ") for game in listed] == [False, False, True]
    assert "Playoff games are marked: they do not count in the standings" in body
    assert dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", body))["Games"] == "1"
    player = client.get(f"/l/rosies/players/{clubs.player_one_id}/").content.decode()
    assert "Playoff games are marked" in player and '<b class="playoff">Playoff</b>' in player


def test_player_page_stats_partners_opponents_and_rating(client, known):
    ann = known["teams"]["Aces"].player_one
    body = client.get(f"/l/rosies/players/{ann.pk}/").content.decode()
    assert "<h1>Ann</h1>" in body
    assert "Plays for" in body and ">Aces</a>" in body
    stats = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", body))
    assert stats == {
        "Games": "1",
        "Record": "1–0",
        "Hands": "3",
        "Points for / against": "12 / 0",
        "Points per game": "12.00",
        "Calls / made": "3 / 3 (100%)",
        "Marches": "3",
        "Loners tried / made / marched": "3 / 3 / 3",
        "Euchres suffered / inflicted": "0 / 0",
        "Reneges": "0",
    }
    words = text(body)
    assert "With each partner Partner Games W–L Al 1 1–0" in words
    assert "Against each opponent Opponent Games W–L Bea 1 1–0 Bo 1 1–0" in words
    assert re.search(r"Rating <b>\d+</b>", body)
    assert "1 game rated" in body


def test_player_page_links_and_recent_games_in_queries_that_do_not_grow(
    client, known, django_assert_num_queries
):
    """Each partner and opponent links to their own page; the recent games name their sides
    (teams here) with the score; the queries are as many with more games and more pairs."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.games.models import Game

    aces, bowers = known["teams"]["Aces"], known["teams"]["Bowers"]
    ann, al = aces.player_one, aces.player_two
    address = f"/l/rosies/players/{ann.pk}/"
    with CaptureQueriesContext(connection) as first:
        body = client.get(address).content.decode()
    assert f'<a href="/l/rosies/players/{al.pk}/">Al</a>' in body
    for opponent in (bowers.player_one, bowers.player_two):
        assert f'<a href="/l/rosies/players/{opponent.pk}/">{opponent.name}</a>' in body
    recent = text(body.split("Recent games", 1)[1])
    assert "Aces 4–0 Clubs" in recent and "Aces 12–0 Bowers" in recent
    mixed = Game.objects.create(  # no teams: the sides are named by their players
        season=known["season"],
        seat_0=ann,
        seat_1=bowers.player_one,
        seat_2=al,
        seat_3=bowers.player_two,
    )
    for _ in range(3):
        team_game(known["season"], aces, bowers, known["nights"][1])
    hand(mixed, "A", **MARCH)
    season_standings_recompute(season_id=known["season"].pk)
    with django_assert_num_queries(len(first)):
        body = client.get(address).content.decode()
    recent = text(body.split("Recent games", 1)[1].split("Coming up", 1)[0])
    assert "Ann & Al 2–0 Bea & Bo" in recent and "0–0" not in recent
    # Games not started are apart, under "Coming up", with their night's date.
    upcoming = text(body.split("Coming up", 1)[1])
    assert upcoming.count("Tue Sep 15 Aces v Bowers") == 3


def test_the_wall_of_a_team_season(client, known):
    """The projector's old address leads to the wall: the standings and the game being played."""
    response = client.get(f"{known['base']}projector/")
    assert response.status_code == 302 and response["Location"] == f"{known['base']}wall/"
    response = client.get(f"{known['base']}wall/")
    assert response["Vary"] == "HX-Request"
    body = response.content.decode()
    assert '<div id="wall-panels" class="wall-panels"' in body and 'hx-trigger="every 5s"' in body
    assert "Tuesday at Rosie&#x27;s · Fall" in body
    assert [text(row) for row in re.findall(r"<tr data-entrant[^>]*>(.*?)</tr>", body)] == [
        "1 Aces 1–0 12",
        "2 Clubs 1–0 10",
        "3 Bowers 0–2 0",
    ]
    assert "Aces 4–0 Clubs" in text(body)
    partial = client.get(f"{known['base']}wall/", HTTP_HX_REQUEST="true").content.decode()
    assert partial.startswith('<div id="wall-panels"')


def test_a_season_with_nothing_played_yet(client):
    league = LeagueFactory(slug="quiet")
    season = SeasonFactory(league=league, name="Spring")
    body = client.get(f"/l/quiet/s/{season.pk}/").content.decode()
    assert "No standings yet: they appear when the first game finishes." in body
    assert "hx-trigger" not in body and "<svg" not in body
    assert "Ranked by win percentage, then head-to-head" in body


@pytest.mark.parametrize(
    "path",
    [
        "/l/nowhere/",
        "/l/rosies/s/999999/",
        "/l/other/s/{season}/",
        "/l/rosies/s/{season}/projector/x/",
        "/l/rosies/s/{season}/nights/{other_night}/",
        "/l/rosies/s/{season}/teams/{other_team}/",
        "/l/rosies/players/{other_player}/",
        "/l/other/players/{player}/",
    ],
)
def test_what_is_not_in_the_league_is_a_404(client, known, path):
    other = LeagueFactory(slug="other")
    other_season = SeasonFactory(league=other)
    other_night = Night.objects.create(season=other_season, date=datetime.date(2026, 1, 1))
    other_player = Player.objects.create(league=other, name="Stranger")
    other_team = Team.objects.create(
        season=other_season,
        name="Strangers",
        player_one=other_player,
        player_two=Player.objects.create(league=other, name="Stranger two"),
    )
    url = path.format(
        season=known["season"].pk,
        other_night=other_night.pk,
        other_team=other_team.pk,
        other_player=other_player.pk,
        player=known["teams"]["Aces"].player_one_id,
    )
    assert client.get(url).status_code == 404


def test_public_pages_are_read_only(client, known):
    counts = (League.objects.count(), Season.objects.count())
    assert client.post(known["base"]).status_code == 405
    assert client.post("/l/rosies/").status_code == 405
    assert (League.objects.count(), Season.objects.count()) == counts
