"""The public standings follow the race when games are scheduled after the last result: the
page is cached on the season's versions, and the race worked out again at the same results
version (the games still to play changed) must not leave the old race on it."""

import pytest
from django.core.cache import cache

from tests.api.test_race_schedule import four_teams, schedule
from tests.factories import team_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()


def row_of(html: str, name: str) -> str:
    start = html.index(f">{name}</a>")
    return html[html.rindex("<tr", 0, start) : html.index("</tr>", start)]


def test_the_standings_page_drops_a_clinch_that_scheduled_games_undid(
    client, organiser_api, league, django_capture_on_commit_callbacks
):
    from scoring.games import services

    season, teams = four_teams(league)
    with django_capture_on_commit_callbacks(execute=True):
        game = team_game(season, teams["Aces"], teams["Bowers"])
        services.game_record_final_score(game=game, score_a=10, score_b=3)
    url = f"/l/{season.league.slug}/s/{season.pk}/"
    html = client.get(url).content.decode()  # built and cached
    assert "\N{CHECK MARK} Clinched</td>" in row_of(html, "Aces")
    assert client.get(url).content.decode() == html  # served from the cache

    with django_capture_on_commit_callbacks(execute=True):  # the race is run again on commit
        schedule(organiser_api, season, teams["Clubs"], teams["Diamonds"])
        schedule(organiser_api, season, teams["Bowers"], teams["Clubs"])
    html = client.get(url).content.decode()
    assert "Clinched" not in row_of(html, "Aces")
    assert "Has clinched" not in html
