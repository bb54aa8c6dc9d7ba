"""Table cards: one link per table for the whole night (see ``tournaments.models.tables``).

- ``night_table_cards``: the night's cards, one per table its plan, schedule or brackets use,
  created the first time they are asked for (an organiser prints the tents) and the same ever
  after. A bracket played on the night (``Bracket.night``) uses as many tables as its largest
  round plays at once (the non-bye matches of one part's round: pools' first rounds together).
- ``night_tables_take``: the tables a bracket's new games of the night sit at: the lowest free
  ones (no unfinished game of the night at them), so the table's card opens the game with no
  special case; when every table is busy, the one with the fewest games waiting (the card plays
  them one after the other, by round).
- ``table_card_get``: the audited door of a card's public link (the token is the secret).
- ``table_now``: what the table plays now: its current game (the first not finished, by round),
  or nothing, with who sits there in the next planned round.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count, Max

from core.errors import NotFoundError
from league.access import require_league_organiser
from league.models import Night, Player
from scoring.games.models import Game
from tournaments.models import BracketMatch, NightPlan, PlannedRound, Seat, TableCard


def night_table_count(*, night: Night | int) -> int:
    """How many tables the night uses: the most any round of its plan, or its games, seat, or
    the most games a bracket played on it has at once (its largest round)."""
    seats = Seat.objects.filter(round__plan__night=night).aggregate(most=Max("table_number"))
    games = Game.objects.filter(night=night).aggregate(most=Max("table_number"))
    rounds = (
        BracketMatch.objects.filter(
            bracket__night=night, bracket__archived_at__isnull=True, is_bye=False
        )
        .values("bracket_id", "part", "round")
        .annotate(games=Count("pk"))
        .values_list("games", flat=True)
    )
    return max(seats["most"] or 0, games["most"] or 0, max(rounds, default=0))


def night_tables_take(
    *, night: Night | int, count: int, preferred: Sequence[int | None] = ()
) -> list[int]:
    """Tables for ``count`` new games of the night, in the order they are created: each its
    ``preferred`` table if that one is free (the next game of a best-of-N match stays where the
    teams sit), else the lowest-numbered table with no unfinished game of the night at it, or,
    when none is free, the one with the fewest unfinished games (the lowest of those). Reads the
    night's games; the caller stores the new games with these numbers. Two brackets of one night
    advancing at the same instant can pick the same table: the card then plays its games one
    after the other (by round), so none is lost."""
    waiting = Counter(
        Game.objects.filter(
            night=night, status__in=(Game.Status.SCHEDULED, Game.Status.IN_PROGRESS)
        )
        .exclude(table_number=None)
        .values_list("table_number", flat=True)
    )
    tables = range(1, max(night_table_count(night=night), 1) + 1)
    taken: list[int | None] = [None] * count
    for index, wish in enumerate(preferred[:count]):  # first the wishes that can be granted
        if wish is not None and wish in tables and not waiting[wish]:
            taken[index] = wish
            waiting[wish] += 1
    for index in range(count):
        if taken[index] is None:
            taken[index] = min(tables, key=lambda number: (waiting[number], number))
            waiting[taken[index]] += 1
    return taken


def night_table_cards(*, night: Night, user) -> list[TableCard]:
    """The night's table cards, tables 1 to ``night_table_count``: stored once, so a tent
    printed before round 1 still opens the right game in the last round."""
    require_league_organiser(user=user, league_id=night.season.league_id)
    count = night_table_count(night=night)
    with transaction.atomic():
        TableCard.objects.bulk_create(
            [TableCard(night=night, number=number) for number in range(1, count + 1)],
            ignore_conflicts=True,
        )
    return list(TableCard.objects.filter(night=night, number__lte=count).order_by("number"))


def table_card_of_game(*, game: Game) -> TableCard | None:
    """The card of the table a night's game is played at, if the night's tents were printed."""
    if game.night_id is None or game.table_number is None:
        return None
    return TableCard.objects.filter(night_id=game.night_id, number=game.table_number).first()


def table_card_get(*, token: str) -> TableCard:
    card = (
        TableCard.objects.select_related("night__season__league").filter(token=token[:64]).first()
    )
    if card is None:
        raise NotFoundError("this table link is not known: ask the organiser for the table's card")
    return card


@dataclass
class TableNow:
    """What table ``card.number`` plays now: ``game`` (not finished), else the ``last`` game it
    finished tonight and the players it seats in the next planned round (``next_round``)."""

    card: TableCard
    game: Game | None = None
    last: Game | None = None
    next_round: int | None = None
    next_players: list[Player] = field(default_factory=list)


def table_now(*, card: TableCard) -> TableNow:
    games = (
        Game.objects.filter(night_id=card.night_id, table_number=card.number)
        .exclude(status=Game.Status.VOIDED)
        .order_by("round_number", "pk")
    )
    now = TableNow(card=card)
    now.game = games.exclude(status=Game.Status.FINISHED).first()
    if now.game is not None:
        return now
    now.last = games.filter(status=Game.Status.FINISHED).last()
    plan = NightPlan.objects.filter(
        night_id=card.night_id, status=NightPlan.Status.PUBLISHED
    ).first()
    if plan is not None:
        upcoming = (
            plan.planned_rounds.filter(status=PlannedRound.Status.PLANNED)
            .order_by("number")
            .first()
        )
        if upcoming is not None:
            now.next_round = upcoming.number
            seats = upcoming.seats.filter(table_number=card.number).select_related("player")
            now.next_players = [seat.player for seat in seats.order_by("seat")]
    return now
