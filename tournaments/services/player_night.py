"""A player's own night, for their own page (``/me/<token>/``): nothing here writes.

Words:

- *tonight*: the league's night being played or checking players in that the player is part of
  (checked in, seated in its plan or at one of its games), else one of those dated today.
- *now*: where the player sits in the round being played. On a rotation night: their seat in the
  latest started round of the published plan (as the table card follows it: after a repair, the
  plan's rows are the new ones), a bye, or nothing (they have no seat in it). On a team night or
  a bracket played on the night: their first game of the night not over yet.
- *next*: on a rotation night, their seat in the first round of the plan not started yet; on a
  team night, their game after *now*. A bracket's next match is not known before its round ends.
- *seat*: 0 to 3 clockwise, 0 dealing first: North, East, South, West (as on the wall); North
  and South partner against East and West.
- *ours* / *theirs*: a score or points seen from the player's side.
- *night so far*: the games the player has played or is playing tonight, with their points (their
  side's score) and wins; after the night, with every hand (the night's *report*).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from league.models import Attendance, Night, Player
from scoring.games.models import Game, Hand
from tournaments.models import NightPlan, PlannedRound, Seat
from tournaments.services.nights import player_schedule
from tournaments.services.wall import SEAT_NAMES

LIVE = (Night.Status.PLAYING, Night.Status.CHECK_IN)


@dataclass
class Spot:
    """Where the player sits in one round (or game): table, seat, partner, opponents, the game
    once it exists (with its live score); or a bye."""

    round_number: int | None
    table: int | None = None
    seat: int | None = None
    partner: Player | None = None
    opponents: list[Player] = field(default_factory=list)
    game: Game | None = None
    team: str = ""
    opponents_team: str = ""

    @property
    def is_bye(self) -> bool:
        return self.table is None

    @property
    def seat_name(self) -> str:
        return SEAT_NAMES[self.seat] if self.seat is not None else ""

    @property
    def deals_first(self) -> bool:
        return self.seat == 0 and (self.game is None or self.game.hands_played == 0)

    @property
    def ours(self) -> int | None:
        return _ours(self.game, self.seat)[0] if self.game is not None else None

    @property
    def theirs(self) -> int | None:
        return _ours(self.game, self.seat)[1] if self.game is not None else None

    @property
    def is_over(self) -> bool:
        return self.game is not None and self.game.status == Game.Status.FINISHED

    @property
    def has_score(self) -> bool:
        return self.game is not None and self.game.status != Game.Status.SCHEDULED


@dataclass
class HandLine:
    """One hand of a player's game, from their side: who made it, what happened, the points."""

    number: int
    dealer: str
    makers: str
    caller: str
    outcome: str
    ours: int
    theirs: int
    score_ours: int
    score_theirs: int


@dataclass
class GameLine:
    """One of the player's games tonight, from their side."""

    spot: Spot
    result: str
    hands: list[HandLine] = field(default_factory=list)


@dataclass
class PlayerNight:
    night: Night
    player: Player
    is_here: bool = False
    now: Spot | None = None
    next: Spot | None = None
    games: list[GameLine] = field(default_factory=list)
    is_rotation: bool = False

    @property
    def points(self) -> int:
        return sum(line.spot.ours or 0 for line in self.games)

    @property
    def wins(self) -> int:
        return sum(line.result == "won" for line in self.games)

    @property
    def in_play(self) -> int:
        """Games of the night so far still being played (their points are the score so far)."""
        return sum(line.result == "playing" for line in self.games)


def _ours(game: Game, seat: int | None) -> tuple[int, int]:
    if seat in (1, 3):
        return game.score_b, game.score_a
    return game.score_a, game.score_b


def _side_of(seat: int) -> str:
    return "A" if seat in (0, 2) else "B"


def _games_of(night: Night, player: Player) -> list[Game]:
    return list(
        Game.objects.filter(night=night)
        .filter(
            Q(seat_0=player) | Q(seat_1=player) | Q(seat_2=player) | Q(seat_3=player),
        )
        .exclude(status=Game.Status.VOIDED)
        .select_related("seat_0", "seat_1", "seat_2", "seat_3", "team_a", "team_b")
        .order_by("round_number", "table_number", "pk")
    )


def _spot_of_game(game: Game, player: Player) -> Spot:
    seat = game.seat_player_ids.index(player.pk)
    seats = game.seats
    ours, theirs = (game.team_a, game.team_b) if seat in (0, 2) else (game.team_b, game.team_a)
    return Spot(
        round_number=game.round_number,
        table=game.table_number,
        seat=seat,
        partner=seats[(seat + 2) % 4],
        opponents=[seats[(seat + 1) % 4], seats[(seat + 3) % 4]],
        game=game,
        team=ours.name if ours is not None else "",
        opponents_team=theirs.name if theirs is not None else "",
    )


