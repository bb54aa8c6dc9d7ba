"""The playoff race on the public standings and on the organiser's night page."""

import pytest
from django.core.cache import cache

from scoring.standings.public import present
from scoring.standings.services.race import season_race_compute
from scoring.standings.services.recompute import season_standings_recompute
from tests.captains import play_through_the_api
from tests.factories import race_season

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()


@pytest.fixture
def raced(league):
    season, teams, night, tonight = race_season(league)
    season_standings_recompute(season_id=season.pk)
    season_race_compute(season_id=season.pk)
    return season, teams, night, tonight


def row_of(html: str, name: str) -> str:
    start = html.index(f">{name}</a>")
    return html[html.rindex("<tr", 0, start) : html.index("</tr>", start)]


def test_the_standings_show_the_odds_the_proofs_and_the_sentences(client, raced):
    season, *_ = raced
    html = client.get(f"/l/{season.league.slug}/s/{season.pk}/").content.decode()
    assert '<th scope="col" class="num race">Playoffs</th>' in html
    aces, diamonds = row_of(html, "Aces"), row_of(html, "Diamonds")
    assert "\N{CHECK MARK} Clinched</td>" in aces
    assert 'class="num race clinched"' in aces
    assert "Has clinched a top-2 place." in aces
    assert ">Out</td>" in diamonds
    assert "Can no longer finish in a top-2 place." in diamonds
    for name in ("Bowers", "Clubs"):
        row = row_of(html, name)
        assert "Clinches a top-2 place by winning its last game." in row
        assert "Clinched" not in row and ">Out<" not in row
    assert "10,000 simulated seasons of the 2 games left" in html
    assert " style=" not in html and "<script>" not in html


def test_no_race_columns_before_the_race_is_worked_out(client, league):
    season, *_ = race_season(league)
    season_standings_recompute(season_id=season.pk)
    html = client.get(f"/l/{season.league.slug}/s/{season.pk}/").content.decode()
    assert "Playoffs" not in html


@pytest.mark.parametrize(
    ("value", "clinched", "eliminated", "shown"),
    [
        (1.0, True, False, "\N{CHECK MARK} Clinched"),
        (0.0, False, True, "Out"),
        (1.0, False, False, ">99\N{NO-BREAK SPACE}%"),
        (0.996, False, False, ">99\N{NO-BREAK SPACE}%"),
        (0.0, False, False, "<1\N{NO-BREAK SPACE}%"),
        (0.004, False, False, "<1\N{NO-BREAK SPACE}%"),
        (0.7349, False, False, "73\N{NO-BREAK SPACE}%"),
    ],
)
def test_a_chance_is_never_shown_as_certain_without_a_proof(value, clinched, eliminated, shown):
    assert present.chance(value, clinched=clinched, eliminated=eliminated) == shown


def test_the_night_page_lists_what_is_at_stake_tonight(organiser_client, raced):
    _season, _teams, night, _tonight = raced
    html = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    assert "What’s at stake tonight" in html
    start = html.index('<ol class="stakes-list">')
    section = html[start : html.index("</ol>", start)]
    items = [item.split("</li>")[0] for item in section.split("<li>")[1:]]
    assert items == [
        "<b>Bowers v Clubs</b>: decides a playoff place",
        "<b>Aces v Diamonds</b>: changes little for the playoffs",
    ]


def test_no_stakes_on_the_night_page_without_a_race(organiser_client, league):
    _season, _teams, night, _tonight = race_season(league)
    html = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    assert "What’s at stake tonight" not in html


def test_the_season_rules_page_sets_the_playoff_spots(organiser_client, league):
    season, *_ = race_season(league)
    url = f"/manage/seasons/{season.pk}/rules/"
    page = organiser_client.get(url).content.decode()
    assert 'name="playoff_spots"' in page and 'value="2"' in page
    response = organiser_client.post(f"/manage/seasons/{season.pk}/playoffs/", {"playoff_spots": 3})
    assert response.status_code == 302 and response["Location"] == url
    season.refresh_from_db()
    assert season.standing_rules == {"tiebreaks": ["wins", "head_to_head"], "playoff_spots": 3}
    assert "3 teams now make the playoffs." in organiser_client.get(url).content.decode()
    refused = organiser_client.post(f"/manage/seasons/{season.pk}/playoffs/", {"playoff_spots": 0})
    assert refused.status_code == 400
    assert "greater than or equal to 1" in refused.content.decode()
    season.refresh_from_db()
    assert season.standing_rules["playoff_spots"] == 3


def test_only_the_league_organisers_set_the_playoff_spots(client, league):
    season, *_ = race_season(league)
    response = client.post(f"/manage/seasons/{season.pk}/playoffs/", {"playoff_spots": 3})
    assert response.status_code in (302, 403, 404)
    season.refresh_from_db()
    assert season.standing_rules["playoff_spots"] == 2


def test_an_individual_seasons_standings_show_each_players_projected_range(client, league):
    from scoring.standings.domain.projection import rank_range_text
    from tests.factories import individual_season

    season, _players = individual_season(league)
    season_standings_recompute(season_id=season.pk)
    html = client.get(f"/l/{season.league.slug}/s/{season.pk}/").content.decode()
    assert "Projected" not in html  # not worked out yet
    race = season_race_compute(season_id=season.pk)
    cache.clear()
    html = client.get(f"/l/{season.league.slug}/s/{season.pk}/").content.decode()
    assert '<th scope="col" class="num race">Projected</th>' in html
    assert "Playoffs" not in html
    for line in race["projections"]:
        row = row_of(html, line["name"])
        text = rank_range_text(line["projected_low"], line["projected_high"])
        assert f'data-column="projected"><span class="range">{text}</span>' in row
        assert "proven" not in row
    assert "2,000 simulated seasons (1 night left of 2 rounds" in html
    assert "no rank is proven" in html
    assert " style=" not in html and "<script>" not in html


def test_a_season_over_shows_the_proven_ranks(client, league):
    from tests.factories import individual_season

    season, _players = individual_season(league, ended=True)
    season_standings_recompute(season_id=season.pk)
    season_race_compute(season_id=season.pk)
    html = client.get(f"/l/{season.league.slug}/s/{season.pk}/").content.decode()
    assert '<small class="proven">proven 1st\N{EN DASH}3rd</small>' in row_of(html, "Player 1")
    assert "the 1 game already seated" in html
    assert "the best and worst possible ranks are proven" in html


def test_with_no_game_left_the_race_note_says_so(client, raced):
    season, *_ = raced
    left = season.games.filter(status__in=["scheduled", "in_progress"], counts_for_standings=True)
    assert left.count() == 2
    play_through_the_api(list(left))
    season_standings_recompute(season_id=season.pk)
    season_race_compute(season_id=season.pk)
    html = client.get(f"/l/{season.league.slug}/s/{season.pk}/").content.decode()
    assert "No game of the season is left to play." in html
    assert "games left" not in html and "simulated seasons of the" not in html
