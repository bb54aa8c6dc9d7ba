"""Standings through the API: recomputed after hands (on commit), coalesced, idempotent, explained,
and equal to a recompute from scratch after any sequence of recorded, undone and corrected hands."""

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import Player, Season, Team
from scoring.games import services
from scoring.games.jobs import COALESCE_COUNTDOWN
from scoring.games.models import ResultChange
from scoring.standings.models import StandingLine, StandingSnapshot
from scoring.standings.services.recompute import (
    season_rules,
    season_standings_recompute,
    standing_lines_write,
)
from scoring.standings.services.values import snapshot_values
from tests.factories import SeasonFactory, team_game

pytestmark = pytest.mark.django_db


def team_season(league, teams=3):
    season = SeasonFactory(league=league, rulebook__slug="standard")
    made = []
    for index in range(teams):
        one = Player.objects.create(league=league, name=f"T{index} first")
        two = Player.objects.create(league=league, name=f"T{index} second")
        made.append(
            Team.objects.create(season=season, name=f"Team {index}", player_one=one, player_two=two)
        )
    return season, made


def win(game, side="A"):
    for _ in range(3):  # three lone marches: 12 points
        services.hand_record(
            game=game, data=services.HandInput(makers=side, caller_alone=True, tricks_won=5)
        )


def test_hands_reach_the_standings_on_commit(api, league, django_capture_on_commit_callbacks):
    cache.clear()
    season, (first, second, third) = team_season(league)
    with django_capture_on_commit_callbacks(execute=True):
        win(team_game(season, first, second), "A")
        win(team_game(season, third, second), "B")
    body = api.get(f"/api/v1/seasons/{season.pk}/standings/?detail=true").json()
    assert body["is_current"] is True
    rows = body["standings"]["rows"]
    assert [(row["name"], row["rank"], row["wins"], row["losses"]) for row in rows] == [
        ("Team 0", 1, 1, 0),
        ("Team 1", 2, 1, 1),
        ("Team 2", 3, 0, 1),
    ]
    assert (rows[0]["points_for"], rows[0]["marches"], rows[0]["loners_made"]) == (12, 3, 3)
    assert all(row["reason"] for row in rows)
    player_names = {line["player_id"] for line in body["player_stats"]}
    assert first.player_one_id in player_names
    assert len(body["ratings"]) == 6


def test_a_burst_of_hands_queues_one_recompute(
    league, django_capture_on_commit_callbacks, monkeypatch
):
    cache.clear()
    queued = []
    from scoring.standings.tasks import recompute_season_standings

    monkeypatch.setattr(
        recompute_season_standings,
        "apply_async",
        lambda args=None, kwargs=None, **options: queued.append((tuple(args), options)),
    )
    season, (first, second, _third) = team_season(league)
    game = team_game(season, first, second)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(5):
            services.hand_record(game=game, data=services.HandInput(makers="A", tricks_won=3))
    assert queued == [((season.pk,), {"countdown": COALESCE_COUNTDOWN})]


def test_recompute_is_idempotent_and_never_goes_back(league):
    season, (first, second, _third) = team_season(league)
    win(team_game(season, first, second))
    snapshot = season_standings_recompute(season_id=season.pk)
    assert snapshot.results_version == Season.objects.get(pk=season.pk).results_version
    assert season_standings_recompute(season_id=season.pk) is None
    StandingSnapshot.objects.filter(season=season).update(results_version=10_000)
    assert season_standings_recompute(season_id=season.pk, force=True) is None  # older: refused
    assert StandingSnapshot.objects.get(season=season).results_version == 10_000


