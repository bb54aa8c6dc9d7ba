"""Table cards: one link per table for the whole night (see ``tournaments.models.tables``).

- ``night_table_cards``: the night's cards, one per table its plan or schedule uses, created the
  first time they are asked for (an organiser prints the tents) and the same ever after.
- ``table_card_get``: the audited door of a card's public link (the token is the secret).
- ``table_now``: what the table plays now: its current game (the first not finished, by round),
  or nothing, with who sits there in the next planned round.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max

from league.access import require_league_organiser
from league.errors import NotFoundError
from league.models import Night, Player
from scoring.models import Game
from tournaments.models import NightPlan, PlannedRound, Seat, TableCard


def night_table_count(*, night: Night) -> int:
    """How many tables the night uses: the most any round of its plan, or its games, seat."""
    seats = Seat.objects.filter(round__plan__night=night).aggregate(most=Max("table_number"))
    games = Game.objects.filter(night=night).aggregate(most=Max("table_number"))
    return max(seats["most"] or 0, games["most"] or 0)


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