def _result(game: Game, seat: int) -> str:
    if game.status != Game.Status.FINISHED:
        return "playing"
    if not game.winner:
        return "drawn"
    return "won" if game.winner == _side_of(seat) else "lost"


def _hands(games: list[Game], player: Player) -> dict[int, list[HandLine]]:
    """Each game's hands that count, in order, from the player's side with the running score."""
    seats = {game.pk: game.seat_player_ids.index(player.pk) for game in games}
    names = {game.pk: [p.name for p in game.seats] for game in games}
    lines: dict[int, list[HandLine]] = {game.pk: [] for game in games}
    running: dict[int, tuple[int, int]] = {game.pk: (0, 0) for game in games}
    hands = (
        Hand.objects.filter(game__in=[game.pk for game in games], status=Hand.Status.ACTIVE)
        .select_related("caller")
        .order_by("game_id", "number")
    )
    for hand in hands:
        seat = seats[hand.game_id]
        mine = _side_of(seat)
        ours, theirs = (
            (hand.points_a, hand.points_b) if mine == "A" else (hand.points_b, hand.points_a)
        )
        total_ours, total_theirs = running[hand.game_id]
        running[hand.game_id] = (total_ours + ours, total_theirs + theirs)
        makers = ("us" if hand.makers == mine else "them") if hand.makers else ""
        lines[hand.game_id].append(
            HandLine(
                number=hand.number,
                dealer=names[hand.game_id][hand.dealer_seat],
                makers=makers,
                caller=hand.caller.name if hand.caller_id else "",
                outcome=hand.get_outcome_display(),
                ours=ours,
                theirs=theirs,
                score_ours=running[hand.game_id][0],
                score_theirs=running[hand.game_id][1],
            )
        )
    return lines


def _round_spot(entry) -> Spot:
    """A rotation round's place (``PlayerRound``) as a spot."""
    return Spot(
        round_number=entry.number,
        table=entry.table,
        seat=entry.seat,
        partner=entry.partner,
        opponents=list(entry.opponents),
        game=entry.game,
    )


def player_night(*, night: Night, player: Player, with_hands: bool = False) -> PlayerNight:
    """The player's night: now, next, the games so far (``with_hands``: each with its hands)."""
    result = PlayerNight(night=night, player=player)
    result.is_here = Attendance.objects.filter(
        night=night, player=player, left_at__isnull=True
    ).exists()
    games = _games_of(night, player)
    plan = NightPlan.objects.filter(night=night, status=NightPlan.Status.PUBLISHED).first()
    if plan is not None:
        result.is_rotation = True
        schedule = player_schedule(night=night, player=player)
        started = [e for e in schedule if e.status == PlannedRound.Status.STARTED]
        upcoming = [e for e in schedule if e.status == PlannedRound.Status.PLANNED]
        result.now = _round_spot(started[-1]) if started else None
        result.next = _round_spot(upcoming[0]) if upcoming else None
    else:
        waiting = [game for game in games if game.status != Game.Status.FINISHED]
        result.now = _spot_of_game(waiting[0], player) if waiting else None
        result.next = _spot_of_game(waiting[1], player) if len(waiting) > 1 else None
    played = [
        game
        for game in games
        if game.status == Game.Status.FINISHED or game.status == Game.Status.IN_PROGRESS
    ]
    hands = _hands(played, player) if with_hands else {}
    for game in played:
        spot = _spot_of_game(game, player)
        result.games.append(
            GameLine(spot=spot, result=_result(game, spot.seat), hands=hands.get(game.pk, []))
        )
    return result


def _involves(player: Player):
    return (
        Q(attendances__player=player)
        | Q(games__seat_0=player)
        | Q(games__seat_1=player)
        | Q(games__seat_2=player)
        | Q(games__seat_3=player)
        | Q(pk__in=Seat.objects.filter(player=player).values("round__plan__night"))
    )


def player_tonight(*, player: Player, today) -> Night | None:
    """Tonight's night for the player (see the module's words), or ``None``."""
    nights = (
        Night.objects.not_archived()
        .select_related("season__league", "season__rulebook")
        .filter(season__league_id=player.league_id, status__in=LIVE)
    )
    mine = nights.filter(_involves(player)).distinct().order_by("-date", "-pk").first()
    if mine is not None:
        return mine
    return nights.filter(date=today).order_by("pk").first()


def player_last_night(*, player: Player) -> Night | None:
    """The player's latest finished night with a game of theirs: their night's report."""
    return (
        Night.objects.not_archived()
        .select_related("season__league", "season__rulebook")
        .filter(season__league_id=player.league_id, status=Night.Status.FINISHED)
        .filter(
            Q(games__seat_0=player)
            | Q(games__seat_1=player)
            | Q(games__seat_2=player)
            | Q(games__seat_3=player)
        )
        .distinct()
        .order_by("-date", "-pk")
        .first()
    )