def test_a_recompute_overtaken_by_another_fold_writes_nothing_and_asks_again(
    league, monkeypatch, django_capture_on_commit_callbacks
):
    """Two recomputes of one season at once: the one whose read was overtaken by the other's fold
    (or by a rules change) leaves the changes pending and asks for another run."""
    from scoring.games import jobs
    from scoring.games.models import ResultChange
    from scoring.standings.services import recompute as standings

    season, (first, second, _third) = team_season(league)
    win(team_game(season, first, second))
    pending = ResultChange.objects.filter(season=season).count()
    assert pending > 0
    compute = standings.snapshot_values

    def overtaken(season_, *args, **kwargs):
        Season.objects.filter(pk=season_.pk).update(results_version=7)  # another run's fold
        return compute(season_, *args, **kwargs)

    monkeypatch.setattr(standings, "snapshot_values", overtaken)
    asked = []
    monkeypatch.setattr(jobs, "standings_recompute_soon", asked.append)
    with django_capture_on_commit_callbacks(execute=True):
        assert season_standings_recompute(season_id=season.pk) is None
    assert asked == [season.pk]
    assert not StandingSnapshot.objects.filter(season=season).exists()
    assert ResultChange.objects.filter(season=season).count() == pending
    monkeypatch.setattr(standings, "snapshot_values", compute)
    # (the simulated fold ran inside the overtaken run's transaction, rolled back with it)
    folded = Season.objects.get(pk=season.pk).results_version
    snapshot = season_standings_recompute(season_id=season.pk)
    assert snapshot.results_version == folded + pending
    assert not ResultChange.objects.filter(season=season).exists()


def test_no_standings_yet_is_a_clear_404(api, league):
    season, _teams = team_season(league)
    response = api.get(f"/api/v1/seasons/{season.pk}/standings/")
    assert response.status_code == 404
    assert response.json()["message"] == "no standings yet: no game of this season has finished"


def test_management_command_recomputes_with_progress(league, capsys):
    season, (first, second, _third) = team_season(league)
    win(team_game(season, first, second))
    call_command("recompute_standings", "--season", str(season.pk))
    out = capsys.readouterr().out
    assert f"[1/1] {season}: recomputed at version" in out
    call_command("recompute_standings", "--all")
    assert "already current" in capsys.readouterr().out


def test_individual_season_ranks_players(api, league, make_game):
    season = SeasonFactory(
        league=league, format=Season.Format.INDIVIDUAL, rulebook__slug="progressive"
    )
    game = make_game(season=season)
    for number in range(8):
        services.hand_record(
            game=game, data=services.HandInput(makers="A", tricks_won=5 if number == 0 else 3)
        )
    snapshot = season_standings_recompute(season_id=season.pk)
    rows = snapshot.standings["rows"]
    assert {row["entrant"] for row in rows[:2]} == {
        game.seat_0_id,
        game.seat_2_id,
    }  # tied: a coin flip orders them
    assert {row["points_for"] for row in rows} == {9, 0}


actions = st.lists(
    st.one_of(
        st.tuples(st.just("record"), st.sampled_from("AB"), st.integers(0, 5), st.booleans()),
        st.tuples(st.just("undo")),
        st.tuples(st.just("correct"), st.sampled_from("AB"), st.integers(0, 5)),
    ),
    max_size=25,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=actions)
def test_snapshot_equals_a_recompute_from_scratch(league, steps):
    """Each example runs in a savepoint rolled back at its end (hypothesis shares the test's
    database transaction between examples)."""
    with transaction.atomic():
        _check_snapshot_against_scratch(league, steps)
        transaction.set_rollback(True)


