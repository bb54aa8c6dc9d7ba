"""Individual nights through the API: check-in, plan and its report, publish, rounds, repairs."""

import pytest

from league.models import Attendance, Night, Player, Season
from scoring.games.models import Game
from tests.factories import LeagueRoleFactory, PlayerFactory, SeasonFactory
from tournaments.models import NightPlan, PlannedRound, Seat
from tournaments.services import nights as services

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(league):
    return SeasonFactory(league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="standard")


@pytest.fixture
def roster(league):
    return [PlayerFactory(league=league, name=f"P{n:02d}") for n in range(1, 13)]


def make_night(organiser_api, season):
    response = organiser_api.post(
        "/api/v1/nights/", {"season": season.pk, "date": "2026-12-01", "venue": "Rosie's"}
    )
    assert response.status_code == 201, response.data
    return response.data["id"]


def check_in(organiser_api, night_id, players):
    for player in players:
        response = organiser_api.post(f"/api/v1/nights/{night_id}/check-in/", {"player": player.pk})
        assert response.status_code == 200, response.data


def finish_round_games(night_id, number):
    """The tables finish their games (recorded by final score, as a league without hand detail)."""
    for game in Game.objects.filter(night_id=night_id, round_number=number):
        game.status = Game.Status.FINISHED
        game.score_a, game.score_b, game.winner = 10, 6, "A"
        game.save()


def rounds_as_seats(night_id, numbers):
    return sorted(
        Seat.objects.filter(round__plan__night_id=night_id, round__number__in=numbers).values_list(
            "round__number", "player_id", "table_number", "seat"
        )
    )


def test_a_night_from_check_in_to_the_second_round(organiser_api, season, roster):
    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster[:8])
    walk_in = organiser_api.post(
        f"/api/v1/nights/{night_id}/check-in/", {"name": "  Wally  Walker "}
    )
    assert walk_in.status_code == 200
    assert Player.objects.get(league=season.league, name="Wally Walker")
    assert len(walk_in.data["attendance"]) == 9
    assert walk_in.data["status"] == "check_in"

    plan = organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 9})
    assert plan.status_code == 200, plan.data
    report = plan.data["plan"]["report"]
    assert report["summary"] == (
        "perfect: everyone partners everyone once and opposes everyone twice"
    )
    assert report["partner_histogram"] == {"1": 36}
    assert report["opponent_histogram"] == {"2": 36}
    assert (report["byes_fewest"], report["byes_most"]) == (1, 1)
    schedule = plan.data["plan"]["schedule"]
    assert len(schedule) == 9
    assert all(len(r["tables"]) == 2 and len(r["byes"]) == 1 for r in schedule)
    assert plan.data["plan"]["status"] == "draft"

    # Nobody sees captain links in the public detail, and rounds cannot start before publishing.
    refused = organiser_api.post(f"/api/v1/nights/{night_id}/rounds/1/start/")
    assert refused.status_code == 400
    assert refused.data["message"] == "publish the plan first"
    assert not Game.objects.exists()

    published = organiser_api.post(f"/api/v1/nights/{night_id}/publish/")
    assert published.data["plan"]["status"] == "published"

    started = organiser_api.post(f"/api/v1/nights/{night_id}/rounds/1/start/")
    assert started.status_code == 201, started.data
    first = schedule[0]
    assert [g["seats"] for g in started.data] == [t["seats"] for t in first["tables"]]
    assert [g["table_number"] for g in started.data] == [1, 2]
    assert all(g["first_dealer_seat"] == 0 for g in started.data)
    game = Game.objects.get(pk=started.data[0]["id"])
    assert started.data[0]["captain_link"] == f"http://testserver/t/{game.captain_token}/"
    assert (game.night_id, game.round_number, game.table_number) == (night_id, 1, 1)
    assert Night.objects.get(pk=night_id).status == "playing"

    too_soon = organiser_api.post(f"/api/v1/nights/{night_id}/rounds/2/start/")
    assert too_soon.status_code == 409
    assert too_soon.data["message"] == "round 1 is still playing at tables 1, 2"
    assert Game.objects.count() == 2

    finish_round_games(night_id, 1)
    second = organiser_api.post(f"/api/v1/nights/{night_id}/rounds/2/start/")
    assert second.status_code == 201
    assert PlannedRound.objects.get(plan__night_id=night_id, number=1).status == "finished"
    assert [g["seats"] for g in second.data] == [t["seats"] for t in schedule[1]["tables"]]


def test_public_detail_hides_captain_tokens(api, organiser_api, season, roster):
    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster[:4])
    organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 3})
    organiser_api.post(f"/api/v1/nights/{night_id}/publish/")
    organiser_api.post(f"/api/v1/nights/{night_id}/rounds/1/start/")
    detail = api.get(f"/api/v1/nights/{night_id}/")
    assert detail.status_code == 200
    token = Game.objects.get().captain_token
    assert token not in str(detail.content)
    assert detail.data["plan"]["schedule"][0]["tables"][0]["game_status"] == "scheduled"
    listed = api.get(f"/api/v1/nights/?season={season.pk}")
    assert [n["id"] for n in listed.data["results"]] == [night_id]


