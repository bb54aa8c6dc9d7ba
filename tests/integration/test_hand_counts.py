"""Each hand's stored packed counts against the pure domain, on the database the suite runs on
(SQLite, then PostgreSQL): the generated columns ``Hand.maker_counts_*`` and
``Hand.caller_counts_*`` (``scoring.games.hand_counts``) hold, field by field, what
``HandTotals.from_rows`` counts for that one hand.

- *grid*: every combination of the facts the counts read: makers A or B; no caller or the
  player of any seat (the model does not tie the caller to the makers' side, and neither do
  the counts); caller alone or not; defender alone or not (no lone defender is ever named, so it
  must change nothing); tricks 0 to 5 or unknown (the engine leaves them unknown only after a
  renege, but the model allows any, and the domain reads rows unchecked); no renege, or by side
  A or B: 840 hands in one game.
- *expected*: a hand's row read as the running totals read database rows (makers and renege
  ``None`` when blank, no lone defender: ``tests/api/test_standings_incremental.py``), counted
  by ``HandTotals.from_rows`` alone; the maker counts are read off the makers' and defenders'
  side counts, the caller counts off the caller's own.
- *left out*: thrown-in, misdealt and no longer current hands count for nothing in the domain;
  their stored counts are never read, since the shares (``scoring.standings.services.shares``) sum
  only the counted hands. The second test proves that on one game's share.
"""

from __future__ import annotations

import itertools

import pytest

from league.models import Season
from scoring.games.domain.counts import HAND_COUNT_NAMES, MAKER_COUNT_NAMES
from scoring.games.hand_counts import FIELD_BITS, PER_SUM, SEAT_COUNT_NAMES
from scoring.games.models import Game, Hand
from scoring.standings.domain.season_totals import Counted
from scoring.standings.domain.stats import (
    SIDE_COUNT_NAMES,
    HandTotals,
    side_counts,
)
from scoring.standings.models import StandingGame
from scoring.standings.services.shares import (
    share_of,
    shares_counted,
    shares_in_played_order,
    shares_replace,
)

pytestmark = pytest.mark.django_db

MAKER_COLUMNS = [f"maker_counts_{index}" for index in range(4)]
CALLER_COLUMNS = [f"caller_counts_{index}" for index in range(2)]
FIELD_MASK = (1 << FIELD_BITS) - 1

GRID = list(
    itertools.product(
        ("A", "B"),  # makers
        (None, 0, 1, 2, 3),  # the caller's seat
        (False, True),  # caller alone
        (False, True),  # defender alone
        (None, 0, 1, 2, 3, 4, 5),  # tricks won
        ("", "A", "B"),  # renege
    )
)
"""Every hand of the grid, as (makers, caller's seat, caller alone, defender alone, tricks,
renege)."""


def _side(line: list[int]) -> dict[str, int]:
    return dict(zip(SIDE_COUNT_NAMES, line, strict=True))


def expected_maker_counts(own: dict[str, int], their: dict[str, int]) -> dict[str, int]:
    """``MAKER_COUNT_NAMES`` as the domain counts them for one hand, from the makers' and the
    defenders' side counts (``SIDE_COUNT_NAMES``, as ``HandTotals.from_rows`` keeps them): a
    *solo* event is one of the side's that both partners did not play."""
    return {
        "calls": own["calls"],
        "made_good": own["calls_made"],
        "marches": own["marches"],
        "euchres": own["euchres_suffered"],
        "outcomes": own["outcomes"] + their["outcomes"],  # kept on side A only
        "loners_tried": own["loners_tried"],
        "loners_made": own["loners_made"],
        "loners_marched": own["loners_marched"],
        "solo_marches": own["marches"] - own["both_marches"],
        "solo_euchres": own["euchres_suffered"] - own["both_suffered"],
        "own_reneges": own["reneges"],
        "solo_own_reneges": own["reneges"] - own["both_reneges"],
        "their_reneges": their["reneges"],
    }


def fields_of(packs: tuple[int, ...]) -> list[int]:
    """The 16-bit fields of packed sums, first field of the first sum first."""
    return [(pack >> (FIELD_BITS * slot)) & FIELD_MASK for pack in packs for slot in range(PER_SUM)]


def domain_row(game: Game, hand: tuple) -> tuple:
    """A hand read back from the database (``number``, the facts) as a hand row, the way the
    running totals read one."""
    number, makers, tricks, caller, alone, defender, renege, thrown_in = hand
    return (
        game.pk, number, game.seat_player_ids, makers or None, tricks, caller, alone, defender,
        None, renege or None, thrown_in,
    )  # fmt: skip