def _check_snapshot_against_scratch(league, steps):
    season, (first, second, third) = team_season(league)
    games = [team_game(season, first, second), team_game(season, second, third)]
    for index, step in enumerate(steps):
        game = games[index % 2]
        game.refresh_from_db()
        try:
            if step[0] == "record":
                services.hand_record(
                    game=game,
                    data=services.HandInput(
                        makers=step[1], tricks_won=step[2], caller_alone=step[3]
                    ),
                )
            elif step[0] == "undo" and game.hands_played:
                services.hand_undo(game=game, number=game.hands.filter(status="active").count())
            elif step[0] == "correct" and game.hands_played:
                services.hand_correct(
                    game=game,
                    number=1,
                    data=services.HandInput(makers=step[1], tricks_won=step[2]),
                    reason="fix",
                )
        except Exception as error:
            from core.errors import DomainError

            assert isinstance(error, DomainError)
        season_standings_recompute(season_id=season.pk)  # the job after each change
    stored = StandingSnapshot.objects.filter(season=season).first()
    stored_lines = lines_of(season)
    StandingSnapshot.objects.filter(season=season).delete()
    StandingLine.objects.filter(season=season).delete()
    fresh = season_standings_recompute(season_id=season.pk, force=True)
    if stored is None:
        assert fresh.standings["rows"][0]["games"] == 0
        return
    assert fresh.standings == stored.standings
    assert lines_of(season) == stored_lines  # every player's stats among them
    assert fresh.ratings == stored.ratings
    assert_lines_match_snapshot(season)


def lines_of(season) -> dict:
    return {
        (kind, entrant): data
        for kind, entrant, data in StandingLine.objects.filter(season=season).values_list(
            "kind", "entrant_id", "data"
        )
    }


def assert_lines_match_snapshot(season):
    """The per-entrant lines hold exactly the snapshot's ratings, and a stats line for every
    player and team that played (the stats live only on the lines), one row each; the standings
    rows only in the snapshot (a game moves the rank and Buchholz of nearly every entrant)."""
    snapshot = StandingSnapshot.objects.get(season=season)
    stored = lines_of(season)
    assert {kind for kind, _entrant in stored} <= {"rating", "player", "team"}
    expected = {("rating", line["player_id"]): line for line in snapshot.ratings}
    assert {key: data for key, data in stored.items() if key[0] == "rating"} == expected
    stats = {key: data for key, data in stored.items() if key[0] in ("player", "team")}
    assert all(data[f"{kind}_id"] == entrant for (kind, entrant), data in stats.items())
    played = {row["entrant"] for row in snapshot.standings["rows"] if row["games"]}
    players = played
    if season.format == Season.Format.TEAMS:
        assert {("team", team) for team in played} <= set(stats)
        teams = Team.objects.filter(pk__in=played)
        players = {player for team in teams for player in (team.player_one_id, team.player_two_id)}
    assert {("player", player) for player in players} <= set(stats)


def test_standings_come_a_page_at_a_time_without_detail_by_default(
    api, league, django_capture_on_commit_callbacks
):
    season, (first, second, third) = team_season(league)
    with django_capture_on_commit_callbacks(execute=True):
        win(team_game(season, first, second), "A")
        win(team_game(season, third, second), "B")
    assert_lines_match_snapshot(season)
    address = f"/api/v1/seasons/{season.pk}/standings/"
    body = api.get(address + "?limit=2").json()
    assert (body["count"], body["previous"]) == (3, None)
    assert [row["name"] for row in body["standings"]["rows"]] == ["Team 0", "Team 1"]
    assert body["standings"]["tiebreaks"]
    assert not {"player_stats", "team_stats", "ratings", "nights"} & set(body)
    last = api.get(body["next"]).json()
    assert [row["name"] for row in last["standings"]["rows"]] == ["Team 2"]
    assert last["next"] is None and last["previous"]

    detailed = api.get(address + "?limit=1&offset=2&detail=true").json()
    assert [line["team_id"] for line in detailed["team_stats"]] == [third.pk]
    assert {line["player_id"] for line in detailed["player_stats"]} == set(third.player_ids)
    assert {line["player_id"] for line in detailed["ratings"]} == set(third.player_ids)
    assert {key for night in detailed["nights"] for key in night["entrants"]} <= {str(third.pk)}

    refused = api.get(address + "?detail=maybe")
    assert refused.status_code == 400
    assert "detail" in refused.json()["message"]


