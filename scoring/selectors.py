"""Reads for games and hands (services write; selectors read)."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import OuterRef, Q, Subquery

from league.models import Night
from scoring.domain.engine import HandScore, Outcome, next_dealer
from scoring.models import Game, Hand


@contextmanager
def one_moment() -> Iterator[None]:
    """Every read inside sees the database at one moment.

    PostgreSQL's default (read committed) gives each statement its own snapshot, so a page that
    reads a game's row and then its hands can show a hand committed in between without the score
    it brought (hand 3 to enter, 2–0 shown). Here the reads share one repeatable-read, read-only
    snapshot, which takes no lock and never waits for a writer. SQLite's embedded default keeps
    autocommit reads (its transactions are immediate, and would make a reader queue behind
    writers); inside a transaction already open nothing changes."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def game_counting_hands(*, game: Game) -> list[Hand]:
    return list(game.hands.filter(status=Hand.Status.ACTIVE).order_by("number"))


def game_next_dealer_seat(*, game: Game, hands: list[Hand] | None = None) -> int | None:
    """The seat that deals the next hand, or ``None`` once the game is over: from the running
    state kept on the game row, or from ``hands`` (the game's counting hands) when given."""
    if game.status == Game.Status.FINISHED:
        return None
    if hands is None:
        if game.next_dealer_seat is None:
            return game.first_dealer_seat
        return game.next_dealer_seat
    return dealer_after(hands[-1]) if hands else game.first_dealer_seat


def dealer_after(hand: Hand) -> int:
    """The seat that deals after ``hand`` (a misdeal is dealt again by the same seat)."""
    return next_dealer(hand.dealer_seat, HandScore(Outcome(hand.outcome), 0, 0, ""))


# --------------------------------------------------------------------------------------------
# Public reads: leagues, seasons, snapshots, nights, players and teams (no login; read only)
# --------------------------------------------------------------------------------------------


def league_public_list():
    """Every league, by name, with its number of seasons."""
    from django.db.models import Count

    from league.models import League

    return League.objects.annotate(season_count=Count("seasons")).order_by("name")


def league_public_get(*, slug: str):
    """A league by its slug, or ``NotFoundError``."""
    from league.errors import NotFoundError
    from league.models import League

    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise NotFoundError("no such league")
    return league


def season_public_get(*, league, season_id: int):
    """A season of ``league`` with its snapshot loaded (``snapshot`` may be absent)."""
    from league.errors import NotFoundError
    from league.models import Season

    season = (
        Season.objects.not_archived()
        .filter(league=league, pk=season_id)
        .select_related("rulebook")
        .first()
    )
    if season is None:
        raise NotFoundError("no such season in this league")
    return season


def season_snapshot_get(*, season):
    """The season's standings snapshot, or ``None`` before any game has finished."""
    from scoring.models import StandingSnapshot

    return StandingSnapshot.objects.filter(season=season).first()


def season_standings_head(*, season):
    """The season's snapshot with its version and time, ``standings_meta`` (the standings but
    their rows: the tie-break chain, the seed...) and ``rows``, the standings rows as a
    :class:`StandingsRows` read a slice at a time; or ``None``. Never the stats, ratings, nights
    or race (megabytes in a large season), and on PostgreSQL not the whole rows either."""
    from django.db import connection
    from django.db.models import IntegerField, JSONField
    from django.db.models.expressions import RawSQL

    from scoring.models import StandingSnapshot

    fields = ("season_id", "results_version", "computed_at")
    snapshots = StandingSnapshot.objects.filter(season=season)
    if connection.vendor != "postgresql":
        snapshot = snapshots.only(*fields, "standings").first()
        if snapshot is not None:
            rows = snapshot.standings.get("rows", [])
            snapshot.standings_meta = {k: v for k, v in snapshot.standings.items() if k != "rows"}
            snapshot.rows = StandingsRows(snapshot.pk, len(rows), rows)
        return snapshot
    snapshot = (
        snapshots.only(*fields)
        .annotate(
            standings_meta=RawSQL("standings - 'rows'", [], output_field=JSONField()),
            row_count=RawSQL(
                "COALESCE(jsonb_array_length(standings -> 'rows'), 0)",
                [],
                output_field=IntegerField(),
            ),
        )
        .first()
    )
    if snapshot is not None:
        snapshot.rows = StandingsRows(snapshot.pk, snapshot.row_count)
    return snapshot


