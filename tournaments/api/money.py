"""A season's money through the API, for its league's organisers (read only):

- ``GET /api/v1/seasons/<id>/money/``: the money rules and the season's ledger (each night's
  pot, each player's totals);
- ``GET /api/v1/nights/<id>/pot/``: a night's pot: sums, side pots, prizes by place, ledger.

Amounts are whole cents of the rules' currency. Words: see :mod:`tournaments.domain.pot`.
Anyone else: 401 without credentials, 403 for a user who organises another league, 404 for a
season or night that does not exist.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.domain.pot import (
    DIRECTIONS,
    KIND_OF,
    REMAINDER_RULES,
    PlayerMoney,
)
from tournaments.selectors import money as selectors


class SidePotRuleSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=list(KIND_OF), help_text="The hand's outcome.")
    cents = serializers.IntegerField(help_text="Per hand of this kind.")
    direction = serializers.ChoiceField(
        choices=list(DIRECTIONS),
        help_text="bonus: paid from the pot to whoever earned it; fine: paid into the pot.",
    )


class MoneyRulesSerializer(serializers.Serializer):
    currency = serializers.CharField(help_text="ISO 4217 code.")
    entry_fee_cents = serializers.IntegerField(help_text="Per player per night.")
    side_pots = SidePotRuleSerializer(many=True)
    prize_shares = serializers.ListField(
        child=serializers.IntegerField(), help_text="Weights by place, first place first."
    )
    remainder = serializers.ChoiceField(choices=list(REMAINDER_RULES))
    is_public = serializers.BooleanField(help_text="Payouts shown on the public night pages.")


class PlayerMoneySerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    fee_cents = serializers.IntegerField()
    fines_cents = serializers.IntegerField()
    bonuses_cents = serializers.IntegerField()
    prize_cents = serializers.IntegerField()
    net_cents = serializers.IntegerField(help_text="Paid out minus paid in.")


class SidePotLineSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    hand = serializers.IntegerField(help_text="The hand's number in its game.")
    kind = serializers.ChoiceField(choices=list(KIND_OF))
    direction = serializers.ChoiceField(choices=list(DIRECTIONS))
    cents = serializers.IntegerField(help_text="What the rules ask.")
    paid_cents = serializers.IntegerField(help_text="Paid (a bonus the pot ran short of: less).")
    players = serializers.ListField(child=serializers.IntegerField())


class PlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    is_tie = serializers.BooleanField()
    entrant = serializers.IntegerField(help_text="A player (individual) or team (teams) id.")
    name = serializers.CharField()
    wins = serializers.IntegerField()
    points = serializers.IntegerField()
    cents = serializers.IntegerField()


class NightPotSerializer(serializers.Serializer):
    night = serializers.IntegerField()
    date = serializers.DateField()
    currency = serializers.CharField()
    fees_cents = serializers.IntegerField()
    fines_cents = serializers.IntegerField()
    pot_cents = serializers.IntegerField(help_text="Fees plus fines.")
    bonuses_cents = serializers.IntegerField()
    short_cents = serializers.IntegerField(help_text="Bonuses the pot could not cover.")
    prize_fund_cents = serializers.IntegerField()
    held_over_cents = serializers.IntegerField(help_text="A fund with nobody placed.")
    side_pots = SidePotLineSerializer(many=True)
    places = PlaceSerializer(many=True)
    players = PlayerMoneySerializer(many=True)


class SeasonMoneySerializer(serializers.Serializer):
    season = serializers.IntegerField()
    rules = MoneyRulesSerializer()
    pot_cents = serializers.IntegerField(help_text="Every night's pot added up.")
    nights = NightPotSerializer(many=True)
    players = PlayerMoneySerializer(many=True, help_text="Each player over the season.")


def _money(pk: int, name: str, money: PlayerMoney) -> dict:
    return {
        "player": pk,
        "name": name,
        "fee_cents": money.fee_cents,
        "fines_cents": money.fines_cents,
        "bonuses_cents": money.bonuses_cents,
        "prize_cents": money.prize_cents,
        "net_cents": money.net_cents,
    }


def night_pot_data(named: selectors.NamedPot) -> dict:
    pot = named.pot
    return {
        "night": named.night.pk,
        "date": named.night.date,
        "currency": pot.rules.currency,
        "fees_cents": pot.fees_cents,
        "fines_cents": pot.fines_cents,
        "pot_cents": pot.pot_cents,
        "bonuses_cents": pot.bonuses_cents,
        "short_cents": pot.short_cents,
        "prize_fund_cents": pot.prize_fund_cents,
        "held_over_cents": pot.held_over_cents,
        "side_pots": [
            {
                "game": line.hand.game_id,
                "hand": line.hand.number,
                "kind": line.kind,
                "direction": line.direction,
                "cents": line.cents,
                "paid_cents": line.paid_cents,
                "players": list(line.players),
            }
            for line in pot.side_pots
        ],
        "places": [
            {
                "place": payout.place,
                "is_tie": payout.is_tie,
                "entrant": payout.entrant.entrant_id,
                "name": named.entrant_names.get(payout.entrant.entrant_id, ""),
                "wins": payout.entrant.wins,
                "points": payout.entrant.points,
                "cents": payout.cents,
            }
            for payout in pot.places
        ],
        "players": [
            _money(pk, named.player_name(pk), money) for pk, money in sorted(pot.players.items())
        ],
    }


class SeasonMoneyView(APIView):
    """A season's money rules and ledger (organisers of its league only)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            200: SeasonMoneySerializer,
            403: OpenApiResponse(description="Not an organiser of the season's league."),
            404: OpenApiResponse(description="No such season."),
        },
        operation_id="seasons_money",
        tags=["seasons"],
    )
    def get(self, request, pk):
        season = selectors.season_money_for_organiser(user=request.user, pk=pk)
        ledger = selectors.season_ledger_get(season=season)
        data = {
            "season": season.pk,
            "rules": ledger.rules.to_data(),
            "pot_cents": ledger.pot_cents,
            "nights": [night_pot_data(named) for named in ledger.nights],
            "players": [_money(pk, name, money) for pk, name, money in ledger.players],
        }
        return Response(SeasonMoneySerializer(data).data)


class NightPotView(APIView):
    """A night's pot: what came in, the side pots, the prizes by place, each player's money
    (organisers of its league only)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            200: NightPotSerializer,
            403: OpenApiResponse(description="Not an organiser of the night's league."),
            404: OpenApiResponse(description="No such night."),
        },
        operation_id="nights_pot",
        tags=["nights"],
    )
    def get(self, request, pk):
        night = selectors.night_pot_for_organiser(user=request.user, pk=pk)
        return Response(
            NightPotSerializer(night_pot_data(selectors.night_pot_get(night=night))).data
        )