def test_standings_parameters_are_in_the_schema(api):
    schema = api.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/seasons/{id}/standings/"]["get"]
    assert {"limit", "offset", "detail"} <= {p["name"] for p in operation["parameters"]}
    ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    component = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert {"count", "next", "previous", "standings"} <= set(component["required"])
    assert "player_stats" not in component["required"]


def test_one_players_stats_read_only_that_players_lines(api, league, make_game):
    """The stats endpoint reads the player's own lines, not every player's, nor the snapshot's
    large parts."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    season = SeasonFactory(league=league, format=Season.Format.INDIVIDUAL)
    game = make_game(season=season)
    while game.status != game.Status.FINISHED:  # marches until side A wins
        services.hand_record(game=game, data=services.HandInput(makers="A", tricks_won=5))
        game.refresh_from_db()
    season_standings_recompute(season_id=season.pk, force=True)
    with CaptureQueriesContext(connection) as queries:
        body = api.get(f"/api/v1/seasons/{season.pk}/players/{game.seat_0_id}/stats/").json()
    assert body["stats"]["marches"] == game.hands_played
    assert body["standing"]["entrant"] == game.seat_0_id
    assert body["rating"]["player_id"] == game.seat_0_id
    sql = [query["sql"] for query in queries.captured_queries]
    line_reads = [text for text in sql if "scoring_standingline" in text]
    assert line_reads and all(f'entrant_id" = {game.seat_0_id}' in text for text in line_reads)
    snapshot_reads = [text for text in sql if 'FROM "scoring_standingsnapshot"' in text]
    assert not [text for text in snapshot_reads if "ratings" in text or "nights" in text]
    if connection.vendor == "postgresql":  # the player's row is cut out by the database
        assert not [text for text in snapshot_reads if '"standings"' in text]
        assert [text for text in snapshot_reads if "jsonb_path_query_first" in text]


def test_organiser_chooses_the_tiebreak_chain_and_it_is_used(
    organiser_api, api, league, django_capture_on_commit_callbacks
):
    season, (first, second, third) = team_season(league)
    with django_capture_on_commit_callbacks(execute=True):
        win(team_game(season, first, second), "A")
        win(team_game(season, second, third), "A")
        win(team_game(season, third, first), "A")  # a cycle: everyone 1–1
        response = organiser_api.put(
            f"/api/v1/seasons/{season.pk}/standing-rules/",
            {"tiebreaks": ["wins", "head_to_head", "points_for"], "coin_flip_seed": 7},
            format="json",
        )
    assert response.status_code == 200, response.json()
    assert response.json() == {
        "tiebreaks": ["wins", "head_to_head", "points_for"],
        "coin_flip_seed": 7,
    }
    body = api.get(f"/api/v1/seasons/{season.pk}/standings/").json()
    assert body["is_current"] is True
    assert body["standings"]["tiebreaks"] == ["wins", "head_to_head", "points_for", "coin_flip"]
    assert body["standings"]["coin_flip_seed"] == 7
    assert any("cycle" in row["reason"] for row in body["standings"]["rows"])
    from league.models import AuditEntry

    assert AuditEntry.objects.get(action="standings.rules").after["coin_flip_seed"] == 7


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"tiebreaks": ["wins", "luck"]}, '"luck" is not a tie-break'),
        ({"tiebreaks": ["wins", "wins"]}, "each tie-break can be used once"),
        ({"min_games": -1}, "greater than or equal to 0"),
    ],
)
def test_bad_standing_rules_are_refused_and_write_nothing(organiser_api, league, rules, message):
    season, _teams = team_season(league)
    response = organiser_api.put(
        f"/api/v1/seasons/{season.pk}/standing-rules/", rules, format="json"
    )
    assert response.status_code == 400
    assert message in response.json()["message"]
    season.refresh_from_db()
    assert (season.standing_rules, season.results_version) == ({}, 0)


def test_standing_rules_need_an_organiser(api, league):
    season, _teams = team_season(league)
    response = api.put(
        f"/api/v1/seasons/{season.pk}/standing-rules/", {"min_games": 2}, format="json"
    )
    assert response.status_code in (401, 403)
    season.refresh_from_db()
    assert season.standing_rules == {}


def test_bye_and_forfeit_options_are_refused_until_they_are_recorded(organiser_api, league):
    season, _teams = team_season(league)
    response = organiser_api.put(
        f"/api/v1/seasons/{season.pk}/standing-rules/",
        {"bye_value": "fixed", "bye_points": 5},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "bye_points": ["not a standings option"],
        "bye_value": ["not a standings option"],
    }
    season.refresh_from_db()
    assert season.standing_rules == {}


def _lines_written(season_id: int, force: bool = False) -> set[tuple[str, int]]:
    """The lines a recompute writes (inserts or replaces), read off the statements it runs
    (``connection.execute_wrapper``): the kind and entrant of each row an INSERT into the lines'
    table is given."""
    written: set[tuple[str, int]] = set()
    table = StandingLine._meta.db_table
    columns = [StandingLine._meta.get_field(name).column for name in ("kind", "entrant_id")]

    def watch(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(f'INSERT INTO "{table.upper()}"'):
            params = list(params) if many else [params]
            named = sql[sql.index("(") + 1 : sql.index(")")].replace('"', "").split(", ")
            at = [named.index(column) for column in columns]
            written.update((row[at[0]], row[at[1]]) for row in params)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        season_standings_recompute(season_id=season_id, force=force)
    return written


def test_a_recompute_rewrites_only_the_lines_that_changed(league):
    season, (first, second, third) = team_season(league)
    win(team_game(season, first, second), "A")
    written = _lines_written(season.pk, force=True)
    assert {("player", pk) for pk in (*first.player_ids, *second.player_ids)} <= written

    def player_lines():
        return dict(
            StandingLine.objects.filter(season=season, kind="player").values_list(
                "entrant_id", "data"
            )
        )

    before = player_lines()
    assert _lines_written(season.pk, force=True) == set()  # nothing changed, nothing rewritten
    win(team_game(season, third, second), "B")
    written = _lines_written(season.pk)
    players = {entrant for kind, entrant in written if kind == "player"}
    assert players == {*second.player_ids, *third.player_ids}  # the new game's, no other
    after = player_lines()
    assert all(after[pk] == before[pk] for pk in first.player_ids)
    assert all(after[pk] != before[pk] for pk in second.player_ids)
    assert_lines_match_snapshot(season)


def test_a_fold_reads_and_gives_only_the_lines_of_the_entrants_its_games_touched(league):
    """After one game, a fold gives the lines of its players' stats and ratings, no other, and
    reads the stored digests of those lines only (not every line of their kinds)."""
    from django.test.utils import CaptureQueriesContext

    season, (first, second, third) = team_season(league)
    win(team_game(season, first, second), "A")
    season_standings_recompute(season_id=season.pk, force=True)
    win(team_game(season, third, second), "B")
    season.refresh_from_db()
    base = StandingSnapshot.objects.get(season=season)
    computed = snapshot_values(
        season,
        season_rules(season),
        base=base,
        changed_game_ids=ResultChange.objects.values_list("game_id", flat=True),
    )
    touched = {*second.player_ids, *third.player_ids}
    given = computed.lines.keys() | computed.rendered.keys()
    assert {entrant for kind, entrant in given if kind == "rating"} == touched
    assert {entrant for kind, entrant in given if kind == "player"} == touched
    table = StandingLine._meta.db_table
    with CaptureQueriesContext(connection) as queries:
        standing_lines_write(season_id=season.pk, computed=computed)
    reads = [
        query["sql"]
        for query in queries.captured_queries
        if query["sql"].startswith("SELECT") and table in query["sql"]
    ]
    assert reads and all('"entrant_id" IN' in sql for sql in reads)