class StandingsRows:
    """A snapshot's standings rows as a sequence of ``count`` rows of which a slice is read at
    a time (as the API's paginator asks): on PostgreSQL the database cuts the slice out of the
    stored standings, so a page of a large season decodes its own rows only (a 1M-hand
    season's rows are 0.7 MB of JSON). ``rows``: the rows already read."""

    def __init__(self, snapshot_pk: int, count: int, rows: list | None = None) -> None:
        self.snapshot_pk, self.count, self.rows = snapshot_pk, count, rows

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: slice) -> list[dict]:
        if self.rows is not None:
            return self.rows[index]
        start, stop, step = index.indices(self.count)
        if stop <= start:
            return []
        from django.db.models import JSONField
        from django.db.models.expressions import RawSQL

        from scoring.models import StandingSnapshot

        page = RawSQL(
            "jsonb_path_query_array(standings, '$.rows[$a to $b]', "
            "jsonb_build_object('a', %s, 'b', %s))",
            [start, stop - 1],
            output_field=JSONField(),
        )
        rows = (
            StandingSnapshot.objects.filter(pk=self.snapshot_pk)
            .annotate(page=page)
            .values_list("page", flat=True)
            .first()
        )
        return (rows or [])[::step]


def season_lines(*, season_id: int, kind: str, entrant_ids) -> list[dict]:
    """The stored lines (``StandingLine.data``) of one kind for some entrants of a season, in the
    order of ``entrant_ids`` (an entrant with no line is left out)."""
    from scoring.models import StandingLine

    order = {entrant: index for index, entrant in enumerate(entrant_ids)}
    found = StandingLine.objects.filter(
        season_id=season_id, kind=kind, entrant_id__in=list(order)
    ).values_list("entrant_id", "data")
    return [data for _entrant, data in sorted(found, key=lambda pair: order[pair[0]])]


def season_all_lines(*, season_id: int, kind: str) -> list[dict]:
    """Every stored line of one kind in a season, in entrant order: e.g. every player's stats,
    as the engines list them (``scoring.domain.stats.player_stats``). Tens of megabytes in a
    large season: for exports, checks and benchmarks, never a page."""
    from scoring.models import StandingLine

    return list(
        StandingLine.objects.filter(season_id=season_id, kind=kind)
        .order_by("entrant_id")
        .values_list("data", flat=True)
    )


def player_lines(*, season_ids, player_id: int) -> dict[int, dict[str, dict]]:
    """One player's stored lines in some seasons: ``{season_id: {kind: data}}``, in one query.
    ``standing`` lines are a player's only in an individual season (else they are a team's)."""
    from django.db.models import Q

    from league.models import Season
    from scoring.models import StandingLine

    found: dict[int, dict[str, dict]] = {}
    rows = StandingLine.objects.filter(season_id__in=list(season_ids), entrant_id=player_id).filter(
        ~Q(kind=StandingLine.Kind.TEAM)
        & (~Q(kind=StandingLine.Kind.STANDING) | Q(season__format=Season.Format.INDIVIDUAL))
    )
    for season_id, kind, data in rows.values_list("season_id", "kind", "data"):
        found.setdefault(season_id, {})[kind] = data
    return found


