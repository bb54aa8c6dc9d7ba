"""Reading a season's money: its rules, a night's pot and the season's ledger (never writes).

Words: see :mod:`tournaments.domain.pot`. A pot is counted whenever it is read, from the rows
that hold its facts: the night's check-ins and seats (who pays the entry fee), its counting hands
(the side pots) and its finished games that count for the standings (the places, as the night's
results page ranks them: wins, then points, then name). A corrected or undone hand is counted
at once; nothing about money is stored but the rules.

Who may read it: the league's organisers always (:func:`night_pot_for_organiser`,
:func:`season_money_for_organiser`); anyone else a night's payouts only while the organiser has
made the money public (:func:`night_pot_public`), else the pot does not exist for them.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from league.access import night_for_organiser, season_for_organiser
from league.models import Attendance, Night, Player, Season, Team
from scoring.games.models import Game, Hand
from tournaments.domain.pot import (
    MoneyRules,
    NightEntrant,
    NightPot,
    PlayerMoney,
    PotHand,
    money_rules_parse,
    night_pot,
    season_ledger,
)
from tournaments.models import SeasonMoney

_GAME_COLUMNS = (
    "pk",
    "night_id",
    "round_number",
    "table_number",
    "seat_0_id",
    "seat_1_id",
    "seat_2_id",
    "seat_3_id",
    "team_a_id",
    "team_b_id",
    "status",
    "counts_for_standings",
    "score_a",
    "score_b",
    "winner",
)


def season_money_rules(*, season: Season) -> MoneyRules:
    """The season's money rules (the defaults while the organiser has set none)."""
    row = SeasonMoney.objects.filter(season_id=season.pk).values_list("rules", flat=True).first()
    return MoneyRules() if row is None else money_rules_parse(row)


@dataclass(frozen=True)
class NamedPot:
    """A night's pot with the names it speaks of."""

    night: Night
    pot: NightPot
    player_names: dict[int, str]
    entrant_names: dict[int, str]

    def player_name(self, pk: int) -> str:
        return self.player_names.get(pk, f"#{pk}")


def _names(season: Season, player_ids) -> tuple[dict[int, str], dict[int, str]]:
    players = dict(Player.objects.filter(pk__in=set(player_ids)).values_list("pk", "name"))
    if season.format == Season.Format.TEAMS:
        return players, dict(Team.objects.filter(season=season).values_list("pk", "name"))
    return players, players


def nights_pots(*, season: Season, nights: list[Night], rules: MoneyRules | None = None):
    """The pots of ``nights`` (of ``season``), by night id, named: four queries whatever the
    number of nights (games, hands, check-ins, names; a team season's teams one more)."""
    rules = season_money_rules(season=season) if rules is None else rules
    night_ids = [night.pk for night in nights]
    games = list(
        Game.objects.filter(night_id__in=night_ids)
        .exclude(status=Game.Status.VOIDED)
        .order_by()
        .values_list(*_GAME_COLUMNS)
    )
    by_game = {row[0]: row for row in games}
    hands = Hand.objects.filter(game_id__in=list(by_game), status=Hand.Status.ACTIVE).values_list(
        "game_id", "number", "outcome", "makers", "caller_id", "renege"
    )
    night_hands: dict[int, list[PotHand]] = defaultdict(list)
    for game_id, number, outcome, makers, caller_id, renege in hands:
        game = by_game[game_id]
        night_hands[game[1]].append(
            PotHand(
                game_id,
                game[2] or 0,
                game[3] or 0,
                number,
                outcome,
                makers or None,
                caller_id,
                renege or None,
                (game[4], game[6]),
                (game[5], game[7]),
            )
        )
    payers: dict[int, set[int]] = defaultdict(set)
    for night_id, player_id in Attendance.objects.filter(night_id__in=night_ids).values_list(
        "night_id", "player_id"
    ):
        payers[night_id].add(player_id)
    for game in games:
        payers[game[1]].update(game[4:8])
    is_teams = season.format == Season.Format.TEAMS
    team_players = (
        {
            pk: (one, two)
            for pk, one, two in Team.objects.filter(season=season).values_list(
                "pk", "player_one_id", "player_two_id"
            )
        }
        if is_teams
        else {}
    )
    results: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for game in games:
        if game[10] != Game.Status.FINISHED or not game[11]:
            continue
        if is_teams:
            if game[8] is None or game[9] is None:
                continue
            sides = {"A": (game[8],), "B": (game[9],)}
        else:
            sides = {"A": (game[4], game[6]), "B": (game[5], game[7])}
        for side, entrants in sides.items():
            for entrant in entrants:
                line = results[game[1]][entrant]
                line[0] += 1 if game[14] == side else 0
                line[1] += game[12] if side == "A" else game[13]
    everyone = set().union(*payers.values(), *team_players.values()) if payers else set()
    player_names, entrant_names = _names(season, everyone)
    pots = {}
    for night in nights:
        entrants = [
            NightEntrant(pk, team_players.get(pk, (pk,)), wins, points)
            for pk, (wins, points) in results[night.pk].items()
        ]
        entrants.sort(key=lambda e: (entrant_names.get(e.entrant_id, "").lower(), e.entrant_id))
        pot = night_pot(
            rules, payers=payers[night.pk], hands=night_hands[night.pk], entrants=entrants
        )
        pots[night.pk] = NamedPot(night, pot, player_names, entrant_names)
    return pots


def night_pot_get(*, night: Night) -> NamedPot:
    """One night's pot, named."""
    return nights_pots(season=night.season, nights=[night])[night.pk]


def night_pot_for_organiser(*, user, pk: int) -> Night:
    """A night whose pot ``user`` may read as an organiser of its league (``NotFoundError`` /
    ``AccessDeniedError`` otherwise)."""
    return night_for_organiser(user=user, pk=pk)


def season_money_for_organiser(*, user, pk: int) -> Season:
    """A season whose money ``user`` may read and set as an organiser of its league."""
    return season_for_organiser(user=user, pk=pk)


def night_pot_public(*, night: Night) -> NamedPot | None:
    """The night's pot for anyone, while its season's money is public (and neither is
    archived); else ``None``: the public is shown nothing about money."""
    season = night.season
    if night.archived_at is not None or season.archived_at is not None:
        return None
    rules = season_money_rules(season=season)
    if not rules.is_public:
        return None
    return nights_pots(season=season, nights=[night], rules=rules)[night.pk]


@dataclass(frozen=True)
class SeasonLedger:
    """A season's money by night and by player."""

    season: Season
    rules: MoneyRules
    nights: list[NamedPot]
    players: list[tuple[int, str, PlayerMoney]]

    @property
    def pot_cents(self) -> int:
        return sum(named.pot.pot_cents for named in self.nights)

    @property
    def held_over_cents(self) -> int:
        return sum(named.pot.held_over_cents for named in self.nights)


def season_ledger_get(*, season: Season) -> SeasonLedger:
    """The season's ledger: every night in use (not archived), by date, and each player's
    totals over them, by name."""
    rules = season_money_rules(season=season)
    nights = list(season.nights.not_archived().order_by("date", "pk"))
    pots = nights_pots(season=season, nights=nights, rules=rules)
    named = [pots[night.pk] for night in nights]
    totals = season_ledger(entry.pot for entry in named)
    names: dict[int, str] = {}
    for entry in named:
        names.update(entry.player_names)
    players = sorted(
        ((pk, names.get(pk, f"#{pk}"), money) for pk, money in totals.items()),
        key=lambda line: (line[1].lower(), line[0]),
    )
    return SeasonLedger(season, rules, named, players)