def hand_of(game: Game, number: int, facts: tuple, **extra) -> Hand:
    makers, seat, caller_alone, defender_alone, tricks, renege = facts
    return Hand(
        game=game,
        number=number,
        makers=makers,
        caller_id=None if seat is None else game.seat_player_ids[seat],
        caller_alone=caller_alone,
        defender_alone=defender_alone,
        tricks_won=tricks,
        renege=renege,
        dealer_seat=0,
        rulebook=game.season.rulebook,
        outcome=Hand.Outcome.MAKE,  # the engine's reading; the counts do not look at it
        points_a=0,
        points_b=0,
        **extra,
    )


def describe(facts: tuple) -> str:
    makers, seat, caller_alone, defender_alone, tricks, renege = facts
    caller = "no caller" if seat is None else f"caller in seat {seat}"
    return (
        f"makers {makers}, {caller}, caller alone {caller_alone}, defender alone "
        f"{defender_alone}, tricks {'unknown' if tricks is None else tricks}, "
        f"renege {renege or 'none'}"
    )


FACT_FIELDS = (
    "number", "makers", "tricks_won", "caller_id", "caller_alone", "defender_alone", "renege",
    "thrown_in",
)  # fmt: skip
"""A hand's facts as read back (``domain_row`` takes them in this order)."""


def stored_counts(makers: str, caller: int | None, packs: tuple[int, ...]) -> dict[str, int]:
    """A hand's stored counts by name, unpacked from its six columns; the maker counts also as
    both sides' counts, as the shares turn them into with ``side_counts``."""
    maker_fields = fields_of(packs[: len(MAKER_COLUMNS)])
    counts = dict(zip(MAKER_COUNT_NAMES, maker_fields, strict=False))
    unused = maker_fields[len(MAKER_COUNT_NAMES) :]
    counts |= {f"unused maker field {slot}": value for slot, value in enumerate(unused)}
    made, none = maker_fields[: len(MAKER_COUNT_NAMES)], [0] * len(MAKER_COUNT_NAMES)
    sides = side_counts(made, none) if makers == "A" else side_counts(none, made)
    for side, line in zip("AB", sides, strict=True):
        counts |= {f"side {side} {name}": v for name, v in zip(SIDE_COUNT_NAMES, line, strict=True)}
    if caller is not None:  # with no caller, no seat reads the caller counts
        caller_fields = fields_of(packs[len(MAKER_COLUMNS) :])
        counts |= {
            f"caller's {name}": value
            for name, value in zip(SEAT_COUNT_NAMES, caller_fields, strict=True)
        }
    return counts


def domain_counts(game: Game, facts: tuple) -> dict[str, int]:
    """What ``HandTotals.from_rows`` counts for the one hand, under the names of
    ``stored_counts``."""
    _number, makers, _tricks, caller, *_rest = facts
    totals = HandTotals.from_rows([domain_row(game, facts)])
    side_a, side_b = totals.sides[(game.pk, game.seat_player_ids)]
    own, their = (side_a, side_b) if makers == "A" else (side_b, side_a)
    counts = expected_maker_counts(_side(own), _side(their))
    unused = len(MAKER_COLUMNS) * PER_SUM - len(MAKER_COUNT_NAMES)
    counts |= {f"unused maker field {slot}": 0 for slot in range(unused)}
    for side, line in (("A", side_a), ("B", side_b)):
        counts |= {f"side {side} {name}": v for name, v in zip(SIDE_COUNT_NAMES, line, strict=True)}
    if caller is not None:
        own_counts = totals.alone[caller]
        counts |= {
            f"caller's {name}": own_counts[HAND_COUNT_NAMES.index(name)]
            for name in SEAT_COUNT_NAMES
        }
    else:
        assert totals.alone == {}
    return counts


def test_each_hands_stored_counts_are_what_the_domain_counts_for_it(make_game):
    game = make_game("standard")
    Hand.objects.bulk_create(
        [hand_of(game, number, facts) for number, facts in enumerate(GRID, start=1)]
    )
    stored = Hand.objects.filter(game=game).values_list(
        *FACT_FIELDS, *MAKER_COLUMNS, *CALLER_COLUMNS
    )
    assert len(stored) == len(GRID)

    wrong = []
    for row in stored:
        facts, packs = row[: len(FACT_FIELDS)], row[len(FACT_FIELDS) :]
        number, makers, _tricks, caller = facts[:4]
        got, want = stored_counts(makers, caller, packs), domain_counts(game, facts)
        assert got.keys() == want.keys()
        wrong += [
            f"hand {number} ({describe(GRID[number - 1])}): {name} stored {got[name]}, "
            f"domain {want[name]}"
            for name in want
            if got[name] != want[name]
        ]
    assert not wrong, f"{len(wrong)} counts disagree:\n" + "\n".join(wrong[:25])


