"""What a hand counts: the names of the counts one hand adds to a side's and a caller's, declared
once for the games app (which stores each hand's counts, packed, on its row:
``scoring.games.hand_counts``) and for the standings (whose stats lines add them up:
``scoring.standings.domain.stats``)."""

HAND_COUNT_NAMES = (
    "hands",
    "calls",
    "calls_made",
    "marches",
    "loners_tried",
    "loners_made",
    "loners_marched",
    "euchres_suffered",
    "euchres_inflicted",
    "reneges",
)
"""The hand counts of a stats line, in the order of the fields of the stats
(``scoring.standings.domain.stats``)."""


MAKER_COUNT_NAMES = (
    "calls",
    "made_good",
    "marches",
    "euchres",
    "outcomes",
    "loners_tried",
    "loners_made",
    "loners_marched",
    "solo_marches",
    "solo_euchres",
    "own_reneges",
    "solo_own_reneges",
    "their_reneges",
)
"""What a database counts per game and side *as makers*: the hands that side named trump, those
made good, marches, euchres (suffered), hands whose outcome is known, loners tried, made
and marched, the marches and euchres of a lone caller whose partner sat out (*solo*), the makers'
reneges (and those of a solo caller), and the defenders' reneges.
``scoring.standings.domain.stats.side_counts`` turns them into the counts of a stats line."""