def pending_changes(season_ref: str = "pk"):
    """An expression: the number of the season's pending changes (``ResultChange`` rows not yet
    folded by a recompute), for the season named by ``season_ref`` in the outer query."""
    from django.db.models import Count, OuterRef, Subquery
    from django.db.models.functions import Coalesce

    from scoring.models import ResultChange

    count = (
        ResultChange.objects.filter(season_id=OuterRef(season_ref))
        .order_by()
        .values("season_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(count), 0)


def results_version_expression():
    """An expression on a query of seasons: each season's results version, its folded counter
    plus its pending changes. It grows by one at every committed change to its results, in commit
    order, and a recompute's fold leaves it where it is."""
    from django.db.models import F

    return F("results_version") + pending_changes("pk")


def season_results_version(*, season_id: int) -> int:
    """The season's results version now (0 for an unknown season); one query."""
    from league.models import Season

    found = (
        Season.objects.filter(pk=season_id)
        .annotate(version=results_version_expression())
        .values_list("version", flat=True)
        .first()
    )
    return found or 0


def results_are_current(*, season_id: int, version: int | None) -> bool:
    """Whether what was computed at results ``version`` (a snapshot's, a race's; ``None``: not
    computed) takes in every result the season has now."""
    return version is not None and version >= season_results_version(season_id=season_id)


def season_page_versions(
    *, season_id: int
) -> tuple[int, int | None, int | None, str | None, int | None]:
    """``(results_version, snapshot results_version, race_version, race_games, newest game)``:
    one query, for the keys of cached pages that show the playoff race (it is stored after the
    snapshot, and worked out again, at the same version, when the season's games still to play
    change) and the games being played (a round started creates games before any result: the
    id of the season's newest game, read from its ``game_season_newest`` index)."""
    from league.models import Season

    newest = (
        Game.objects.filter(season_id=OuterRef("pk")).order_by("-created_at", "id").values("pk")[:1]
    )
    found = (
        Season.objects.filter(pk=season_id)
        .annotate(version=results_version_expression(), newest_game=Subquery(newest))
        .values_list(
            "version",
            "snapshot__results_version",
            "snapshot__race_version",
            "snapshot__race_games",
            "newest_game",
        )
        .first()
    )
    return found if found is not None else (0, None, None, None, None)


def season_games_in_progress(*, season) -> list[Game]:
    """The season's games being played now, by night, round and table: a game with a hand not
    yet over, and a game of a night being played that belongs to the night's latest started
    round, even before its first hand (the round was called: its tables are playing, and the
    first hand is entered only once it is over)."""
    latest_round = (
        Game.objects.filter(night_id=OuterRef("night_id"))
        .exclude(status=Game.Status.VOIDED)
        .order_by("-round_number")
        .values("round_number")[:1]
    )
    called = Q(
        status=Game.Status.SCHEDULED,
        night__status=Night.Status.PLAYING,
        round_number=Subquery(latest_round),
    )
    return list(
        Game.objects.filter(season=season)
        .filter(Q(status=Game.Status.IN_PROGRESS) | called)
        .select_related("team_a", "team_b", "seat_0", "seat_1", "seat_2", "seat_3", "night")
        .order_by("night__date", "round_number", "table_number", "pk")
    )


def night_games(*, night) -> list[Game]:
    """A night's games, by round and table."""
    return list(
        Game.objects.filter(night=night)
        .select_related("team_a", "team_b", "seat_0", "seat_1", "seat_2", "seat_3")
        .order_by("round_number", "table_number", "pk")
    )


class PlayerGames(NamedTuple):
    """A player's games: ``recent`` (started: being played, over or voided; newest first) and
    ``upcoming`` (seated, not started; soonest first, by their night's date, round and table)."""

    recent: list[Game]
    upcoming: list[Game]


def player_games(*, player, limit: int = 50) -> PlayerGames:
    """A player's ``limit`` most recent games in any season and ``limit`` games to come, with their
    season, night, teams and seated players; none of an archived season or night.

    The games are read alone, their teams and players after them by id (once for both lists):
    one join of the game with its season, two teams and four players cost PostgreSQL more to plan
    (10 ms at 100,000 games) than the plain reads cost in all."""
    from django.db.models import F, Q

    from league.models import Player, Team

    seated = (
        Game.objects.filter(
            Q(seat_0=player) | Q(seat_1=player) | Q(seat_2=player) | Q(seat_3=player)
        )
        .filter(Q(night=None) | Q(night__archived_at=None), season__archived_at=None)
        .select_related("season", "night")
    )
    recent = list(
        seated.exclude(status=Game.Status.SCHEDULED).order_by("-created_at", "-pk")[:limit]
    )
    upcoming = list(
        seated.filter(status=Game.Status.SCHEDULED).order_by(
            F("night__date").asc(nulls_last=True), "round_number", "table_number", "pk"
        )[:limit]
    )
    games = recent + upcoming
    players = Player.objects.in_bulk({pk for game in games for pk in game.seat_player_ids})
    teams = Team.objects.in_bulk(
        {pk for game in games for pk in (game.team_a_id, game.team_b_id) if pk is not None}
    )
    for game in games:
        if all(pk in players for pk in game.seat_player_ids):
            for seat, pk in enumerate(game.seat_player_ids):
                setattr(game, f"seat_{seat}", players[pk])
            game.team_a = teams.get(game.team_a_id)
            game.team_b = teams.get(game.team_b_id)

    def kept(listed: list[Game]) -> list[Game]:
        # A game whose league was deleted between the reads is gone: it is left out.
        return [game for game in listed if all(pk in players for pk in game.seat_player_ids)]

    return PlayerGames(kept(recent), kept(upcoming))


def team_games(*, team) -> list[Game]:
    """A team's games, oldest first."""
    from django.db.models import Q

    return list(
        Game.objects.filter(Q(team_a=team) | Q(team_b=team))
        .select_related("night", "team_a", "team_b", "seat_0", "seat_1", "seat_2", "seat_3")
        .order_by("created_at", "pk")
    )


def night_race_stakes(*, night) -> list[dict]:
    """The night's coming games that the season's playoff race weighed, the most at stake first,
    each with a ``sentence`` ("decides a playoff place"); empty when the race is not worked out
    or is behind the standings."""
    from scoring.domain.race import stake_sentence
    from scoring.models import StandingSnapshot

    snapshot = (
        StandingSnapshot.objects.filter(season_id=night.season_id)
        .only("results_version", "race_version", "race")
        .first()
    )
    if snapshot is None or snapshot.race_version != snapshot.results_version:
        return []
    race = snapshot.race or {}
    if race.get("status") != "ok":
        return []
    return [
        {**stake, "sentence": stake_sentence(stake["leverage"])}
        for stake in race.get("stakes", [])
        if stake["night"] == night.pk
    ]
