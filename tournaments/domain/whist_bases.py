"""Stored starting rounds of cyclic charts, by number of players (see ``rotation_starting_rounds``).

Each entry was found offline: by the classical construction ``fourth_roots_starting_round`` for
prime powers 4n + 1, by exhaustive search for 4, 8 and 9, and by simulated annealing over the
seats (``find_starting_round``; a C port of the same search was used for speed) for the rest.
The tests generate every chart from these rounds and verify it by counting. Charts for 4n + 3
players come from the entry for 4n + 4.
"""

from tournaments.domain.rotation_starting_rounds import StartingRound

STARTING_ROUNDS: dict[int, StartingRound] = {
    4: StartingRound(moduli=(3,), tables=((-1, 0, 1, 2),)),
    5: StartingRound(moduli=(5,), tables=((1, 2, 4, 3),)),
    6: StartingRound(moduli=(6,), tables=((1, 4, 5, 3),)),
    8: StartingRound(moduli=(7,), tables=((4, 1, 0, 2), (6, 3, -1, 5))),
    9: StartingRound(moduli=(3, 3), tables=((1, 3, 2, 6), (4, 5, 8, 7))),
    10: StartingRound(moduli=(10,), tables=((2, 3, 9, 7), (4, 8, 5, 6))),
    12: StartingRound(moduli=(11,), tables=((1, 3, 10, 9), (-1, 6, 0, 7), (2, 4, 5, 8))),
    13: StartingRound(moduli=(13,), tables=((1, 8, 12, 5), (2, 3, 11, 10), (4, 6, 9, 7))),
    14: StartingRound(moduli=(14,), tables=((13, 9, 10, 1), (7, 5, 11, 4), (8, 12, 6, 3))),
    16: StartingRound(
        moduli=(15,), tables=((8, -1, 6, 9), (4, 1, 14, 10), (11, 2, 7, 3), (12, 13, 0, 5))
    ),
    17: StartingRound(
        moduli=(17,), tables=((1, 13, 16, 4), (3, 5, 14, 12), (9, 15, 8, 2), (10, 11, 7, 6))
    ),
    18: StartingRound(
        moduli=(18,), tables=((13, 11, 16, 1), (7, 3, 2, 17), (4, 15, 10, 8), (14, 6, 12, 5))
    ),
    20: StartingRound(
        moduli=(19,),
        tables=((9, 12, 2, 7), (4, 13, 14, 10), (5, 17, 6, 11), (0, 8, 15, 16), (-1, 18, 3, 1)),
    ),
    21: StartingRound(
        moduli=(21,),
        tables=((12, 4, 5, 2), (1, 15, 19, 10), (18, 17, 6, 11), (8, 13, 16, 14), (20, 7, 9, 3)),
    ),
    22: StartingRound(
        moduli=(22,),
        tables=((4, 7, 11, 8), (10, 12, 13, 20), (14, 21, 5, 16), (1, 18, 19, 6), (3, 15, 9, 17)),
    ),
    24: StartingRound(
        moduli=(23,),
        tables=(
            (20, 5, 22, 21),
            (-1, 19, 0, 7),
            (16, 14, 3, 11),
            (13, 18, 8, 17),
            (1, 4, 10, 12),
            (2, 15, 6, 9),
        ),
    ),
    25: StartingRound(
        moduli=(5, 5),
        tables=(
            (5, 15, 20, 10),
            (7, 16, 23, 14),
            (24, 12, 6, 18),
            (2, 1, 3, 4),
            (17, 21, 13, 9),
            (8, 19, 22, 11),
        ),
    ),
    26: StartingRound(
        moduli=(26,),
        tables=(
            (2, 10, 9, 25),
            (4, 6, 21, 16),
            (11, 22, 8, 17),
            (23, 3, 1, 5),
            (14, 24, 15, 18),
            (20, 7, 12, 19),
        ),
    ),
    28: StartingRound(
        moduli=(27,),
        tables=(
            (17, 9, 6, 4),
            (2, 7, 1, 16),
            (26, 18, 22, 15),
            (19, 8, 12, 14),
            (24, 0, 10, 25),
            (11, 5, 23, -1),
            (20, 21, 3, 13),
        ),
    ),
    29: StartingRound(
        moduli=(29,),
        tables=(
            (1, 12, 28, 17),
            (2, 24, 27, 5),
            (4, 19, 25, 10),
            (8, 9, 21, 20),
            (16, 18, 13, 11),
            (3, 7, 26, 22),
            (6, 14, 23, 15),
        ),
    ),
    30: StartingRound(
        moduli=(30,),
        tables=(
            (8, 17, 5, 18),
            (20, 28, 12, 15),
            (16, 11, 22, 25),
            (29, 27, 1, 23),
            (26, 24, 6, 13),
            (10, 9, 19, 4),
            (21, 7, 3, 14),
        ),
    ),
    32: StartingRound(
        moduli=(31,),
        tables=(
            (8, 1, 11, -1),
            (6, 18, 27, 5),
            (0, 28, 20, 16),
            (13, 7, 15, 3),
            (19, 21, 25, 14),
            (24, 22, 2, 17),
            (23, 26, 9, 10),
            (30, 4, 29, 12),
        ),
    ),
    34: StartingRound(
        moduli=(34,),
        tables=(
            (28, 6, 26, 13),
            (8, 10, 33, 25),
            (14, 2, 1, 12),
            (21, 24, 20, 29),
            (3, 7, 31, 30),
            (19, 4, 22, 16),
            (32, 11, 18, 27),
            (15, 5, 23, 9),
        ),
    ),
    37: StartingRound(
        moduli=(37,),
        tables=(
            (1, 31, 36, 6),
            (2, 25, 35, 12),
            (4, 13, 33, 24),
            (8, 26, 29, 11),
            (16, 15, 21, 22),
            (32, 30, 5, 7),
            (27, 23, 10, 14),
            (17, 9, 20, 28),
            (34, 18, 3, 19),
        ),
    ),
    41: StartingRound(
        moduli=(41,),
        tables=(
            (1, 32, 40, 9),
            (6, 28, 35, 13),
            (36, 4, 5, 37),
            (11, 24, 30, 17),
            (25, 21, 16, 20),
            (27, 3, 14, 38),
            (39, 18, 2, 23),
            (29, 26, 12, 15),
            (10, 33, 31, 8),
            (19, 34, 22, 7),
        ),
    ),
    49: StartingRound(
        moduli=(7, 7),
        tables=(
            (7, 3, 42, 4),
            (8, 17, 48, 39),
            (30, 33, 26, 23),
            (27, 37, 29, 19),
            (2, 28, 5, 21),
            (44, 32, 12, 24),
            (36, 15, 20, 41),
            (13, 38, 43, 18),
            (35, 1, 14, 6),
            (40, 22, 16, 34),
            (45, 46, 11, 10),
            (9, 31, 47, 25),
        ),
    ),
    53: StartingRound(
        moduli=(53,),
        tables=(
            (1, 30, 52, 23),
            (2, 7, 51, 46),
            (4, 14, 49, 39),
            (8, 28, 45, 25),
            (16, 3, 37, 50),
            (32, 6, 21, 47),
            (11, 12, 42, 41),
            (22, 24, 31, 29),
            (44, 48, 9, 5),
            (35, 43, 18, 10),
            (17, 33, 36, 20),
            (34, 13, 19, 40),
            (15, 26, 38, 27),
        ),
    ),
    61: StartingRound(
        moduli=(61,),
        tables=(
            (1, 11, 60, 50),
            (2, 22, 59, 39),
            (4, 44, 57, 17),
            (8, 27, 53, 34),
            (16, 54, 45, 7),
            (32, 47, 29, 14),
            (3, 33, 58, 28),
            (6, 5, 55, 56),
            (12, 10, 49, 51),
            (24, 20, 37, 41),
            (48, 40, 13, 21),
            (35, 19, 26, 42),
            (9, 38, 52, 23),
            (18, 15, 43, 46),
            (36, 30, 25, 31),
        ),
    ),
}
