"""The public pages' stats and the API's stats line show the fields of the domain's
``STATS_LINE``: every field but those the page leaves out (``OFF_THE_PAGE``) changes what a page
shows, in the declaration's order; a stat declared there and missing here fails. ``TODAY`` and
``HEADINGS`` pin today's order."""

import re

import pytest

from scoring.standings.domain.stats import STATS_LINE, STATS_LINE_NAMES
from scoring.standings.public.present import OFF_THE_PAGE, stat_lines
from tests.domain.test_stats_line import TODAY
from tests.pages.test_public_pages import known  # noqa: F401  (the known season fixture)

HEADINGS = [
    "Games",
    "Record",
    "Hands",
    "Points for / against",
    "Points per game",
    "Calls / made",
    "Marches",
    "Loners tried / made / marched",
    "Euchres suffered / inflicted",
    "Reneges",
]
"""The rows of a page's stats today, in order."""


def _line(**values):
    line = dict.fromkeys(STATS_LINE_NAMES, 0)
    return line | {"points_per_game": 0.0} | values


def test_a_pages_rows_today():
    line = _line(
        games=4,
        wins=2,
        losses=1,
        draws=1,
        forfeit_wins=1,
        hands=30,
        points_for=33.5,
        points_against=20,
        points_per_game=8.375,
        calls=8,
        calls_made=6,
        marches=3,
        loners_tried=2,
        loners_made=1,
        loners_marched=1,
        euchres_suffered=2,
        euchres_inflicted=4,
        reneges=1,
    )
    assert stat_lines(line) == [
        ("Games", "4"),
        ("Record", "2–1–1"),
        ("Hands", "30"),
        ("Points for / against", "33.5 / 20"),
        ("Points per game", "8.38"),
        ("Calls / made", "8 / 6 (75%)"),
        ("Marches", "3"),
        ("Loners tried / made / marched", "2 / 1 / 1"),
        ("Euchres suffered / inflicted", "2 / 4"),
        ("Reneges", "1"),
    ]
    assert [heading for heading, _value in stat_lines(_line())] == HEADINGS


def test_every_declared_field_is_on_the_page_or_left_out_on_purpose():
    assert set(STATS_LINE_NAMES) >= OFF_THE_PAGE
    shown = stat_lines(_line())
    for stat in STATS_LINE:
        changed = stat_lines(_line(**{stat.name: 7}))
        if stat.name in OFF_THE_PAGE:
            assert changed == shown, stat.name
        else:
            assert changed != shown, f"{stat.name} is declared but not on the page"
    # one row per field or group, in the declaration's order
    on_the_page = [stat for stat in STATS_LINE if stat.name not in OFF_THE_PAGE]
    rows = [
        stat.group or stat.name
        for index, stat in enumerate(on_the_page)
        if not (index and stat.group and on_the_page[index - 1].group == stat.group)
    ]
    assert len(rows) == len(shown) == len(HEADINGS)


@pytest.mark.django_db
def test_the_pages_and_the_api_show_the_line_in_the_declared_order(client, api, known):  # noqa: F811
    clubs = known["teams"]["Clubs"]
    body = client.get(f"{known['base']}teams/{clubs.pk}/").content.decode()
    assert re.findall(r"<dt>(.*?)</dt>", body) == HEADINGS
    ann = known["teams"]["Aces"].player_one
    body = client.get(f"/l/rosies/players/{ann.pk}/").content.decode()
    assert re.findall(r"<dt>(.*?)</dt>", body) == HEADINGS
    stats = api.get(f"/api/v1/seasons/{known['season'].pk}/players/{ann.pk}/stats/").json()
    # The line is stored as JSON: PostgreSQL's jsonb keeps an object's keys in its own order (a
    # JSON object has none), so the API's answer is compared by its keys, the pages by their order.
    assert sorted(stats["stats"]) == sorted(
        ["player_id", *STATS_LINE_NAMES, "partners", "opponents"]
    )
    assert sorted(stats["stats"]) == sorted(["player_id", *TODAY, "partners", "opponents"])
