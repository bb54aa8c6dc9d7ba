"""A draft rotation is the organisers' alone: the public night API, the players' page and the
print pages show a plan's rounds only once it is published; organisers preview the draft."""

import pytest

from tournaments.models import NightPlan

from .test_nights import check_in, make_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(league):
    from league.models import Season
    from tests.factories import SeasonFactory

    return SeasonFactory(league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard")


@pytest.fixture
def roster(league):
    from tests.factories import PlayerFactory

    return [PlayerFactory(league=league, name=f"Player {n:02d}") for n in range(1, 5)]


@pytest.fixture
def drafted(organiser_api, season, roster):
    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster)
    response = organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 3})
    assert response.status_code == 200, response.data
    return night_id


def test_the_public_api_shows_no_draft_plan_and_the_organiser_sees_it(api, organiser_api, drafted):
    public = api.get(f"/api/v1/nights/{drafted}/")
    assert public.status_code == 200
    assert public.json()["plan"] is None
    assert len(public.json()["attendance"]) == 4

    organiser = organiser_api.get(f"/api/v1/nights/{drafted}/").json()
    assert organiser["plan"]["status"] == "draft"
    assert [r["number"] for r in organiser["plan"]["schedule"]] == [1, 2, 3]

    organiser_api.post(f"/api/v1/nights/{drafted}/publish/")
    published = api.get(f"/api/v1/nights/{drafted}/").json()
    assert published["plan"]["status"] == "published"
    assert [r["number"] for r in published["plan"]["schedule"]] == [1, 2, 3]
    assert [len(r["tables"]) for r in published["plan"]["schedule"]] == [1, 1, 1]


def test_the_players_page_and_the_printables_hide_a_draft(client, organiser, drafted):
    assert NightPlan.objects.get(night_id=drafted).status == "draft"
    for url in (
        f"/nights/{drafted}/",
        f"/nights/{drafted}/print/chart/",
        f"/nights/{drafted}/print/cards/",
    ):
        page = client.get(url)
        assert page.status_code == 200, url
        assert "Table 1" not in page.content.decode(), url
        assert "Round 1" not in page.content.decode(), url

    assert "Player 01" not in client.get(f"/nights/{drafted}/print/cards/").content.decode()

    client.force_login(organiser)
    chart = client.get(f"/nights/{drafted}/print/chart/").content.decode()
    assert chart.count("<b>Table 1</b>") == 3  # the organiser previews the draft on paper
    assert "Table 1" not in client.get(f"/nights/{drafted}/").content.decode()  # players' page


def test_a_published_plan_is_public_on_paper(client, organiser_api, drafted):
    organiser_api.post(f"/api/v1/nights/{drafted}/publish/")
    chart = client.get(f"/nights/{drafted}/print/chart/").content.decode()
    assert chart.count("<b>Table 1</b>") == 3
    cards = client.get(f"/nights/{drafted}/print/cards/").content.decode()
    assert "Player 01" in cards
    assert "Table 1" in client.get(f"/nights/{drafted}/").content.decode()
