"""A season's money through the organiser's pages and the API: the rules' form (validation,
audit), a night played at the desk whose pot, payouts and ledger are worked out by hand, the
season ledger and its CSV, the public night page with the money hidden and shown, and another
league's organiser refused."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from league.models import AuditEntry, Season
from scoring.games import services as scoring
from scoring.games.domain.hand_input import HandInput
from tests.factories import LeagueRoleFactory, NightFactory, SeasonFactory, TeamFactory, team_game
from tests.pages.money_world import FORM, played_night
from tournaments.models import SeasonMoney
from tournaments.services import nights as night_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(league):
    return SeasonFactory(
        league=league, name="Thursdays", format=Season.Format.INDIVIDUAL, rulebook__slug="standard"
    )


def money_url(season):
    return f"/manage/seasons/{season.pk}/money/"


def test_the_organiser_sets_the_rules_and_reads_the_pot(organiser_client, organiser, season):
    assert (
        f'href="{money_url(season)}"'
        in organiser_client.get(f"/manage/seasons/{season.pk}/").content.decode()
    )
    page = organiser_client.get(money_url(season))
    assert page.status_code == 200 and 'name="entry_fee"' in page.content.decode()

    response = organiser_client.post(money_url(season), FORM, follow=True)
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == ["Money rules saved."]
    stored = SeasonMoney.objects.get(season=season).rules
    assert stored == {
        "currency": "USD",
        "entry_fee_cents": 500,
        "side_pots": [
            {"kind": "lone_march", "cents": 100, "direction": "bonus"},
            {"kind": "lone_caller_euchred", "cents": 50, "direction": "fine"},
        ],
        "prize_shares": [60, 40],
        "remainder": "higher_place",
        "is_public": False,
    }
    (entry,) = AuditEntry.objects.filter(action="season.money")
    assert entry.after == stored and entry.before["entry_fee_cents"] == 0
    assert entry.actor == organiser
    trail = organiser_client.get(f"/manage/seasons/{season.pk}/audit/").content.decode()
    assert '<b class="action">season.money</b>' in trail
    # The same rules again: nothing changes, nothing is audited.
    response = organiser_client.post(money_url(season), FORM, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Nothing changed."]
    assert AuditEntry.objects.filter(action="season.money").count() == 1

    night, game = played_night(season, organiser)
    seats = game.seat_player_ids
    assert game.winner == "A"
    pot = organiser_client.get(f"/manage/nights/{night.pk}/pot/")
    assert pot.status_code == 200
    payouts = pot.context["payouts"]
    # Fees 4 × 5.00 and one fine of 0.50 (Bea's … seat 1's euchred loner): a pot of 20.50.
    # The lone march's 1.00 bonus is paid first; the 19.50 left goes to the two winners, tied
    # first: places 1 and 2 pooled (60 + 40, all of it), 9.75 each.
    assert payouts["summary"] == {
        "fees": "20.00",
        "fines": "0.50",
        "pot": "20.50",
        "bonuses": "1.00",
        "short": "",
        "prize_fund": "19.50",
        "held_over": "",
    }
    names = dict(zip(seats, [p.name for p in game.seats], strict=True))
    by_name = {line["name"]: line for line in payouts["players"]}
    assert by_name[names[seats[0]]]["net"] == "5.75"  # 1.00 + 9.75 − 5.00
    assert by_name[names[seats[2]]]["net"] == "4.75"
    assert by_name[names[seats[1]]]["net"] == "-5.50"  # fee and fine
    assert by_name[names[seats[3]]]["net"] == "-5.00"
    assert [(line["place"], line["is_tie"], line["amount"]) for line in payouts["places"]] == [
        (1, True, "9.75"),
        (1, True, "9.75"),
        (3, True, "0.00"),
        (3, True, "0.00"),
    ]
    html = pot.content.decode()
    assert "Round 1, table 1, hand 1" in html and "Lone march" in html
    # Until the night is finished, the payouts are those so far.
    assert "data-provisional" in html
    night_services.night_finish(night=night, user=organiser)
    assert "data-provisional" not in organiser_client.get(pot.request["PATH_INFO"]).content.decode()
    assert "@media print" not in html and "css/money.css" in html

    # The season's ledger and its CSV say the same.
    ledger = organiser_client.get(f"/manage/seasons/{season.pk}/money/ledger/")
    assert ledger.status_code == 200 and "20.50 USD" in ledger.content.decode()
    exported = organiser_client.get(f"/manage/seasons/{season.pk}/money/ledger.csv")
    assert exported["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(exported.content.decode())))
    assert {row["player"]: row["net"] for row in rows} == {
        names[seats[0]]: "5.75",
        names[seats[1]]: "-5.50",
        names[seats[2]]: "4.75",
        names[seats[3]]: "-5.00",
    }
    assert rows[0].keys() >= {"fees", "fines", "bonuses", "prizes", "paid_in", "paid_out"}


def test_bad_rules_are_refused_with_nothing_written(organiser_client, season):
    bad = {**FORM, "entry_fee": "five", "prize_shares": "0, 100", "currency": "US"}
    response = organiser_client.post(money_url(season), bad)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert set(errors) == {"entry_fee", "currency"}
    assert "is not an amount" in errors["entry_fee"][0]
    # Shares that parse but break a rule: the service's error, on its field.
    response = organiser_client.post(money_url(season), {**FORM, "prize_shares": "0, 100"})
    assert response.status_code == 400
    assert response.context["form"].errors["prize_shares"] == [
        "prize_shares: first place must get a share"
    ]
    assert not SeasonMoney.objects.exists()
    assert not AuditEntry.objects.filter(action="season.money").exists()


def test_money_is_public_only_when_the_organiser_says(client, organiser_client, organiser, season):
    organiser_client.post(money_url(season), FORM)
    night, _ = played_night(season, organiser)
    public = client.get(f"/nights/{night.pk}/")
    assert public.status_code == 200
    html = public.content.decode()
    assert "Payouts" not in html and "20.50" not in html and "money.css" not in html

    organiser_client.post(money_url(season), {**FORM, "is_public": "on"})
    html = client.get(f"/nights/{night.pk}/").content.decode()
    assert "Payouts" in html and "<b>20.50</b>" in html and "9.75" in html


def test_another_leagues_organiser_is_refused(organiser, season):
    organiser_client_of_other = Client()
    other = LeagueRoleFactory().user
    organiser_client_of_other.force_login(other)
    night = NightFactory(season=season)
    for url in (
        money_url(season),
        f"/manage/seasons/{season.pk}/money/ledger/",
        f"/manage/seasons/{season.pk}/money/ledger.csv",
        f"/manage/nights/{night.pk}/pot/",
    ):
        assert organiser_client_of_other.get(url).status_code == 403, url
    response = organiser_client_of_other.post(money_url(season), FORM)
    assert response.status_code == 403
    assert not SeasonMoney.objects.exists()
    assert Client().get(money_url(season)).status_code == 302  # to the login page
    assert organiser_client_of_other.get("/manage/seasons/999999/money/").status_code == 404


def test_the_api_gives_the_rules_and_the_ledger_to_organisers(
    api, organiser_api, organiser_client, organiser, season
):
    organiser_client.post(money_url(season), FORM)
    night, game = played_night(season, organiser)
    response = organiser_api.get(f"/api/v1/seasons/{season.pk}/money/")
    assert response.status_code == 200
    body = response.json()
    assert body["rules"]["entry_fee_cents"] == 500 and body["pot_cents"] == 2050
    (pot,) = body["nights"]
    assert pot["night"] == night.pk and pot["prize_fund_cents"] == 1950
    assert sum(p["cents"] for p in pot["places"]) + pot["bonuses_cents"] == pot["pot_cents"]
    assert [line["kind"] for line in pot["side_pots"]] == ["lone_march", "lone_caller_euchred"]
    assert pot["side_pots"][0]["players"] == [game.seat_0_id]
    nets = {line["player"]: line["net_cents"] for line in body["players"]}
    assert nets == {
        game.seat_0_id: 575,
        game.seat_1_id: -550,
        game.seat_2_id: 475,
        game.seat_3_id: -500,
    }
    night_response = organiser_api.get(f"/api/v1/nights/{night.pk}/pot/")
    assert night_response.status_code == 200 and night_response.json() == pot
    assert api.get(f"/api/v1/nights/{night.pk}/pot/").status_code in (401, 403)
    other = LeagueRoleFactory().user
    api.force_authenticate(other)
    assert api.get(f"/api/v1/seasons/{season.pk}/money/").status_code == 403
    assert api.get(f"/api/v1/nights/{night.pk}/pot/").status_code == 403
    assert api.get("/api/v1/nights/999999/pot/").status_code == 404


def test_a_corrected_hand_is_counted_at_once(organiser_api, organiser_client, organiser, season):
    organiser_client.post(money_url(season), FORM)
    night, game = played_night(season, organiser)
    before = organiser_api.get(f"/api/v1/nights/{night.pk}/pot/").json()
    assert [line["kind"] for line in before["side_pots"]] == ["lone_march", "lone_caller_euchred"]
    # The lone march was a loner made (3 tricks): no bonus for it in these rules.
    scoring.hand_correct(
        game=game,
        number=1,
        data=HandInput(makers="A", caller_id=game.seat_0_id, caller_alone=True, tricks_won=3),
        reason="three tricks, not five",
        user=organiser,
    )
    after = organiser_api.get(f"/api/v1/nights/{night.pk}/pot/").json()
    assert [line["kind"] for line in after["side_pots"]] == ["lone_caller_euchred"]
    assert after["bonuses_cents"] == 0 and after["pot_cents"] == 2050
    prizes = sum(place["cents"] for place in after["places"])
    assert prizes + after["held_over_cents"] == 2050


def test_a_team_seasons_prizes_go_to_the_teams_players(organiser_api, organiser_client, league):
    season = SeasonFactory(league=league, format=Season.Format.TEAMS, rulebook__slug="standard")
    organiser_client.post(money_url(season), {**FORM, "prize_shares": "100"})
    night = NightFactory(season=season)
    first, second = TeamFactory(season=season, name="Aces"), TeamFactory(season=season)
    game = team_game(season, first, second, night=night)
    scoring.game_record_final_score(game=game, score_a=10, score_b=7)
    pot = organiser_api.get(f"/api/v1/nights/{night.pk}/pot/").json()
    # Four players seated pay 5.00 each; the winning team takes the 20.00, 10.00 each.
    assert pot["pot_cents"] == 2000 and pot["side_pots"] == []
    assert [(p["entrant"], p["name"], p["cents"]) for p in pot["places"]] == [
        (first.pk, "Aces", 2000),
        (second.pk, second.name, 0),
    ]
    nets = {line["player"]: line["net_cents"] for line in pot["players"]}
    assert nets == {
        first.player_one_id: 500,
        first.player_two_id: 500,
        second.player_one_id: -500,
        second.player_two_id: -500,
    }
