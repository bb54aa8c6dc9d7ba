"""The night desk's check-in without JavaScript and from htmx: a row's tap answers with the row
and the count, a repeated tap changes nothing, walk-ins by name (a duplicate or a blank refused),
"check in everyone on the roster" in one audited change, and "Undo" of the last change."""

import pytest

from league.models import Attendance, AuditEntry, Player
from tests.factories import PlayerFactory
from tests.pages.night_desk import flashes, post
from tournaments.models import NightPlan

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def roster(league):
    return [PlayerFactory(league=league, name=name) for name in ["Ann", "Bea", "Cal", "Dot", "Eve"]]


def here(night) -> list[str]:
    return sorted(
        Attendance.objects.filter(night=night, left_at__isnull=True).values_list(
            "player__name", flat=True
        )
    )


def test_without_javascript_a_tap_comes_back_to_the_row(organiser_client, night, roster):
    response = organiser_client.post(
        f"/manage/nights/{night.pk}/check-in/", {"player": roster[1].pk}
    )
    assert response.status_code == 303
    assert response["Location"] == f"/manage/nights/{night.pk}/#player-{roster[1].pk}"
    page = organiser_client.get(response["Location"]).content.decode()
    assert "Bea is checked in." in page
    assert f'id="player-{roster[1].pk}" class="here"' in page
    assert "Undo: Bea checked in" in page


def test_htmx_answers_with_the_row_the_count_and_undo(organiser_client, night, roster):
    response = organiser_client.post(
        f"/manage/nights/{night.pk}/check-in/", {"player": roster[0].pk}, **HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert response["HX-Trigger"] == "check-in-changed"
    assert html.startswith(f'<li id="player-{roster[0].pk}" class="here"')
    assert "<span data-count>1</span> here" in html
    assert 'id="check-in-status" class="check-in-status" hx-swap-oob="true"' in html
    assert "Undo: Ann checked in" in html
    assert '<p class="flash">Ann is checked in.</p>' in html


def test_a_double_tap_checks_in_once_and_out_once(organiser_client, night, roster):
    url = f"/manage/nights/{night.pk}/"
    for _ in range(2):
        answer = organiser_client.post(url + "check-in/", {"player": roster[2].pk}, **HTMX)
        assert '<p class="flash">Cal is checked in.</p>' in answer.content.decode()
    assert here(night) == ["Cal"]
    assert AuditEntry.objects.filter(action="attendance.check_in").count() == 1
    for _ in range(2):
        answer = organiser_client.post(url + "check-out/", {"player": roster[2].pk}, **HTMX)
        assert '<p class="flash">Cal has left.</p>' in answer.content.decode()
    assert here(night) == []
    assert AuditEntry.objects.filter(action="attendance.check_out").count() == 1


def test_walk_ins_from_the_search_box(organiser_client, night, roster):
    url = f"/manage/nights/{night.pk}/check-in/"
    assert flashes(post(organiser_client, url, {"name": "  Zoe   Quinn "})) == [
        "Zoe Quinn is checked in."
    ]
    assert Player.objects.filter(name="Zoe Quinn", league=night.season.league).count() == 1
    assert flashes(post(organiser_client, url, {"name": "zoe quinn"})) == [
        "Zoe Quinn is already checked in"
    ]
    assert flashes(post(organiser_client, url, {"name": "   "})) == ["name the player to check in"]
    assert here(night) == ["Zoe Quinn"]
    assert Player.objects.filter(league=night.season.league).count() == 6
    # a roster name typed in checks that player in (no second "Ann")
    assert flashes(post(organiser_client, url, {"name": "ann"})) == ["Ann is checked in."]
    assert Player.objects.filter(name__iexact="ann").count() == 1


def test_check_everyone_in_is_one_audited_change(organiser_client, night, roster):
    url = f"/manage/nights/{night.pk}/"
    post(organiser_client, url + "check-in/", {"player": roster[0].pk})
    post(organiser_client, url + "check-out/", {"player": roster[0].pk})
    first = post(organiser_client, url + "check-in/roster/")
    assert flashes(first) == ["4 checked in from the roster."]
    assert here(night) == ["Bea", "Cal", "Dot", "Eve"]  # Ann left: she stays out
    again = post(organiser_client, url + "check-in/roster/")
    assert flashes(again) == ["Everyone on the roster is already checked in."]
    entries = AuditEntry.objects.filter(action="attendance.check_in_all")
    assert [sorted(entry.after["players"]) for entry in entries] == [
        sorted(p.pk for p in roster[1:])
    ]
    assert "Undo: 4 checked in from the roster" in again.content.decode()


def test_undo_takes_back_the_last_change_once(organiser_client, night, roster):
    url = f"/manage/nights/{night.pk}/"
    post(organiser_client, url + "check-in/", {"player": roster[0].pk})
    post(organiser_client, url + "check-in/roster/")
    entry = AuditEntry.objects.get(action="attendance.check_in_all").pk
    for expected in [
        "Undone: 4 checked in from the roster.",
        "Already undone: 4 checked in from the roster.",
    ]:
        assert flashes(post(organiser_client, url + "check-in/undo/", {"entry": entry})) == [
            expected
        ]
        assert here(night) == ["Ann"]
    # the next undo takes back Ann's check-in; an older change than the last is refused
    post(organiser_client, url + "check-out/", {"player": roster[0].pk})
    first = AuditEntry.objects.filter(action="attendance.check_in").get().pk
    refused = post(organiser_client, url + "check-in/undo/", {"entry": first})
    assert flashes(refused) == ["a newer check-in change came after that one: undo it first"]
    assert here(night) == []
    out = AuditEntry.objects.get(action="attendance.check_out").pk
    assert flashes(post(organiser_client, url + "check-in/undo/", {"entry": out})) == [
        "Undone: Ann left."
    ]
    assert here(night) == ["Ann"]
    assert flashes(post(organiser_client, url + "check-in/undo/", {"entry": first})) == [
        "Undone: Ann checked in."
    ]
    assert not Attendance.objects.filter(night=night).exists()
    assert AuditEntry.objects.filter(action="attendance.undo").count() == 3


def test_undo_refuses_to_unseat_a_planned_player(organiser_client, night, roster):
    url = f"/manage/nights/{night.pk}/"
    post(organiser_client, url + "check-in/roster/")
    post(organiser_client, url + "plan/", {"rounds": 1})
    assert NightPlan.objects.filter(night=night).exists()
    entry = AuditEntry.objects.get(action="attendance.check_in_all").pk
    refused = post(organiser_client, url + "check-in/undo/", {"entry": entry})
    assert flashes(refused) == [
        "Ann, Bea, Cal, Dot, Eve already have seats in the plan: check them out instead"
    ]
    assert len(here(night)) == 5
    # so the desk offers no such undo
    assert "Undo:" not in organiser_client.get(url).content.decode()


def test_only_the_leagues_organisers_check_in(client, night, roster, django_user_model):
    stranger = django_user_model.objects.create_user("stranger", password="x")
    client.force_login(stranger)
    for path, data in [
        ("check-in/", {"player": roster[0].pk}),
        ("check-in/roster/", {}),
        ("check-in/undo/", {"entry": 1}),
    ]:
        assert client.post(f"/manage/nights/{night.pk}/{path}", data).status_code == 403
    assert not Attendance.objects.exists()
