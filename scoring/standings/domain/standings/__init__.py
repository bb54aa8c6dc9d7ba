"""Season standings: rank the entrants by the season's tie-break chain, and say why.

Pure Python, no Django: a service loads the season's games and byes as the plain records below,
calls :func:`compute_standings`, and stores the result (``Standings.to_dict()``) as a snapshot.

Words used here
---------------
entrant
    Whoever is ranked, by ``int`` id: a team in a team season, a player in an individual season
    (partners rotate and each player is scored alone).
side
    ``"A"`` or ``"B"``, the two partnerships at a table. A side holds one entrant (a team) or two
    (the two players of an individual season). Each entrant on a side gets the side's result and
    points.
game record
    One finished game (:class:`GameRecord`): its sides, points, winner (``None`` for a draw, which
    a game of a fixed number of hands can be), whether a side forfeited, and each side's
    euchre tallies (:class:`SideTally`) for the euchre tie-breaks.
forfeit
    A game a side gave up (``forfeited_by``). The recorded points are replaced by the season's
    forfeit points (e.g. 10 to 0). If the forfeit *counts as a game* it is a win and a loss like any
    other; if not, it only moves points and is neither a game, a win nor a loss.
bye
    A sitting-out for an entrant on a night (:class:`Bye`). Its worth is the season's *bye value*:
    ``nothing``; ``fixed`` (``bye_points`` points, and a won game if ``bye_counts_as_win``); or
    ``average`` (the entrant's own average points per game over the season's games, rounded to two
    decimals, and a won game if ``bye_counts_as_win``). A bye never has an opponent. Byes are
    counted in ``byes``; a bye worth nothing belongs to no night (it cannot be a best night).
night result and best nights
    An entrant's night result is what its games and byes of that night add up to. When the season
    counts only the best K nights (``count_best_nights``), each entrant keeps its K best night
    results and everything else of the other nights is dropped from its standing. Nights are
    compared by wins (a draw is half a win) then points for, or by points for then wins
    (``best_nights_by``), then point difference, then the earlier night (smaller id). Games and
    byes without a night always count.
counted games
    The games (and byes) that make up an entrant's standing after best nights are chosen.
measure
    One way to compare entrants; higher is better for all of them:

    ``win_pct``       (wins + draws / 2) / games; 0 with no games.
    ``wins``          won games (forfeit wins and byes that count as wins included).
    ``points_for``    points scored; ``point_diff`` is points for minus points against.
    ``head_to_head``  wins minus losses in counted games against the *other entrants of the tied
                      group* (each opponent met counts once per game). It is recomputed for each
                      smaller group that is still tied, so it is re-applied after any split.
    ``head_to_head_points``  points scored in counted games against the other entrants of the
                      tied group; ``head_to_head_diff`` those points less the points let in
                      (the UEFA way). A game counts once however many of the group sat
                      opposite. Re-applied like ``head_to_head``: on the cycle A beat B 10–7,
                      B beat C 10–8, C beat A 10–6 the differences are C +2, A −1, B −1, and
                      then, between A and B alone, A +3, B −3: C, A, B.
    ``marches``, ``loners_made``, ``euchres_inflicted``  sums of the entrant's side tallies.
    ``buchholz``      opponents' strength: over the counted games, the sum of the opposing side's
                      *score*, a side's score being the mean of its entrants' wins + draws / 2.
                      Byes add nothing.
    ``buchholz_cut1`` Buchholz less the weakest opposing side met (one game's term dropped);
                      ``buchholz_median`` less the weakest and the strongest (0 with fewer than
                      three games).
    ``sonneborn_berger``  over the counted games, the opposing side's score times the result
                      (1 a win, ½ a draw, 0 a loss): the strength of the opponents beaten.
    ``progressive``   the sum of the entrant's score (wins + draws / 2) after each of its counted
                      games in played order (``played_order``, then game id): early wins weigh
                      more. Byes have no place in the order and add nothing.
game by game
    Those last six measures read each counted game, not only an entrant's sums: a season ranked
    by one of them (or by its best nights) is ranked from its games
    (``SeasonRules.ranks_game_by_game``).
    ``coin_flip``     a draw number from the entrant id and the recorded ``coin_flip_seed``
                      (SHA-256, so it is the same on every machine and for every input order);
                      the higher draw goes first. It always ends the chain, so ranks are 1…n.
tie-break chain
    The ordered measures a season ranks by (``SeasonRules.tiebreaks``). The whole field starts as
    one tied group; the first measure that gives the group's members different values splits it,
    and every smaller group that is still tied starts the chain again from the top (so
    head-to-head is re-applied among exactly the entrants still level). A head-to-head that
    cannot split a group (a cycle such as A beat B, B beat C, C beat A; all level; or no games
    among them) falls through to the next measure, and the reason says so; so do head-to-head
    points and point difference when the group is level on them.
qualified
    An entrant with at least ``min_games`` games in the season (all nights, before best nights are
    chosen; forfeits that count as games and byes that count as wins included). Unqualified
    entrants are listed after the ranked ones, in the same order of the chain, without a rank.
reason
    For every ranked row but the first: which measure put it behind the row directly above
    ("behind Rosie's Aces on points for (40 to 45)"). The first row says what put it ahead of the
    second. Entrants are named through the ``names`` mapping, or as ``#id``. Notes on measures
    that could not split the group come first, each ended by "; "; the deciding clause is always
    last (so a short form can show it alone, with the whole sentence behind it).
"""

from scoring.standings.domain.standings.compute import compute_standings
from scoring.standings.domain.standings.games import SIDES, Bye, GameRecord, Side, SideTally
from scoring.standings.domain.standings.rows import StandingRow, Standings
from scoring.standings.domain.standings.rules import (
    BYE_VALUES,
    DEFAULT_TIEBREAKS,
    GAME_BY_GAME_MEASURES,
    GROUP_MEASURES,
    MEASURE_LABELS,
    NIGHT_ORDERS,
    SeasonRules,
)
from scoring.standings.domain.standings.tiebreaks import coin_flip_draw

__all__ = [
    "BYE_VALUES",
    "DEFAULT_TIEBREAKS",
    "GAME_BY_GAME_MEASURES",
    "GROUP_MEASURES",
    "MEASURE_LABELS",
    "NIGHT_ORDERS",
    "SIDES",
    "Bye",
    "GameRecord",
    "SeasonRules",
    "Side",
    "SideTally",
    "StandingRow",
    "Standings",
    "coin_flip_draw",
    "compute_standings",
]
