"""Reads for games and hands (services write; selectors read)."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import OuterRef, Q, QuerySet, Subquery

from league.models import Night
from scoring.games.domain.engine import HandScore, Outcome, next_dealer
from scoring.games.models import Game, Hand


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


def _counting_hands(game: Game) -> QuerySet[Hand]:
    return game.hands.filter(status=Hand.Status.ACTIVE).order_by("number")


def game_counting_hands(*, game: Game) -> list[Hand]:
    return list(_counting_hands(game))


CARD_HAND_FIELDS = (
    "game",
    "number",
    "outcome",
    "points_a",
    "points_b",
    "caller",
    "dealer_seat",
    "time_called",
)
"""The columns of a hand a score card shows (``scoring.games.captain.card``), among them those
the next dealer is found from (:func:`dealer_after`)."""


def game_card_hands(*, game: Game) -> list[Hand]:
    """The game's counting hands, in order, with the columns a score card shows
    (:data:`CARD_HAND_FIELDS`) alone: a card is drawn after every hand."""
    return list(_counting_hands(game).only(*CARD_HAND_FIELDS))


def hand_callers_and_dealers(*, game: Game, hands: list[Hand]) -> list[tuple[str, str]]:
    """Each of ``hands``' caller's name (empty for a hand with no caller) and dealer's name, as
    the score card and the settle page show them."""
    seats = game.seats
    names = {player.pk: player.name for player in seats}
    return [(names.get(hand.caller_id, ""), seats[hand.dealer_seat].name) for hand in hands]


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


def pending_changes(season_ref: str = "pk"):
    """An expression: the number of the season's pending changes (``ResultChange`` rows not yet
    folded by a recompute), for the season named by ``season_ref`` in the outer query."""
    from django.db.models import Count, OuterRef, Subquery
    from django.db.models.functions import Coalesce

    from scoring.games.models import ResultChange

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
