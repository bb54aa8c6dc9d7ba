"""A stats line's fields are declared once (``STATS_LINE`` in
``scoring.standings.domain.stats``): the stats classes, the counts they are added up from and the
season totals take theirs from it.

Each test derives what it expects from the declaration, so a stat added there and missing from
one of these fails here; ``TODAY`` pins the order every output keeps today."""

from __future__ import annotations

import random
from dataclasses import fields

from scoring.games.domain.counts import HAND_COUNT_NAMES, MAKER_COUNT_NAMES
from scoring.standings.domain.season_totals import LINE_NAMES, SeasonTotals, stats_line_digest
from scoring.standings.domain.stats import (
    GAME_COUNT_NAMES,
    SIDE_COUNT_NAMES,
    STATS_LINE,
    STATS_LINE_NAMES,
    PlayerStats,
    TeamStats,
    player_stats,
    side_counts,
    stats_line_stored,
    team_stats,
)
from tests.domain.test_stats import GAMES, HANDS, TEAM_GAMES

TODAY = (
    "games",
    "wins",
    "losses",
    "draws",
    "forfeit_wins",
    "forfeit_losses",
    "hands",
    "points_for",
    "points_against",
    "points_per_game",
    "calls",
    "calls_made",
    "marches",
    "loners_tried",
    "loners_made",
    "loners_marched",
    "euchres_suffered",
    "euchres_inflicted",
    "reneges",
)
"""A stats line's fields today, in order (the API's, the snapshot's JSON and the pages' order)."""


def test_the_declaration_today():
    assert STATS_LINE_NAMES == TODAY
    assert len(set(STATS_LINE_NAMES)) == len(STATS_LINE)
    for stat in STATS_LINE:
        assert stat.label and stat.label[0].isupper()
        assert stat.kind in ("count", "points", "average")
        assert stat.counted_from in ("games", "hands", "")


def test_game_and_hand_counts_are_the_declarations_in_its_order():
    assert tuple(s.name for s in STATS_LINE if s.counted_from == "games") == GAME_COUNT_NAMES
    assert tuple(s.name for s in STATS_LINE if s.counted_from == "hands") == HAND_COUNT_NAMES
    assert SIDE_COUNT_NAMES[: len(HAND_COUNT_NAMES)] == HAND_COUNT_NAMES
    # and today's, which the stored digests and the packed columns were made with
    assert GAME_COUNT_NAMES == (
        "games",
        "wins",
        "losses",
        "draws",
        "forfeit_wins",
        "forfeit_losses",
        "points_for",
        "points_against",
    )
    assert HAND_COUNT_NAMES == (
        "hands",
        "calls",
        "calls_made",
        "marches",
        "loners_tried",
        "loners_made",
        "loners_marched",
        "euchres_suffered",
        "euchres_inflicted",
        "reneges",
    )


def test_player_and_team_stats_have_the_declared_fields_in_order():
    assert tuple(f.name for f in fields(PlayerStats)) == (
        "player_id",
        *STATS_LINE_NAMES,
        "partners",
        "opponents",
    )
    assert tuple(f.name for f in fields(TeamStats)) == ("team_id", *STATS_LINE_NAMES, "opponents")
    types = {"count": int, "points": int | float, "average": float}
    for stat in STATS_LINE:
        field = next(f for f in fields(PlayerStats) if f.name == stat.name)
        assert field.type == types[stat.kind]
    assert PlayerStats.__module__ == TeamStats.__module__ == "scoring.standings.domain.stats"


def test_a_rendered_line_lists_the_declared_fields_in_order():
    for stats in player_stats(GAMES, HANDS):
        assert list(stats.to_dict()) == ["player_id", *TODAY, "partners", "opponents"]
    for stats in team_stats(TEAM_GAMES, HANDS):
        assert list(stats.to_dict()) == ["team_id", *TODAY, "opponents"]


def test_the_totals_keep_and_render_every_counted_field():
    """The totals keep every field counted from games or hands, and render the same line (and
    the same digest) as the stats do."""
    assert set(LINE_NAMES) == {stat.name for stat in STATS_LINE if stat.counted_from}
    assert (*GAME_COUNT_NAMES, *HAND_COUNT_NAMES) == LINE_NAMES
    totals = SeasonTotals(is_teams=True)
    for stats in player_stats(GAMES, HANDS):
        line = stats_line_stored(stats.to_dict())
        totals.load_player(line)
        assert list(totals.player_line(stats.player_id).items()) == list(line.items())
        assert totals.player_digest(stats.player_id) == stats_line_digest(line)
    for stats in team_stats(TEAM_GAMES, HANDS):
        line = stats_line_stored(stats.to_dict())
        totals.load_team(line)
        assert list(totals.team_line(stats.team_id).items()) == list(line.items())
        assert totals.team_digest(stats.team_id) == stats_line_digest(line)


def _side_counts_by_name(makers_a, makers_b):
    """``side_counts`` written by name: what each of a side's counts is."""
    a = dict(zip(MAKER_COUNT_NAMES, makers_a, strict=True))
    b = dict(zip(MAKER_COUNT_NAMES, makers_b, strict=True))

    def side(own, their, outcomes):
        return {
            "hands": own["calls"] + their["calls"],
            "calls": own["calls"],
            "calls_made": own["made_good"],
            "marches": own["marches"],
            "loners_tried": own["loners_tried"],
            "loners_made": own["loners_made"],
            "loners_marched": own["loners_marched"],
            "euchres_suffered": own["euchres"],
            "euchres_inflicted": their["euchres"],
            "reneges": own["own_reneges"] + their["their_reneges"],
            "both_marches": own["marches"] - own["solo_marches"],
            "both_suffered": own["euchres"] - own["solo_euchres"],
            "both_inflicted": their["euchres"],
            "both_reneges": own["own_reneges"] - own["solo_own_reneges"] + their["their_reneges"],
            "outcomes": outcomes,
        }

    return side(a, b, a["outcomes"] + b["outcomes"]), side(b, a, 0)


def test_side_counts_are_in_the_order_of_the_side_count_names():
    """``side_counts`` writes a side's counts by position (it runs once per game of a season):
    every name of ``SIDE_COUNT_NAMES`` has its count, in that order."""
    rng = random.Random(30)
    for _ in range(200):
        makers_a = tuple(rng.randrange(40) for _ in MAKER_COUNT_NAMES)
        makers_b = tuple(rng.randrange(40) for _ in MAKER_COUNT_NAMES)
        by_name = _side_counts_by_name(makers_a, makers_b)
        assert [set(side) for side in by_name] == [set(SIDE_COUNT_NAMES)] * 2
        assert side_counts(makers_a, makers_b) == tuple(
            tuple(side[name] for name in SIDE_COUNT_NAMES) for side in by_name
        )