def test_a_games_share_counts_only_its_counted_hands(make_season, make_game):
    """A finished game with every hand of the grid, and hands that count for nothing (thrown in,
    misdealt, corrected, undone), those but the thrown-in one carrying a lone march that would
    count if it were read: its share, summed from the stored counts, is what the domain counts
    for its counted hands."""
    season = make_season("standard", format=Season.Format.INDIVIDUAL)
    game = make_game(
        "standard", season=season, status=Game.Status.FINISHED, score_a=10, score_b=4, winner="A"
    )
    hands = [hand_of(game, number, facts) for number, facts in enumerate(GRID, start=1)]
    march, thrown_in = ("A", 0, True, False, 5, ""), ("", None, False, False, None, "")
    left_out = [
        (thrown_in, {"thrown_in": True}),
        (march, {"misdeal": True}),
        (march, {"status": Hand.Status.SUPERSEDED, "change_reason": "corrected"}),
        (march, {"status": Hand.Status.VOIDED, "change_reason": "undone"}),
    ]
    hands += [
        hand_of(game, number, facts, **extra)
        for number, (facts, extra) in enumerate(left_out, start=len(GRID) + 1)
    ]
    Hand.objects.bulk_create(hands)

    shares_replace(season, [game.pk])
    [row] = shares_in_played_order(season)
    share = share_of(row, is_teams=False)

    counted = Hand.objects.filter(game=game, status=Hand.Status.ACTIVE, misdeal=False)
    totals = HandTotals.from_rows(
        [domain_row(game, hand) for hand in counted.values_list(*FACT_FIELDS)]
    )
    side_a, side_b = totals.sides[(game.pk, game.seat_player_ids)]
    assert share.side_a == tuple(side_a)
    assert share.side_b == tuple(side_b)
    assert dict(share.alone) == {caller: tuple(counts) for caller, counts in totals.alone.items()}


def test_the_databases_seat_sums_are_the_shares_counted_one_by_one(make_season, make_game):
    """What the database adds up per seat of the stored shares (``shares_counted``) is what the
    domain counts share by share (``Counted.of_shares``), on the game of every hand above and a
    game with none."""
    season = make_season("standard", format=Season.Format.INDIVIDUAL)
    game = make_game(
        "standard", season=season, status=Game.Status.FINISHED, score_a=10, score_b=4, winner="A"
    )
    Hand.objects.bulk_create(
        [hand_of(game, number, facts) for number, facts in enumerate(GRID, start=1)]
    )
    empty = make_game(
        "standard", season=season, status=Game.Status.FINISHED, score_a=0, score_b=0, winner=""
    )
    shares_replace(season, None)
    shares = [share_of(row, is_teams=False) for row in shares_in_played_order(season)]
    assert {share.game_id for share in shares} == {game.pk, empty.pk}
    counted, expected = shares_counted(season, None), Counted.of_shares(shares)
    assert sorted(counted.players) == sorted(expected.players)
    assert sorted(counted.meetings) == sorted(expected.meetings)
    assert counted.teams == expected.teams == []


def test_a_players_sums_over_many_games_do_not_carry_into_the_next_count(make_season, make_game):
    """One game's packed counts are 16-bit fields; a player's sums over many games pass 65,535
    and are added up spread out, so no field carries into its neighbour."""
    season = make_season("standard", format=Season.Format.INDIVIDUAL)
    games = [
        make_game("standard", season=season, status=Game.Status.FINISHED, winner="A")
        for _ in range(3)
    ]
    most = (1 << (FIELD_BITS - 1)) - 1  # a game's largest count: its hands are fewer than 2**15
    packed = sum(most << (FIELD_BITS * slot) for slot in range(PER_SUM))
    StandingGame.objects.bulk_create(
        StandingGame(
            season=season,
            game=game,
            seat_0_id=game.seat_0_id,
            seat_1_id=game.seat_1_id,
            seat_2_id=game.seat_2_id,
            seat_3_id=game.seat_3_id,
            score_a=0,
            score_b=0,
            winner="A",
            first_number=1,
            **{f"{side}{index}": packed for side in "ab" for index in range(4)},
            **{f"c{index}": packed for index in range(8)},
        )
        for game in games
    )
    shares = [share_of(row, is_teams=False) for row in shares_in_played_order(season)]
    counted, expected = shares_counted(season, None), Counted.of_shares(shares)
    assert sorted(counted.players) == sorted(expected.players)
