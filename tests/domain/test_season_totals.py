"""Running totals (scoring.standings.domain.season_totals) render exactly what the engines compute
from all the games: player and team stats, standings with their reasons and Buchholz, nights; and
after any sequence of games put in, taken out and changed, the totals equal those of the games
left."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.standings.domain.season_totals import GameShare, SeasonTotals, buchholz_changes
from scoring.standings.domain.standings import GameRecord, SeasonRules, compute_standings
from scoring.standings.domain.stats import (
    HandRecord,
    HandTotals,
    hand_rows,
    player_stats,
    side_tallies,
    stats_line_stored,
    team_stats,
)

PLAYERS = range(1, 9)
TEAM_OF = {player: (player + 1) // 2 + 100 for player in PLAYERS}  # teams 101-104: (1, 2), ...

hands_strategy = st.lists(
    st.tuples(
        st.sampled_from("AB"),  # makers
        st.one_of(st.none(), st.integers(0, 5)),  # tricks (None: a renege ended it)
        st.integers(0, 2),  # caller: seat offset on the makers' side, 2 = not recorded
        st.booleans(),  # alone
        st.booleans(),  # defender alone
        st.sampled_from(["A", "B"]),  # who reneged, when tricks is None
        st.booleans(),  # thrown in
    ),
    max_size=6,
)


def game_strategy(teams: bool):
    if teams:
        seats = st.permutations([1, 2, 3, 4, 5, 6, 7, 8]).map(lambda p: (p[0], p[1]))
        seated = seats.filter(lambda pair: TEAM_OF[pair[0]] != TEAM_OF[pair[1]]).map(
            lambda pair: (pair[0], pair[1], _partner(pair[0]), _partner(pair[1]))
        )
    else:
        seated = st.permutations(list(PLAYERS)).map(lambda p: tuple(p[:4]))
    return st.tuples(
        seated,
        st.integers(0, 12),
        st.integers(0, 12),
        st.sampled_from([1, 2, None]),  # night
        hands_strategy,
    )


def _partner(player: int) -> int:
    return player + 1 if player % 2 else player - 1


def build(game_id, spec, *, teams, order):
    """A game record, its hand records and its share."""
    seats, points_a, points_b, night, facts = spec
    winner = None if points_a == points_b else "A" if points_a > points_b else "B"
    hands = []
    for number, (makers, tricks, caller, alone, defender, renege, thrown) in enumerate(facts, 1):
        if thrown:
            hands.append(HandRecord(game_id, number, seats, None, thrown_in=True))
            continue
        first = 0 if makers == "A" else 1
        caller_id = None if caller == 2 else seats[first + 2 * caller]
        hands.append(
            HandRecord(
                game_id,
                number,
                seats,
                makers,
                tricks_won=tricks,
                caller_id=caller_id,
                caller_alone=alone,
                defender_alone=defender,
                renege=renege if tricks is None else None,
            )
        )
    team_ids = (TEAM_OF[seats[0]], TEAM_OF[seats[1]]) if teams else None
    record = GameRecord(
        game_id=game_id,
        side_a=(team_ids[0],) if teams else (seats[0], seats[2]),
        side_b=(team_ids[1],) if teams else (seats[1], seats[3]),
        points_a=points_a,
        points_b=points_b,
        winner=winner,
        night_id=night,
        played_order=order,
        players_a=(seats[0], seats[2]) if teams else (),
        players_b=(seats[1], seats[3]) if teams else (),
    )
    counted = HandTotals.from_rows(hand_rows(hands))
    sides = counted.sides.get((game_id, seats))
    share = GameShare(
        game_id=game_id,
        seats=seats,
        teams=team_ids,
        points_a=points_a,
        points_b=points_b,
        winner=winner,
        night_id=night,
        side_a=tuple(sides[0]) if sides else None,
        side_b=tuple(sides[1]) if sides else None,
        alone=tuple((caller, tuple(counts)) for caller, counts in counted.alone.items()),
    )
    return record, hands, share


def expected_parts(records, hands, rules, *, teams, entrants):
    totals = HandTotals.from_rows(hand_rows(hands))
    tallies = side_tallies(totals)
    records = [
        GameRecord(
            **{
                **{field: getattr(r, field) for field in r.__dataclass_fields__},
                "tally_a": tallies[r.game_id][0] if r.game_id in tallies else r.tally_a,
                "tally_b": tallies[r.game_id][1] if r.game_id in tallies else r.tally_b,
            }
        )
        for r in records
    ]
    names = {entrant: f"E{entrant}" for entrant in range(1, 200)}
    return {
        "standings": compute_standings(records, rules, entrants=entrants, names=names).to_dict(),
        "players": [stats_line_stored(line.to_dict()) for line in player_stats(records, totals)],
        "teams": [stats_line_stored(line.to_dict()) for line in team_stats(records, totals)]
        if teams
        else [],
    }


def rendered_parts(totals: SeasonTotals, rules, *, teams, entrants, buchholz=None):
    names = {entrant: f"E{entrant}" for entrant in range(1, 200)}
    if buchholz is None:
        buchholz = {entrant: totals.buchholz_of(entrant) for entrant in totals.records}
    return {
        "standings": totals.standings(
            rules, entrants=entrants, names=names, buchholz=buchholz
        ).to_dict(),
        "players": [totals.player_line(who) for who in sorted(totals.players)],
        "teams": [totals.team_line(who) for who in sorted(totals.teams)] if teams else [],
    }


rules_strategy = st.sampled_from(
    [
        SeasonRules(),
        SeasonRules(tiebreaks=("wins", "head_to_head", "buchholz", "marches")),
        SeasonRules(tiebreaks=("buchholz", "euchres_inflicted", "loners_made"), min_games=2),
    ]
)


@settings(max_examples=150, deadline=None)
@given(
    teams=st.booleans(),
    data=st.data(),
    rules=rules_strategy,
)
def test_totals_equal_the_engines_after_any_changes(teams, data, rules):
    """Games are put in, some taken out, some replaced by another result; at every step the
    totals render what the engines compute from the games then counted, and the Buchholz moved
    by the changes alone equals the one worked out afresh."""
    specs = data.draw(st.lists(game_strategy(teams), min_size=1, max_size=8))
    changes = data.draw(
        st.lists(st.tuples(st.integers(0, 7), st.one_of(st.none(), game_strategy(teams))))
    )
    entrants = sorted(set(TEAM_OF.values())) if teams else []
    built = {n: build(n, spec, teams=teams, order=n) for n, spec in enumerate(specs)}
    totals = SeasonTotals(is_teams=teams)
    for _record, _hands, share in built.values():
        totals.add(share)
    buchholz = {entrant: totals.buchholz_of(entrant) for entrant in totals.records}
    for step, (which, replacement) in enumerate(changes):
        game_id = which % (len(specs) + 1)
        scores_before = {entrant: totals.score(entrant) for entrant in totals.records}
        totals.changed_entrants.clear()
        if game_id in built:
            totals.add(built.pop(game_id)[2], -1)
        if replacement is not None:
            built[game_id] = build(game_id, replacement, teams=teams, order=100 + step)
            totals.add(built[game_id][2])
        buchholz = buchholz_changes(totals, scores_before, buchholz)
        fresh = {entrant: totals.buchholz_of(entrant) for entrant in totals.records}
        assert {e: b for e, b in buchholz.items() if e in totals.records} == fresh
    records = [record for record, _hands, _share in built.values()]
    hands = [hand for _record, game_hands, _share in built.values() for hand in game_hands]
    expected = expected_parts(records, hands, rules, teams=teams, entrants=entrants)
    assert rendered_parts(totals, rules, teams=teams, entrants=entrants) == expected
    assert (
        rendered_parts(totals, rules, teams=teams, entrants=entrants, buchholz=buchholz) == expected
    )


def test_totals_refuse_best_nights():
    totals = SeasonTotals(is_teams=False)
    try:
        totals.standings(SeasonRules(count_best_nights=2), entrants=[], names={}, buchholz={})
    except ValueError as error:
        assert "best nights" in str(error)
    else:
        raise AssertionError("best nights were ranked from totals")
