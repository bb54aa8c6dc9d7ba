"""The from-scratch sums (scoring.domain.season_sums) render what the running totals render from
the same games: each stats line as the very JSON text of the totals' line, its digest from the
counts as from the rendered line, pair records and Buchholz, in both formats."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.domain.season_sums import (
    PairCounts,
    buchholz_sums,
    meet,
    player_line_text,
    stats_digest,
    stats_line_digest,
    team_line_text,
)
from scoring.domain.season_totals import SeasonTotals
from tests.domain.test_season_totals import build, game_strategy


def _columns(shares, ids, *, teams):
    index = {entrant: position for position, entrant in enumerate(ids)}
    if teams:
        sides = [[index[share.teams[side]] for share in shares] for side in (0, 1)]
        sides = ((sides[0],), (sides[1],))
    else:
        seats = [[index[share.seats[seat]] for share in shares] for seat in range(4)]
        sides = ((seats[0], seats[2]), (seats[1], seats[3]))
    results = (
        [0 if share.winner == "A" else 1 if share.winner == "B" else 2 for share in shares],
        [0 if share.winner == "B" else 1 if share.winner == "A" else 2 for share in shares],
    )
    return sides, results


@settings(max_examples=60, deadline=None)
@given(teams=st.booleans(), data=st.data())
def test_the_sums_render_what_the_running_totals_render(teams, data):
    specs = data.draw(st.lists(game_strategy(teams), min_size=1, max_size=12))
    shares = [
        build(game_id, spec, teams=teams, order=game_id)[2] for game_id, spec in enumerate(specs, 1)
    ]
    totals = SeasonTotals(is_teams=teams)
    for share in shares:
        totals.add(share)

    players = sorted(totals.players)
    partners, opponents = PairCounts(players), PairCounts(players)
    sides, results = _columns(shares, players, teams=False)
    meet(opponents, sides, results, partners=partners)
    for position, player in enumerate(players):
        rendered = totals.player_line(player)
        text = player_line_text(
            player, totals.players[player], partners.text_of(position), opponents.text_of(position)
        )
        assert text == json.dumps(rendered)
        assert json.loads(text) == rendered
        assert opponents.records_of(position) == totals.opponents[player]
        digest = stats_digest(
            totals.players[player], partners.columns_of(position), opponents.columns_of(position)
        )
        assert digest == stats_line_digest(rendered) == stats_line_digest(json.loads(text))

    entrants = sorted(totals.records)
    scores = [2 * totals.records[entrant][1] + totals.records[entrant][3] for entrant in entrants]
    if teams:
        team_pairs = PairCounts(entrants)
        sides, results = _columns(shares, entrants, teams=True)
        meet(team_pairs, sides, results)
        for position, team in enumerate(entrants):
            rendered = totals.team_line(team)
            text = team_line_text(team, totals.teams[team], team_pairs.text_of(position))
            assert text == json.dumps(rendered)
            digest = stats_digest(totals.teams[team], team_pairs.columns_of(position))
            assert digest == stats_line_digest(rendered)
        size = 2
    else:
        size = 4
    doubled = buchholz_sums(len(entrants), sides, scores)
    for entrant, value in zip(entrants, doubled, strict=True):
        assert value / size == totals.buchholz_of(entrant)