def test_a_late_arrival_repair_keeps_played_rounds(organiser_api, season, roster):
    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster[:8])
    organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 4, "seed": 3})
    organiser_api.post(f"/api/v1/nights/{night_id}/publish/")
    organiser_api.post(f"/api/v1/nights/{night_id}/rounds/1/start/")
    played = rounds_as_seats(night_id, [1])
    games = list(Game.objects.values_list("pk", "seat_0", "seat_1", "seat_2", "seat_3"))

    check_in(organiser_api, night_id, roster[8:9])
    repaired = organiser_api.post(f"/api/v1/nights/{night_id}/repair/", {})
    assert repaired.status_code == 200, repaired.data
    assert rounds_as_seats(night_id, [1]) == played
    assert list(Game.objects.values_list("pk", "seat_0", "seat_1", "seat_2", "seat_3")) == games
    schedule = repaired.data["plan"]["schedule"]
    assert [r["number"] for r in schedule] == [1, 2, 3, 4]
    for later in schedule[1:]:
        seated = [p for t in later["tables"] for p in t["seats"]] + later["byes"]
        assert sorted(seated) == sorted(p.pk for p in roster[:9])
        assert len(later["byes"]) == 1
    # The late arrival missed round 1: they never sit out again.
    assert roster[8].pk not in [p for r in schedule[1:] for p in r["byes"]]
    assert repaired.data["plan"]["report"]["players"] == 9


def test_a_leaver_must_be_repaired_before_the_next_round(organiser_api, season, roster):
    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster[:9])
    organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 4})
    organiser_api.post(f"/api/v1/nights/{night_id}/publish/")
    organiser_api.post(f"/api/v1/nights/{night_id}/rounds/1/start/")
    finish_round_games(night_id, 1)
    leaver = Seat.objects.get(
        round__plan__night_id=night_id, round__number=2, table_number=1, seat=0
    ).player
    organiser_api.post(f"/api/v1/nights/{night_id}/check-out/", {"player": leaver.pk})

    refused = organiser_api.post(f"/api/v1/nights/{night_id}/rounds/2/start/")
    assert refused.status_code == 409
    assert (
        refused.data["message"]
        == f"{leaver.name} has left; repair the plan before starting the round"
    )
    assert Game.objects.filter(round_number=2).count() == 0

    played = rounds_as_seats(night_id, [1])
    organiser_api.post(f"/api/v1/nights/{night_id}/repair/", {})
    assert rounds_as_seats(night_id, [1]) == played
    later = Seat.objects.filter(round__plan__night_id=night_id, round__number__gt=1)
    assert not later.filter(player=leaver).exists()
    assert later.filter(table_number__isnull=True).count() == 0  # 8 players: nobody sits out
    started = organiser_api.post(f"/api/v1/nights/{night_id}/rounds/2/start/")
    assert started.status_code == 201


def test_a_substitute_takes_the_leavers_seats(organiser_api, season, roster):
    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster[:8])
    organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 3})
    organiser_api.post(f"/api/v1/nights/{night_id}/publish/")
    organiser_api.post(f"/api/v1/nights/{night_id}/rounds/1/start/")
    leaver = roster[0]
    before = rounds_as_seats(night_id, [1, 2, 3])

    response = organiser_api.post(
        f"/api/v1/nights/{night_id}/repair/",
        {"substitute_for": leaver.pk, "substitute_name": "Sam Sub"},
    )
    assert response.status_code == 200, response.data
    sub = Player.objects.get(name="Sam Sub")
    after = rounds_as_seats(night_id, [1, 2, 3])
    expected = sorted(
        (n, sub.pk if (n > 1 and p == leaver.pk) else p, t, s) for n, p, t, s in before
    )
    assert after == expected
    assert (
        Game.objects.filter(round_number=1).filter(seat_0=leaver).count()
        + Game.objects.filter(round_number=1, seat_1=leaver).count()
        + Game.objects.filter(round_number=1, seat_2=leaver).count()
        + Game.objects.filter(round_number=1, seat_3=leaver).count()
        == 1
    )
    attendance = {a.player_id: a.left_at is None for a in Attendance.objects.all()}
    assert attendance[leaver.pk] is False and attendance[sub.pk] is True


