"""What a season's earlier nights hold, as the plain data a rotation is planned against.

Words: see ``tournaments.domain.rotation_season``. A selector: it never writes.

- partners and opponents come from the season's games of other nights (not voided), so a
  substitute's games are the substitute's;
- sit-outs are the byes of started or finished rounds of other nights' plans (a round never
  started sat nobody out);
- nights together count, per pair, the other nights both came (played a game or sat out a
  round of that night's plan);
- ratings are the display ratings of the season's standings snapshot (a player without one
  counts as a newcomer).
"""

from __future__ import annotations

from league.models import Night
from scoring.games.models import Game
from scoring.standings.domain.ratings import RatingSettings
from scoring.standings.models import StandingSnapshot
from tournaments.domain.rotation import SeasonHistory
from tournaments.models import PlannedRound, Seat


def season_history_for_night(*, night: Night) -> tuple[SeasonHistory, int]:
    """The season so far as seen from ``night`` (everything but ``night`` itself), and the
    number of other nights that have games."""
    games = (
        Game.objects.filter(season_id=night.season_id, night__isnull=False)
        .exclude(night_id=night.pk)
        .exclude(status=Game.Status.VOIDED)
        .values_list("night_id", "seat_0_id", "seat_1_id", "seat_2_id", "seat_3_id")
    )
    partners: dict[frozenset[int], int] = {}
    opponents: dict[frozenset[int], int] = {}
    nights = set()
    came: dict[int, set[int]] = {}
    for night_id, *seats in games.iterator():
        nights.add(night_id)
        came.setdefault(night_id, set()).update(seats)
        for x, y in ((seats[0], seats[2]), (seats[1], seats[3])):
            pair = frozenset((x, y))
            partners[pair] = partners.get(pair, 0) + 1
        for x in (seats[0], seats[2]):
            for y in (seats[1], seats[3]):
                pair = frozenset((x, y))
                opponents[pair] = opponents.get(pair, 0) + 1
    sit_outs: dict[int, int] = {}
    byes = (
        Seat.objects.filter(
            round__plan__night__season_id=night.season_id, table_number__isnull=True
        )
        .exclude(round__plan__night_id=night.pk)
        .exclude(round__status=PlannedRound.Status.PLANNED)
        .values_list("player_id", "round__plan__night_id")
    )
    for player, night_id in byes.iterator():
        sit_outs[player] = sit_outs.get(player, 0) + 1
        came.setdefault(night_id, set()).add(player)
    together: dict[frozenset[int], int] = {}
    for players in came.values():
        ordered = sorted(players)
        for position, x in enumerate(ordered):
            for y in ordered[position + 1 :]:
                pair = frozenset((x, y))
                together[pair] = together.get(pair, 0) + 1
    snapshot = StandingSnapshot.objects.filter(season_id=night.season_id).only("ratings").first()
    ratings = {}
    for row in snapshot.ratings if snapshot is not None else ():
        ratings[int(row["player_id"])] = float(row["display_rating"])
    history = SeasonHistory(
        partners=partners,
        opponents=opponents,
        sit_outs=sit_outs,
        ratings=ratings,
        default_rating=RatingSettings().display_target,
        together=together,
    )
    return history, len(nights)
