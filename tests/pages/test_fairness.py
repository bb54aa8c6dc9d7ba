"""The season fairness report's pages: the organiser's in the workspace (linked from the
season's page, with the switch that shows it publicly) and the public one, which exists only
while the organiser shows it. Figures are compared with a brute-force count of the stored seats."""

import pytest
from django.test import Client

from league.models import AuditEntry, Season
from tests.factories import LeagueRoleFactory
from tests.pages.fairness_world import brute_force, individual_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(league, organiser):
    return individual_season(league, organiser)


def manage_url(season):
    return f"/manage/seasons/{season.pk}/fairness/"


def public_url(season):
    return f"/l/{season.league.slug}/s/{season.pk}/fairness/"


def test_the_organiser_reads_the_report_from_the_season_workspace(organiser_client, season):
    workspace = organiser_client.get(f"/manage/seasons/{season.pk}/").content.decode()
    assert f'href="{manage_url(season)}"' in workspace
    assert "Fairness <small>organisers only</small>" in workspace

    response = organiser_client.get(manage_url(season))
    assert response.status_code == 200
    report, counted = response.context["report"], brute_force(season)
    assert report["games_played"] == counted["games"] == 8  # 5 rounds at one table, then 3
    assert report["most_partnered"] == max(counted["partnered"].values())
    assert report["repeated_partnerships"] == sum(n >= 2 for n in counted["partnered"].values())
    assert report["most_opposed"] == max(counted["opposed"].values())
    lines = {line["name"]: line for line in report["players"]}
    for line in report["players"]:
        assert line["games"] == counted["games_of"][line["id"]]
        assert line["byes"] == counted["byes"][line["id"]]
    # Five players at one table: one sits out each of the first night's five rounds.
    assert sum(counted["byes"].values()) == 5
    assert sorted(line["byes"] for line in report["players"]) == [0, 1, 1, 1, 1, 1]
    assert lines["Fox"]["games"] == 3 and lines["Fox"]["byes"] == 0
    html = response.content.decode()
    for name in ("Ann", "Bea", "Cy", "Dot", "Eli", "Fox"):
        assert f"<td>{name}</td>" in html
    assert "simulated seasons of this schedule (8 games)" in html
    assert "2,000" in html
    assert 'name="fairness_public"' in html and " checked" not in html
    # The workspace's navigation: the season's tools, this one marked as the current page.
    assert 'aria-label="Season tools"' in html
    assert f'<a href="{manage_url(season)}" aria-current="page">Fairness</a>' in html


def test_the_public_report_exists_only_while_the_organiser_shows_it(
    client, organiser_client, season
):
    assert client.get(public_url(season)).status_code == 404
    response = organiser_client.post(manage_url(season), {"fairness_public": "on"})
    assert response.status_code == 303 and response["Location"] == manage_url(season)
    season.refresh_from_db()
    assert season.fairness_public is True
    entry = AuditEntry.objects.get(action="season.fairness_public")
    assert (entry.before, entry.after) == ({"fairness_public": False}, {"fairness_public": True})

    public = client.get(public_url(season))
    assert public.status_code == 200
    assert public.context["report"]["games_played"] == 8
    assert "How fair was Thursdays?" in public.content.decode()
    assert 'name="fairness_public"' not in public.content.decode()  # no switch in public
    assert 'aria-label="Season pages"' in public.content.decode()  # the public navigation
    page = organiser_client.get(manage_url(season)).content.decode()
    assert " checked>" in page and f'href="{public_url(season)}"' in page

    # An unticked box is not sent by a browser: the form then hides the report again.
    organiser_client.post(manage_url(season), {})
    season.refresh_from_db()
    assert season.fairness_public is False
    assert client.get(public_url(season)).status_code == 404
    assert AuditEntry.objects.filter(action="season.fairness_public").count() == 2


def test_the_public_report_of_another_league_or_season_is_404(client, league, organiser):
    shown = individual_season(league, organiser, name="Shown", is_public=True)
    assert client.get(public_url(shown)).status_code == 200
    other = LeagueRoleFactory().league
    assert client.get(f"/l/{other.slug}/s/{shown.pk}/fairness/").status_code == 404
    assert client.get(f"/l/{league.slug}/s/{shown.pk + 1000}/fairness/").status_code == 404


def test_only_the_league_organisers_open_or_switch_the_report(client, season):
    assert client.get(manage_url(season)).status_code == 302  # to the sign-in page
    stranger = Client()
    stranger.force_login(LeagueRoleFactory().user)  # an organiser of another league
    assert stranger.get(manage_url(season)).status_code == 403
    assert stranger.post(manage_url(season), {"fairness_public": "on"}).status_code == 403
    assert Season.objects.get(pk=season.pk).fairness_public is False
    assert not AuditEntry.objects.filter(action="season.fairness_public").exists()
    assert stranger.get(f"/manage/seasons/{season.pk + 1000}/fairness/").status_code == 404


def test_a_season_without_games_says_so(organiser_client, make_season):
    empty = make_season()
    html = organiser_client.get(manage_url(empty)).content.decode()
    assert "No games have been played in this season yet" in html