def test_refusals_write_nothing(organiser_api, season, roster, league):
    teams = SeasonFactory(league=league, format=Season.Format.TEAMS)
    response = organiser_api.post("/api/v1/nights/", {"season": teams.pk, "date": "2026-12-01"})
    assert response.status_code == 400
    assert response.data["message"] == (
        "rotating-partner nights belong to individual seasons; this season has fixed teams"
    )
    assert not Night.objects.exists()

    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster[:3])
    too_few = organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 2})
    assert too_few.status_code == 400
    assert too_few.data["message"] == "3 players are checked in; a rotation needs at least 4"
    assert not NightPlan.objects.exists()

    twice = organiser_api.post(f"/api/v1/nights/{night_id}/check-in/", {"player": roster[0].pk})
    assert twice.status_code == 409
    assert twice.data["message"] == f"{roster[0].name} is already checked in"
    assert Attendance.objects.count() == 3

    check_in(organiser_api, night_id, roster[3:5])
    too_long = organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 6})
    assert too_long.status_code == 400
    assert too_long.data["message"] == (
        "5 players can play 1 to 5 rounds without repeating partners; 6 were asked"
    )
    assert not NightPlan.objects.exists() and not Seat.objects.exists()

    organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 5})
    check_in(organiser_api, night_id, roster[5:6])
    stale = organiser_api.post(f"/api/v1/nights/{night_id}/publish/")
    assert stale.status_code == 409
    assert stale.data["message"] == (
        "who is checked in changed since the plan was generated; generate it again"
    )
    assert NightPlan.objects.get().status == "draft"


def test_only_organisers_of_the_league_may_run_a_night(api, organiser_api, season, roster):
    night_id = make_night(organiser_api, season)
    anonymous = api.post(f"/api/v1/nights/{night_id}/check-in/", {"player": roster[0].pk})
    assert anonymous.status_code in (401, 403)
    other = LeagueRoleFactory().user
    api.force_authenticate(other)
    stranger = api.post(f"/api/v1/nights/{night_id}/check-in/", {"player": roster[0].pk})
    assert stranger.status_code == 403
    assert stranger.data["message"] == "only an organiser of this league may change it"
    created = api.post("/api/v1/nights/", {"season": season.pk, "date": "2026-12-02"})
    assert created.status_code == 403
    assert not Attendance.objects.exists()
    assert Night.objects.count() == 1


def test_database_constraints_hold_one_seat_per_player_and_per_place(organiser_api, season, roster):
    from django.db import IntegrityError, transaction

    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster[:8])
    organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 2})
    seat = Seat.objects.filter(round__number=1, table_number=1, seat=0).get()
    other = Seat.objects.filter(round__number=1, table_number=2, seat=0).get()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(round=seat.round, player=seat.player, table_number=3, seat=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(round=seat.round, player=roster[9], table_number=1, seat=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(pk=other.pk).update(seat=4)


def test_fixed_table_and_keep_apart_are_kept(organiser_api, season, roster):
    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster[:12])
    couple = [roster[0].pk, roster[1].pk]
    response = organiser_api.post(
        f"/api/v1/nights/{night_id}/plan/",
        {"rounds": 3, "keep_apart": [couple], "fixed_tables": {str(roster[2].pk): 2}},
        format="json",
    )
    assert response.status_code == 200, response.data
    assert response.data["plan"]["report"]["keep_apart_partnerships"] == 0
    for round_ in response.data["plan"]["schedule"]:
        table_two = round_["tables"][1]["seats"]
        assert roster[2].pk in table_two
        for table in round_["tables"]:
            s = table["seats"]
            assert {s[0], s[2]} != set(couple) and {s[1], s[3]} != set(couple)


def test_finishing_the_night(organiser_api, season, roster):
    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster[:4])
    organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 2})
    organiser_api.post(f"/api/v1/nights/{night_id}/publish/")
    organiser_api.post(f"/api/v1/nights/{night_id}/rounds/1/start/")
    busy = organiser_api.post(f"/api/v1/nights/{night_id}/finish/")
    assert busy.status_code == 409
    assert busy.data["message"] == "round 1 is still playing at table 1"
    assert Night.objects.get(pk=night_id).status == "playing"
    finish_round_games(night_id, 1)
    done = organiser_api.post(f"/api/v1/nights/{night_id}/finish/")
    assert done.status_code == 200
    assert done.data["status"] == "finished"
    assert [r["status"] for r in done.data["plan"]["schedule"]] == ["finished", "planned"]


def test_where_do_i_sit_next(organiser_api, season, roster):
    night_id = make_night(organiser_api, season)
    check_in(organiser_api, night_id, roster[:5])
    organiser_api.post(f"/api/v1/nights/{night_id}/plan/", {"rounds": 5})
    night = Night.objects.get(pk=night_id)
    assert services.player_schedule(night=night, player=roster[0]) == []  # a draft is not public
    organiser_api.post(f"/api/v1/nights/{night_id}/publish/")
    schedule = services.player_schedule(night=night, player=roster[0])
    assert [r.number for r in schedule] == [1, 2, 3, 4, 5]
    assert sum(r.is_bye for r in schedule) == 1
    partners = [r.partner.pk for r in schedule if not r.is_bye]
    assert sorted(partners) == sorted(p.pk for p in roster[1:5])


def test_a_teams_night_gets_no_rotation(organiser_api, league, roster):
    from tests.factories import NightFactory

    night = NightFactory(season=SeasonFactory(league=league, format=Season.Format.TEAMS))
    check_in(organiser_api, night.pk, roster[:4])
    response = organiser_api.post(f"/api/v1/nights/{night.pk}/plan/", {"rounds": 3})
    assert response.status_code == 400
    assert response.data["message"] == (
        "partner rotations are for individual seasons; this season has fixed teams"
    )
    assert not NightPlan.objects.exists()
