"""The night desk's plan form with constraints: pairs kept apart (couples, rivals) and players fixed
to one table (accessibility), parsed from the form, kept by the plan, shown in words, pre-filled
when generating again; a malformed row is refused and writes nothing."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from tests.factories import LeagueRoleFactory, PlayerFactory
from tests.pages.night_desk import flashes, post
from tournaments.models import NightPlan, PlannedRound, Seat

pytestmark = pytest.mark.django_db

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]
NAMES += ["Grace", "Hank", "Ivy", "Jack", "Kate", "Liam", "Mona"]


@pytest.fixture
def roster(league):
    return {name: PlayerFactory(league=league, name=name) for name in NAMES}


@pytest.fixture
def twelve_here(organiser_client, night, roster):
    """Alice to Liam are checked in (12 players, 3 tables, nobody sits out); Mona is not."""
    for name in NAMES[:12]:
        post(organiser_client, f"/manage/nights/{night.pk}/check-in/", {"player": roster[name].pk})
    return roster


def words(html: str) -> str:
    return " ".join(html.split())


def plan_form(rounds=5, seed=0, pairs=(), fixed=(), pair_rows=3, fixed_rows=2) -> dict:
    """What the browser sends: every row of the form, the unused ones empty."""
    data = {"rounds": rounds, "hands_per_game": "", "seed": seed}
    pairs, fixed = list(pairs), list(fixed)
    for n in range(1, max(pair_rows, len(pairs)) + 1):
        first, second = pairs[n - 1] if n <= len(pairs) else ("", "")
        data[f"keep_apart-{n}-first"] = first
        data[f"keep_apart-{n}-second"] = second
    for n in range(1, max(fixed_rows, len(fixed)) + 1):
        player, table = fixed[n - 1] if n <= len(fixed) else ("", "")
        data[f"fixed_table-{n}-player"] = player
        data[f"fixed_table-{n}-table"] = table
    return data


class _PlanForm(HTMLParser):
    """The fields of the page's plan form as a browser would submit them (selected options,
    input values), plus whether the constraints <details> is open."""

    def __init__(self):
        super().__init__()
        self.inside = False
        self.select: str | None = None
        self.first_option: str | None = None
        self.data: dict[str, str] = {}
        self.constraints_open: bool | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and (attrs.get("action") or "").endswith("/plan/"):
            self.inside = True
        if not self.inside:
            return
        if tag == "details" and "constraints" in (attrs.get("class") or "").split():
            self.constraints_open = "open" in attrs
        elif tag == "input" and attrs.get("name") and attrs.get("type") != "hidden":
            if attrs.get("type") == "checkbox" and "checked" not in attrs:
                return  # a browser sends a box only when it is ticked
            self.data[attrs["name"]] = attrs.get("value") or ""
        elif tag == "select":
            self.select, self.first_option = attrs["name"], None
            self.data[self.select] = ""
        elif tag == "option" and self.select:
            if self.first_option is None:
                self.first_option = attrs.get("value")
            if "selected" in attrs:
                self.data[self.select] = attrs.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        elif tag == "form":
            self.inside = False


def read_plan_form(html: str) -> _PlanForm:
    parser = _PlanForm()
    parser.feed(html)
    return parser


def stored_state():
    """Everything generating a plan writes: the plan row and every planned seat."""
    plan = NightPlan.objects.values(
        "pk", "rounds", "seed", "keep_apart", "fixed_tables", "report", "updated_at"
    ).first()
    seats = sorted(
        Seat.objects.values_list("round__number", "player_id", "table_number", "seat", "pk")
    )
    return plan, seats, PlannedRound.objects.count()


def partnerships_and_meetings(first, second) -> tuple[int, int]:
    """Over the stored planned rounds: rounds the two partner, rounds they share a table."""
    partnered = met = 0
    for planned in PlannedRound.objects.all():
        seats = {
            s.player_id: s for s in Seat.objects.filter(round=planned, player__in=[first, second])
        }
        one, other = seats[first.pk], seats[second.pk]
        if one.table_number is not None and one.table_number == other.table_number:
            met += 1
            partnered += one.seat % 2 == other.seat % 2
    return partnered, met


def test_keep_apart_and_a_fixed_table_are_planned_shown_and_prefilled(
    organiser_client, night, twelve_here
):
    roster = twelve_here
    alice, bob, carol = roster["Alice"], roster["Bob"], roster["Carol"]
    page = organiser_client.get(f"/manage/nights/{night.pk}/").content.decode()
    form = read_plan_form(page)
    assert form.constraints_open is False
    assert "Constraints: keep apart, fixed tables" in page
    assert sorted(k for k in form.data if k.startswith(("keep_apart", "fixed_table"))) == sorted(
        [f"keep_apart-{n}-{part}" for n in (1, 2, 3) for part in ("first", "second")]
        + [f"fixed_table-{n}-{part}" for n in (1, 2) for part in ("player", "table")]
    )
    assert 'max="3"' in page  # 12 players fill tables 1 to 3
    assert '<label class="sr" for="keep-apart-1-first">Pair 1, first player</label>' in page
    assert "data-constraints" not in page

    planned = post(
        organiser_client,
        f"/manage/nights/{night.pk}/plan/",
        plan_form(rounds=5, pairs=[(bob.pk, alice.pk)], fixed=[(carol.pk, "2")]),
    )
    assert flashes(planned) == ["Plan generated: read its report, then publish it."]
    plan = NightPlan.objects.get()
    assert plan.keep_apart == [sorted([alice.pk, bob.pk])]
    assert plan.fixed_tables == {str(carol.pk): 2}
    assert plan.report["keep_apart_partnerships"] == 0
    assert PlannedRound.objects.count() == 5

    partnered, met = partnerships_and_meetings(alice, bob)
    assert partnered == 0
    assert plan.report["keep_apart_meetings"] == met
    carol_tables = list(Seat.objects.filter(player=carol).values_list("table_number", flat=True))
    assert carol_tables == [2, 2, 2, 2, 2]
    assert Seat.objects.filter(table_number=2).count() == 5 * 4

    html = words(planned.content.decode())
    at_one_table = (
        "never at one table" if met == 0 else f"at one table {met} time{'s' if met > 1 else ''}"
    )
    assert (
        f"Kept apart: Alice &amp; Bob (never partners, {at_one_table}); "
        "Carol always at table 2.</p>" in html
    )

    again = read_plan_form(planned.content.decode())
    assert again.constraints_open is True
    assert (again.data["keep_apart-1-first"], again.data["keep_apart-1-second"]) == (
        str(alice.pk),
        str(bob.pk),
    )
    assert (again.data["fixed_table-1-player"], again.data["fixed_table-1-table"]) == (
        str(carol.pk),
        "2",
    )
    for n in (2, 3, 4):
        assert again.data[f"keep_apart-{n}-first"] == again.data[f"keep_apart-{n}-second"] == ""
    for n in (2, 3):
        assert again.data[f"fixed_table-{n}-player"] == again.data[f"fixed_table-{n}-table"] == ""

    # Generating again from the pre-filled page (another draw) keeps both constraints.
    again.data["seed"] = "7"
    regenerated = post(organiser_client, f"/manage/nights/{night.pk}/plan/", again.data)
    assert flashes(regenerated) == ["Plan generated: read its report, then publish it."]
    plan = NightPlan.objects.get()
    assert (plan.seed, plan.keep_apart, plan.fixed_tables) == (
        7,
        [sorted([alice.pk, bob.pk])],
        {str(carol.pk): 2},
    )
    assert partnerships_and_meetings(alice, bob)[0] == 0
    assert list(Seat.objects.filter(player=carol).values_list("table_number", flat=True)) == [2] * 5


def test_empty_rows_are_ignored_and_clearing_a_row_drops_its_constraint(
    organiser_client, night, twelve_here
):
    roster = twelve_here
    post(
        organiser_client,
        f"/manage/nights/{night.pk}/plan/",
        plan_form(pairs=[(roster["Dave"].pk, roster["Erin"].pk)], fixed=[(roster["Ivy"].pk, 1)]),
    )
    assert NightPlan.objects.get().fixed_tables == {str(roster["Ivy"].pk): 1}
    cleared = post(organiser_client, f"/manage/nights/{night.pk}/plan/", plan_form(rounds=4))
    assert flashes(cleared) == ["Plan generated: read its report, then publish it."]
    plan = NightPlan.objects.get()
    assert (plan.rounds, plan.keep_apart, plan.fixed_tables) == (4, [], {})
    assert "data-constraints" not in cleared.content.decode()
    assert read_plan_form(cleared.content.decode()).constraints_open is False


def test_the_same_pair_twice_is_kept_once(organiser_client, night, twelve_here):
    alice, bob = twelve_here["Alice"], twelve_here["Bob"]
    post(
        organiser_client,
        f"/manage/nights/{night.pk}/plan/",
        plan_form(pairs=[(alice.pk, bob.pk), (bob.pk, alice.pk)]),
    )
    assert NightPlan.objects.get().keep_apart == [sorted([alice.pk, bob.pk])]


BAD_ROWS = {
    "half a pair": (
        lambda r: plan_form(pairs=[(r["Dave"].pk, r["Erin"].pk), (r["Frank"].pk, "")]),
        "keep apart, pair 2: choose both players, or neither",
    ),
    "one player twice": (
        lambda r: plan_form(pairs=[(r["Dave"].pk, r["Dave"].pk)]),
        "keep apart, pair 1: Dave is chosen twice; choose two different players",
    ),
    "a player not here": (
        lambda r: plan_form(pairs=[(r["Dave"].pk, r["Mona"].pk)]),
        "keep apart, pair 1: that player is not checked in tonight",
    ),
    "a table out of range": (
        lambda r: plan_form(fixed=[(r["Dave"].pk, "4")]),
        "fixed table, row 1: there is no table 4; 12 players fill tables 1 to 3",
    ),
    "table 0": (
        lambda r: plan_form(fixed=[(r["Dave"].pk, "0")]),
        "fixed table, row 1: there is no table 0; 12 players fill tables 1 to 3",
    ),
    "a table that is not a number": (
        lambda r: plan_form(fixed=[(r["Dave"].pk, "two")]),
        "fixed table, row 1: 'two' is not a table number",
    ),
    "a player without a table": (
        lambda r: plan_form(fixed=[(r["Dave"].pk, "")]),
        "fixed table, row 1: give Dave's table number",
    ),
    "a table without a player": (
        lambda r: plan_form(fixed=[(r["Dave"].pk, "1"), ("", "3")]),
        "fixed table, row 2: choose who plays at table 3",
    ),
    "a player fixed twice": (
        lambda r: plan_form(fixed=[(r["Dave"].pk, "1"), (r["Dave"].pk, "3")]),
        "fixed table, row 2: Dave already has a fixed table",
    ),
    "five at one table (refused by the service)": (
        lambda r: plan_form(fixed=[(r[name].pk, "1") for name in NAMES[3:8]]),
        "5 players are fixed to table 1, which seats 4",
    ),
}


@pytest.mark.parametrize("case", list(BAD_ROWS))
def test_a_bad_row_says_why_and_leaves_the_previous_plan_untouched(
    organiser_client, night, twelve_here, case
):
    roster = twelve_here
    post(
        organiser_client,
        f"/manage/nights/{night.pk}/plan/",
        plan_form(
            rounds=3,
            seed=2,
            pairs=[(roster["Alice"].pk, roster["Bob"].pk)],
            fixed=[(roster["Carol"].pk, "3")],
        ),
    )
    before = stored_state()
    assert before[0]["rounds"] == 3 and len(before[1]) == 3 * 12

    data, message = BAD_ROWS[case]
    refused = post(organiser_client, f"/manage/nights/{night.pk}/plan/", data(roster))
    assert flashes(refused) == [message]
    assert stored_state() == before
    assert "Kept apart: Alice &amp; Bob" in words(refused.content.decode())


def test_a_bad_row_before_any_plan_writes_nothing(organiser_client, night, twelve_here):
    refused = post(
        organiser_client,
        f"/manage/nights/{night.pk}/plan/",
        plan_form(pairs=[("", twelve_here["Bob"].pk)]),
    )
    assert flashes(refused) == ["keep apart, pair 1: choose both players, or neither"]
    assert not NightPlan.objects.exists()
    assert not PlannedRound.objects.exists() and not Seat.objects.exists()


def test_only_the_leagues_organisers_plan_with_constraints(night, twelve_here):
    roster = twelve_here
    data = plan_form(pairs=[(roster["Alice"].pk, roster["Bob"].pk)])
    anonymous = Client().post(f"/manage/nights/{night.pk}/plan/", data)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/manage/login/")
    stranger = Client()
    stranger.force_login(LeagueRoleFactory().user)
    assert stranger.post(f"/manage/nights/{night.pk}/plan/", data).status_code == 403
    assert stranger.get(f"/manage/nights/{night.pk}/").status_code == 403
    assert not NightPlan.objects.exists() and not Seat.objects.exists()


def test_constraints_of_a_player_who_left_stay_in_words_but_not_in_the_form(
    organiser_client, night, twelve_here
):
    roster = twelve_here
    post(
        organiser_client,
        f"/manage/nights/{night.pk}/plan/",
        plan_form(pairs=[(roster["Alice"].pk, roster["Bob"].pk)], fixed=[(roster["Ivy"].pk, 1)]),
    )
    left = post(
        organiser_client, f"/manage/nights/{night.pk}/check-out/", {"player": roster["Bob"].pk}
    )
    html = left.content.decode()
    assert "Kept apart: Alice &amp; Bob" in words(html)
    form = read_plan_form(html)
    assert form.data["keep_apart-1-first"] == form.data["keep_apart-1-second"] == ""
    assert form.data["fixed_table-1-player"] == str(roster["Ivy"].pk)
    assert re.search(r'name="fixed_table-1-table"[^>]*max="2"', html)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"seed": "99999999999999"}, "the seed must be a whole number from 0 to 2147483647"),
        ({"seed": "²"}, "'²' is not a whole number"),
        ({"rounds": "9" * 5000}, f"'{'9' * 5000}' is not a whole number"),
        ({"fixed": [("Alice", "²")]}, "fixed table, row 1: '²' is not a table number"),
        (
            {"fixed": [("99999999999999999999", "1")]},
            "fixed table, row 1: that player is not checked in tonight",
        ),
        ({"pairs": [("²", "Bob")]}, "keep apart, pair 1: that player is not checked in tonight"),
    ],
)
def test_numbers_no_column_holds_are_refused_and_write_nothing(
    organiser_client, night, twelve_here, fields, message
):
    """A seed beyond the plan's 32-bit column, a digit ``int`` refuses, more digits than ``int``
    reads: each a refusal on the desk, not a server error."""
    ids = {name: str(player.pk) for name, player in twelve_here.items()}
    pairs = [tuple(ids.get(v, v) for v in pair) for pair in fields.pop("pairs", ())]
    fixed = [(ids.get(name, name), table) for name, table in fields.pop("fixed", ())]
    form = {**plan_form(pairs=pairs, fixed=fixed), **fields}
    before = stored_state()
    response = post(organiser_client, f"/manage/nights/{night.pk}/plan/", form)
    assert flashes(response) == [message]
    assert stored_state() == before
