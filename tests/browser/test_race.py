"""The playoff race in a real Chromium on a 360x640 phone: the standings show each team's odds
and the "Clinched" mark; a result recorded through the API settles the last playoff spot, the
race job runs after the standings recompute, and the page then says who clinched and who is out."""

import pytest
from django.core.cache import cache
from django.core.management import call_command
from playwright.sync_api import expect

from tests.factories import race_season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_standings_show_the_race_on_a_phone(page, live_server, organiser, shot):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    cache.clear()
    league = organiser.league_roles.get().league
    season, teams, _night, (_aces_diamonds, bowers_clubs) = race_season(league)
    call_command("recompute_standings", season=season.pk)
    call_command("compute_race", season=season.pk)

    page.goto(f"{live_server.url}/l/{league.slug}/s/{season.pk}/")
    table = page.locator("#standings table")

    def row(name):
        return table.locator(f"tbody tr[data-entrant='{teams[name].pk}']")

    def playoffs(name):
        return row(name).locator("[data-column=playoffs]")

    expect(table.locator("thead")).to_contain_text("Playoffs")
    expect(playoffs("Aces")).to_have_text("\N{CHECK MARK} Clinched")
    expect(row("Aces")).to_contain_text("Has clinched a top-2 place.")
    odds = playoffs("Bowers").inner_text()
    assert (
        odds.endswith("\N{NO-BREAK SPACE}%") and 1 <= int(odds.split("\N{NO-BREAK SPACE}")[0]) <= 99
    )
    expect(playoffs("Diamonds")).to_have_text("Out")
    # Phone first (issue 31: rank, name, record, points, a short reason): the first-place column
    # waits for a wider screen, and nothing scrolls sideways.
    expect(table.locator("thead th", has_text="First")).to_be_hidden()
    expect(table.locator("thead th", has_text="Pts")).to_be_visible()
    shot(page, "before")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    response = client.post(
        f"/api/v1/games/{bowers_clubs.pk}/final-score/",
        {"score_a": 4, "score_b": 10},
        format="json",
    )
    assert response.status_code == 200, response.json()

    page.reload()
    expect(playoffs("Clubs")).to_have_text("\N{CHECK MARK} Clinched")
    expect(playoffs("Bowers")).to_have_text("Out")
    shot(page, "after")


def test_an_individual_season_shows_projected_ranks_on_a_phone(page, live_server, league, shot):
    """An individual season with a night to come: each player's row shows the projected range
    of final ranks ("1st–3rd"), the leader's starts at 1st, nothing scrolls sideways, and the page
    passes axe-core."""
    from scoring.standings.domain.projection import rank_range_text
    from scoring.standings.services.race import season_race_compute
    from tests.browser.conftest import assert_accessible
    from tests.factories import individual_season

    cache.clear()
    season, players = individual_season(league)
    call_command("recompute_standings", season=season.pk)
    call_command("compute_race", season=season.pk)
    race = season_race_compute(season_id=season.pk, force=True)  # what the page shows, again
    expected = {line["id"]: line for line in race["projections"]}

    page.goto(f"{live_server.url}/l/{league.slug}/s/{season.pk}/")
    table = page.locator("#standings table")
    expect(table.locator("thead")).to_contain_text("Projected")
    expect(table.locator("thead th", has_text="Playoffs")).to_have_count(0)
    for player in players.values():
        line = expected[player.pk]
        cell = table.locator(f"tbody tr[data-entrant='{player.pk}'] [data-column=projected]")
        expect(cell).to_have_text(rank_range_text(line["projected_low"], line["projected_high"]))
    leader = table.locator(f"tbody tr[data-entrant='{players[1].pk}'] [data-column=projected]")
    assert leader.inner_text().startswith("1st")
    expect(page.locator(".race-note")).to_contain_text("2,000 simulated seasons")
    expect(table.locator("thead th", has_text="Pts")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "individual")
    assert_accessible(page)
