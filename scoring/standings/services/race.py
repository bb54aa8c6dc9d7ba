"""The playoff race service: read a season's standings snapshot and its games still to play, call
the race engine (:mod:`scoring.standings.domain.race`) and store the race with the snapshot.

- *race*: for each team, whether it has clinched a playoff place or first place or is eliminated
  (proven over every outcome, never guessed), its chances from seeded simulated seasons, the
  fewest wins that clinch and a sentence of what it needs. Stored as ``StandingSnapshot.race``.
- *race version*: the snapshot's ``results_version`` the race was computed from
  (``StandingSnapshot.race_version``), and the *games digest* of the games still to play and the
  nights it was computed from (``StandingSnapshot.race_games``,
  :mod:`scoring.standings.services.race_games`); a race with the snapshot's version and the season's
  digest is current and is not computed again
  (idempotent). Adding, moving or removing a season game changes the digest, so the race is
  worked out again though no result changed.
- *stakes* (leverage): for a coming game, how many playoff places its result moves, estimated
  from the same simulated seasons; the organiser's night page orders a night's games by it.
- *win chance* of a game: openskill's ``predict_win`` for the two pairs of players seated at it,
  from the ratings the snapshot keeps; an even 0.5 when one of the four has no rating yet.

- *projected ranks* (individual seasons, where partners rotate and no schedule is fixed): each
  player's range of final ranks from seeded simulated seasons
  (:mod:`scoring.standings.domain.projection`). The nights left are the season's nights not started
  yet; each is given as many rounds as the nights played had (their median), and each player comes
  as often as they have so far. A night under way adds its seated games and, for the rounds not
  started yet, its players. Best and worst possible ranks are proven only once the season is over
  but for games already seated
  (every night played and its end date past): until then a night can still be added, a player
  can walk in and a rotation can be repaired, so nothing is claimed.

The race is worked out for seasons ranked first by wins or win percentage over every night (team
seasons get the race, individual seasons their projected ranks); any other season stores
``{"status": "not_available", "reason": ...}``.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from django.db.models import F
from django.utils import timezone
from openskill.models import PlackettLuce

from core.errors import DomainError
from league.domain.rules import Rulebook as RulebookRules
from league.models import Night, Player, Season
from scoring.games import jobs
from scoring.games.models import Game
from scoring.standings.domain.projection import (
    DEFAULT_PROJECTION_RUNS,
    project_ranks,
    rank_range_text,
    rounds_per_night,
    season_as_it_stands,
)
from scoring.standings.domain.race import (
    DEFAULT_RUNS,
    RaceEntrant,
    RaceInput,
    race_need,
    race_report,
)
from scoring.standings.models import StandingSnapshot
from scoring.standings.services.race_games import games_digest
from scoring.standings.services.recompute import season_rules

STAKES_GAMES = 60
"""At most this many coming games (the nearest nights first) get a stake: enough for the next
night of a large league, few enough that counting them adds little to the simulation."""

SEED_STRIDE = 1_000_003
"""Seeds are ``season_id * SEED_STRIDE + results_version``: the same results give the same odds
(a prime stride, so two seasons' seeds do not meet for any realistic version)."""


def _unavailable(reason: str) -> dict[str, Any]:
    return {"status": "not_available", "reason": reason, "computed_at": timezone.now().isoformat()}


def _win_chances(games: list[dict[str, Any]], ratings: list[dict[str, Any]]) -> list[float]:
    """The chance that side A wins each game, from the players' stored ratings (0.5 when one of
    the four players has none)."""
    model = PlackettLuce()
    known = {rating["player_id"]: rating for rating in ratings}
    chances = []
    for game in games:
        seats = game["seats"]
        if any(player not in known for player in seats):
            chances.append(0.5)
            continue
        side_a = [model.rating(mu=known[p]["mu"], sigma=known[p]["sigma"]) for p in seats[0::2]]
        side_b = [model.rating(mu=known[p]["mu"], sigma=known[p]["sigma"]) for p in seats[1::2]]
        chances.append(float(model.predict_win([side_a, side_b])[0]))
    return chances


def _remaining_games(season: Season, entrants: set[int]) -> list[dict[str, Any]]:
    """The season's games still to be played between two of the ranked teams, nearest first."""
    rows = (
        Game.objects.filter(
            season=season,
            status__in=[Game.Status.SCHEDULED, Game.Status.IN_PROGRESS],
            counts_for_standings=True,
            team_a__isnull=False,
            team_b__isnull=False,
        )
        .order_by(
            F("night__date").asc(nulls_last=True), "night_id", "round_number", "table_number", "pk"
        )
        .values_list(
            "pk",
            "team_a_id",
            "team_b_id",
            "night_id",
            "hands_per_game",
            "seat_0_id",
            "seat_1_id",
            "seat_2_id",
            "seat_3_id",
        )
    )
    return [
        {
            "id": pk,
            "team_a": team_a,
            "team_b": team_b,
            "night": night,
            "hands_per_game": hands_per_game,
            "seats": seats,
        }
        for pk, team_a, team_b, night, hands_per_game, *seats in rows
        if team_a in entrants and team_b in entrants and team_a != team_b
    ]


def season_race_compute(
    *,
    season_id: int,
    force: bool = False,
    runs: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any] | None:
    """Work out a season's playoff race (or, for an individual season, its projected ranks) from
    its snapshot and store it there.

    Returns the stored race, or ``None`` when there is no snapshot yet or the race is already
    current (for the snapshot's results and the season's games still to play; unless
    ``force``). ``runs``: simulated seasons (by default 10,000 for a race and 2,000 for
    projected ranks). ``progress`` is called with one line saying what was done.
    A race computed from an older snapshot never overwrites a newer one.
    """
    jobs.race_pending_clear(season_id)  # changes from now on ask for another run
    snapshot = (
        StandingSnapshot.objects.filter(season_id=season_id)
        .select_related("season", "season__rulebook")
        .only(
            "pk",
            "results_version",
            "race_version",
            "race_games",
            "standings",
            "ratings",
            "season__format",
            "season__standing_rules",
            "season__rulebook__options",
            "season__name",
            "season__ends_on",
        )
        .first()
    )
    if snapshot is None:
        return None
    version = snapshot.results_version
    # Read before the games the race reads: a game added meanwhile leaves the stored digest
    # behind the season's, so the race is only ever redone, never wrongly taken as current.
    digest = games_digest(season_id)
    if snapshot.race_version == version and snapshot.race_games == digest and not force:
        return None
    started = time.perf_counter()
    race, summary = _race_of(snapshot, runs)
    seconds = time.perf_counter() - started
    race["duration_ms"] = int(seconds * 1000)
    StandingSnapshot.objects.filter(pk=snapshot.pk, results_version=version).update(
        race=race, race_version=version, race_games=digest
    )
    if progress is not None:
        if race["status"] != "ok":
            summary = f"{summary}: {race['reason']}"
        progress(f"season {season_id}: {summary} in {seconds:.2f} s")
    return race


def _race_of(snapshot: StandingSnapshot, runs: int | None) -> tuple[dict[str, Any], str]:
    """The race JSON of a snapshot, and a short summary for the progress line."""
    season = snapshot.season
    try:
        rules = season_rules(season)
    except DomainError:
        return _unavailable("The season's standings rules are not valid."), "not worked out"
    if rules.tiebreaks[0] not in ("wins", "win_pct"):
        reason = "The race is worked out for seasons ranked first by wins or win percentage."
        return _unavailable(reason), "not worked out"
    if rules.count_best_nights is not None:
        reason = "The race is not worked out when only each entrant's best nights count."
        return _unavailable(reason), "not worked out"

    rows = snapshot.standings.get("rows", [])
    if season.format != Season.Format.TEAMS:
        return _projection_of(snapshot, rules, DEFAULT_PROJECTION_RUNS if runs is None else runs)
    runs = DEFAULT_RUNS if runs is None else runs
    if not rows:
        return _unavailable("No team is in the standings yet."), "not worked out"
    if rules.playoff_spots >= len(rows):
        reason = (
            f"Every team makes the playoffs: {len(rows)} teams for {rules.playoff_spots} places."
        )
        return _unavailable(reason), "not worked out"
    names = {row["entrant"]: row["name"] for row in rows}
    games = _remaining_games(season, set(names))
    left = Counter(team for game in games for team in (game["team_a"], game["team_b"]))
    draws_possible = _draws_possible(season, [game["hands_per_game"] for game in games], rows)
    measure = rules.tiebreaks[0]
    entrants = tuple(
        RaceEntrant(
            id=row["entrant"],
            units=_units(row, draws_possible),
            games=row["games"] + left[row["entrant"]] if measure == "win_pct" else 0,
        )
        for row in rows
    )
    spots = rules.playoff_spots
    race_input = RaceInput(
        entrants=entrants,
        remaining=tuple((game["team_a"], game["team_b"]) for game in games),
        measure=measure,
        spots=spots,
        draws_possible=draws_possible,
    )
    chances = _win_chances(games, snapshot.ratings)
    watched = list(range(min(len(games), STAKES_GAMES)))  # the nearest nights first
    report = race_report(
        race_input,
        probabilities=chances,
        order=[row["entrant"] for row in rows],
        runs=runs,
        seed=season.pk * SEED_STRIDE + snapshot.results_version,
        stakes_for=watched,
    )
    # A bye that counts as a win adds wins the scoring app cannot foresee (byes are scheduled by
    # tournaments): the odds stand, but nothing is claimed as proven.
    proven = not rules.bye_counts_as_win
    lines = []
    for line in report.lines:
        data = line.to_dict()
        data["name"] = names[line.id]
        data["need"] = race_need(line, spots)
        if not proven:
            data.update(
                clinched=False,
                eliminated=False,
                decided=False,
                clinched_first=False,
                eliminated_first=False,
                wins_to_clinch=None,
                needs_help=False,
                need="Not yet decided.",
            )
        lines.append(data)
    stakes = [
        {
            "game": games[index]["id"],
            "night": games[index]["night"],
            "team_a": games[index]["team_a"],
            "team_b": games[index]["team_b"],
            "name_a": names[games[index]["team_a"]],
            "name_b": names[games[index]["team_b"]],
            "chance_a": round(chances[index], 4),
            "leverage": round(report.stakes[index], 4),
        }
        for index in watched
    ]
    stakes.sort(key=lambda stake: (-stake["leverage"], stake["game"]))
    games_played = sum(row["games"] for row in rows) // 2
    race = {
        "status": "ok",
        "reason": (
            ""
            if proven
            else "Byes count as wins in this season and are scheduled outside the results, "
            "so clinched and eliminated are not claimed; the odds leave future byes out."
        ),
        "proven": proven,
        "measure": measure,
        "spots": spots,
        "runs": report.runs,
        "seed": report.seed,
        "draws_possible": draws_possible,
        "results_version": snapshot.results_version,
        "games_played": games_played,
        "games_left": len(games),
        "computed_at": timezone.now().isoformat(),
        "lines": lines,
        "stakes": stakes,
    }
    summary = f"{len(entrants)} teams, {len(games)} games left, {report.runs:,} runs"
    return race, summary


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _units(row: dict, draws_possible: bool) -> int:
    """An entrant's standing on wins so far: two a win and one a draw where draws can happen,
    else its wins (the race's ``units``)."""
    return 2 * row["wins"] + row["draws"] if draws_possible else row["wins"]


def _draws_possible(season: Season, hands_per_game: list[int | None], rows: list[dict]) -> bool:
    """Whether a game can be drawn: games of a fixed number of hands, timed games whose tie at
    time is a draw (:attr:`~league.domain.rules.Rulebook.draws_possible`), or draws already
    seen."""
    by_rules = RulebookRules.from_options(season.rulebook.options or {}).draws_possible
    return by_rules or any(hands_per_game) or any(row["draws"] for row in rows)


def _projection_of(snapshot: StandingSnapshot, rules, runs: int) -> tuple[dict[str, Any], str]:
    """The projected ranks of an individual season's players, and the progress line's summary
    (the words are in the module docstring)."""
    season = snapshot.season
    rows = snapshot.standings.get("rows", [])
    if not rows:
        return _unavailable("No player is in the standings yet."), "not worked out"
    nights_played = snapshot.nights or []
    nights = list(Night.objects.filter(season=season).not_archived().values_list("pk", "status"))
    to_come = [
        pk for pk, status in nights if status in (Night.Status.PLANNED, Night.Status.CHECK_IN)
    ]
    under_way = [pk for pk, status in nights if status == Night.Status.PLAYING]
    finished = {pk for pk, status in nights if status == Night.Status.FINISHED}
    rounds = rounds_per_night(nights_played, finished)
    if to_come and not rounds:
        reason = (
            "No night has been played yet, so there is nothing to project the nights left from."
        )
        return _unavailable(reason), "not worked out"

    games = list(
        Game.objects.filter(
            season=season,
            status__in=[Game.Status.SCHEDULED, Game.Status.IN_PROGRESS],
            counts_for_standings=True,
        )
        .order_by("night_id", "round_number", "table_number", "pk")
        .values_list("night_id", "round_number", "hands_per_game", "seat_0_id", "seat_1_id",
                     "seat_2_id", "seat_3_id")
    )  # fmt: skip
    tonight = Game.objects.filter(season=season, night_id__in=under_way).values_list(
        "night_id", "round_number", "seat_0_id", "seat_1_id", "seat_2_id", "seat_3_id"
    )
    started: Counter[int] = Counter()
    present: dict[int, set[int]] = {night: set() for night in under_way}
    for night, round_number, *seats in tonight:
        started[night] = max(started[night], round_number or 0)
        present[night].update(seats)

    order = [row["entrant"] for row in rows]
    names = {row["entrant"]: row["name"] for row in rows}
    newcomers = [
        player
        for seats in [game[3:] for game in games] + [list(p) for p in present.values()]
        for player in seats
        if player not in names
    ]
    newcomers = list(dict.fromkeys(newcomers))
    names.update(Player.objects.filter(pk__in=newcomers).values_list("pk", "name"))
    draws_possible = _draws_possible(season, [game[2] for game in games], rows)
    # A bye that counts as a win is a result the simulation leaves out (it seats nobody out on
    # purpose), so with such byes nothing is claimed as proven either.
    schedule_known = (
        not rules.bye_counts_as_win
        and not to_come
        and not under_way
        and season.ends_on is not None
        and season.ends_on < timezone.localdate()
        and len(finished) == len(nights)
    )
    projection_input = season_as_it_stands(
        rows=rows,
        nights_played=nights_played,
        ratings=snapshot.ratings or [],
        newcomers=newcomers,
        tables=[game[3:] for game in games],
        under_way={night: (started[night], present[night]) for night in under_way},
        nights_to_come=len(to_come),
        rounds=rounds,
        measure=rules.tiebreaks[0],
        draws_possible=draws_possible,
        schedule_known=schedule_known,
    )
    projection = project_ranks(
        projection_input, runs=runs, seed=season.pk * SEED_STRIDE + snapshot.results_version
    )
    ranks = {row["entrant"]: row["rank"] for row in rows}
    lines = []
    for line in projection.lines:
        data = line.to_dict()
        data.update(
            name=names.get(line.id, f"#{line.id}"),
            rank=ranks.get(line.id),
            projected=rank_range_text(line.low, line.high),
        )
        lines.append(data)
    # Only the standings' players are shown; a newcomer seated tonight is simulated all the same.
    shown = set(order)
    lines = [line for line in lines if line["id"] in shown]
    if schedule_known:
        note = "Every game left is known, so the best and worst possible ranks are proven."
    elif rules.bye_counts_as_win:
        note = (
            "Byes count as wins in this season; the simulation leaves them out and proves nothing."
        )
    else:
        note = "The season can still change (nights to come or to add), so no rank is proven."
    race = {
        "status": "ok",
        "kind": "individual",
        "reason": note,
        "proven": schedule_known,
        "measure": rules.tiebreaks[0],
        "runs": projection.runs,
        "seed": projection.seed,
        "draws_possible": draws_possible,
        "results_version": snapshot.results_version,
        "games_played": sum(row["games"] for row in rows) // 4,
        "games_left": len(games),
        "nights_left": len(to_come),
        "rounds_per_night": rounds,
        "computed_at": timezone.now().isoformat(),
        "lines": [],
        "stakes": [],
        "projections": lines,
    }
    summary = (
        f"{len(lines)} players, {_count(len(to_come), 'night')} and "
        f"{_count(len(games), 'seated game')} left, {projection.runs:,} runs"
    )
    return race, summary
