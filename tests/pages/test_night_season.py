"""The night desk with the season: a stationary player ticked in the plan form keeps table and
seat all night, the report shows the season's figures and what staying put costs; a season
created with the balance option."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import AuditEntry, Season
from tests.factories import PlayerFactory, SeasonFactory
from tests.pages.night_desk import flashes, post
from tests.pages.test_night_constraints import NAMES, plan_form, words
from tournaments.models import NightPlan, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def twelve_here(organiser_client, night, league):
    """Twelve players checked in (3 tables, nobody sits out)."""
    roster = {name: PlayerFactory(league=league, name=name) for name in NAMES[:12]}
    for player in roster.values():
        post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": player.pk})
    return roster


def test_a_player_who_stays_put_keeps_table_and_seat(organiser_client, night, twelve_here):
    alice = twelve_here["Alice"]
    data = plan_form(rounds=5, fixed=[(alice.pk, 2)])
    data["fixed_table-1-stationary"] = "1"
    response = post(organiser_client, f"/manage/nights/{night.pk}/plan/", data)
    assert flashes(response) == ["Plan generated: read its report, then publish it."]
    plan = NightPlan.objects.get(night=night)
    assert plan.stationary == [alice.pk]
    seats = set(
        Seat.objects.filter(round__plan=plan, player=alice).values_list("table_number", "seat")
    )
    assert len(seats) == 1 and next(iter(seats))[0] == 2
    page = words(response.content.decode())
    assert "Alice stays put at table 2" in page
    assert "Keeping 1 player in place" in page
    assert "This season" in page
    assert "no partnership repeats an earlier night's" in page
    # Generating again keeps the box ticked.
    assert 'name="fixed_table-1-stationary" value="1" checked' in response.content.decode()


def test_staying_put_without_a_table_row_is_not_possible_and_writes_nothing(
    organiser_client, night, twelve_here
):
    data = plan_form(rounds=5, fixed=[(twelve_here["Alice"].pk, 2), (twelve_here["Bob"].pk, 2)])
    data["fixed_table-1-stationary"] = "1"
    data["fixed_table-2-stationary"] = "1"
    response = post(organiser_client, f"/manage/nights/{night.pk}/plan/", data)
    assert any("both stay put at table 2" in message for message in flashes(response))
    assert not NightPlan.objects.filter(night=night).exists()


def test_a_season_created_with_partners_balanced_by_strength(organiser_client, league):
    url = reverse("manage:season-new", args=[league.pk])
    form = organiser_client.get(url).content.decode()
    assert 'name="balance_partner_strength"' in form
    organiser_client.post(
        url,
        {
            "name": "Balanced",
            "format": "individual",
            "preset": "standard",
            "balance_partner_strength": "on",
        },
    )
    assert Season.objects.get(name="Balanced").balance_partner_strength is True


def test_the_balance_is_turned_on_and_off_on_the_nights_page(organiser_client, night):
    season = night.season
    page = organiser_client.get(reverse("manage:nights", args=[season.pk])).content.decode()
    assert 'name="balance_partner_strength"' in page
    url = reverse("manage:partner-balance", args=[season.pk])
    response = organiser_client.post(url, {"balance_partner_strength": "on"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Partners are balanced by strength from the next plan on."
    ]
    season.refresh_from_db()
    assert season.balance_partner_strength is True
    assert AuditEntry.objects.filter(action="season.balance_partner_strength").count() == 1
    organiser_client.post(url, {})
    season.refresh_from_db()
    assert season.balance_partner_strength is False


def test_a_team_season_has_no_partners_to_balance(organiser_client, league):
    season = SeasonFactory(league=league, format=Season.Format.TEAMS, rulebook__slug="standard")
    page = organiser_client.get(reverse("manage:nights", args=[season.pk])).content.decode()
    assert 'name="balance_partner_strength"' not in page
    url = reverse("manage:partner-balance", args=[season.pk])
    response = organiser_client.post(url, {"balance_partner_strength": "on"})
    assert response.status_code == 400
    assert "partners are fixed in a team season" in response.content.decode()
    season.refresh_from_db()
    assert season.balance_partner_strength is False
