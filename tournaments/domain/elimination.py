"""Single and double elimination structures.

Words used here (see also ``brackets.py`` and ``seeding.py``):

- **winners' bracket** (``W``): the knockout every team starts in. ``W1`` is laid out in the
  standard order, with byes to the top seeds; ``W2-1`` is fed by the winners of ``W1-1`` and
  ``W1-2``, and so on. In a single elimination it is the whole bracket, its last round the final.
- **third-place match** (``3P``): the two semi-final losers play for 3rd place. It is added only
  when there are two semi-final losers, i.e. from 4 teams on: with 2 or 3 teams the option adds
  nothing (with 3, the one semi-final loser is 3rd without playing).
- **losers' bracket** (``L``): where a team goes after its first loss in a double elimination; a
  second loss puts it out. Its odd rounds (``L1``, ``L3`` …) are played among its own survivors
  (``L1`` among the first-round losers); its even rounds (``L2``, ``L4`` …) are where the losers of
  ``W2``, ``W3`` … **drop in**, one against each survivor.
- **drop order**: which losers'-bracket match each winners'-bracket loser drops into. Dropping
  them in the natural order lets a team meet again, soon after, a team it has just beaten; each
  round's losers are therefore sent to the opposite half (or quarter …) of the losers' bracket
  (see ``losers_drop_order``).
- **grand final** (``GF1``): the winners' bracket champion against the losers' bracket champion.
  With the **reset** option, ``GF2`` is played if the losers' bracket champion wins ``GF1``, so that
  the champion is the only team that never lost twice.

Match counts, for ``n`` teams: single elimination plays ``n − 1`` matches (``n`` with a third-place
match, from 4 teams on); double elimination ``2n − 2``, or ``2n − 1`` when a reset is played. Bye
matches are in the structure (so the sheet shows "1 v Bye") but are never played or counted.

Pure Python: no Django import here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from core.errors import DomainError
from tournaments.domain.brackets import (
    BYE_SLOT,
    BracketPart,
    Match,
    Slot,
    Structure,
    StructureKind,
    bye_flags,
    loser_of,
    seed_slot,
    winner_of,
)
from tournaments.domain.seeding import bracket_size, standard_order

MAX_KNOCKOUT_TEAMS = 4096
"""A guard rail, not a rule of euchre: a 4,096-team bracket builds in well under a second."""


def single_elimination(team_count: int, *, third_place: bool = False) -> Structure:
    """A single elimination of seeds ``1..team_count``, with an optional third-place match."""
    _check_team_count(team_count)
    entries = [seed_slot(seed) for seed in range(1, team_count + 1)]
    return Structure(
        kind=StructureKind.SINGLE,
        team_count=team_count,
        matches=knockout_matches(entries, third_place=third_place),
        third_place=third_place and team_count >= 4,
    )


def double_elimination(team_count: int, *, grand_final_reset: bool = False) -> Structure:
    """A double elimination of seeds ``1..team_count``, with an optional grand final reset."""
    _check_team_count(team_count)
    entries = [seed_slot(seed) for seed in range(1, team_count + 1)]
    return Structure(
        kind=StructureKind.DOUBLE,
        team_count=team_count,
        matches=knockout_matches(entries, double=True, grand_final_reset=grand_final_reset),
        grand_final_reset=grand_final_reset,
    )


def knockout_matches(
    entries: Sequence[Slot],
    *,
    double: bool = False,
    third_place: bool = False,
    grand_final_reset: bool = False,
) -> tuple[Match, ...]:
    """The matches of a knockout whose knockout seed ``i`` starts in slot ``entries[i - 1]``.

    The entries are seeds for a plain bracket, or pool places ("1st in pool A") after pools.
    """
    team_count = len(entries)
    size = bracket_size(team_count)
    rounds = size.bit_length() - 1
    lines = [entries[seed - 1] if seed <= team_count else BYE_SLOT for seed in standard_order(size)]
    matches = _winners_bracket(lines, rounds, double=double)
    if double:
        matches += _losers_bracket(size, rounds)
        matches += _grand_final(rounds, reset=grand_final_reset)
    elif third_place and team_count >= 4:
        matches = [
            replace(match, loser_place=None) if match.round == rounds - 1 else match
            for match in matches
        ]
        matches.append(
            Match(
                code="3P",
                bracket=BracketPart.THIRD_PLACE,
                round=rounds,
                first=loser_of(f"W{rounds - 1}-1"),
                second=loser_of(f"W{rounds - 1}-2"),
                winner_place=3,
                loser_place=4,
            )
        )
    return _count_places(bye_flags(matches))


def losers_drop_order(size: int, winners_round: int) -> tuple[int, ...]:
    """For a bracket of ``size`` lines, where the losers of ``W{winners_round}`` drop.

    Entry ``i`` (0-based) is the 0-based index, within its losers' round, of the match that the
    loser of ``W{winners_round}-{i + 1}`` drops into. Round 1 losers pair up in the natural order
    (``W1-1``'s loser meets ``W1-2``'s in ``L1-1``).

    Later rounds drop by an exclusive-or of the match index with a mask ``c``, chosen round by round
    so that the earliest losers'-bracket round in which a team can meet again a team it beat in
    the winners' bracket is as late as possible (fewest such chances on a tie, then the larger
    mask, i.e. closer to the reverse order). A team from ``W{r}-{i}`` lands in match ``i ^ c``, and
    the teams it beat sit, at that point, at ``i ^ (c_q >> (r − q))`` for the rounds ``q < r``
    they lost in (``c_1 = 0``); two indices whose highest differing bit is ``d`` meet ``2d − 1``
    rounds later (at once when they are equal). For 8 lines the second round's losers drop in
    reverse order; for 16, into the opposite half. A first rematch is then possible no earlier
    than losers' round 3 of 4 (8 lines), 4 of 6 (16), 5 of 8 (32), 7 of 10 (64), 8 of 12 (128),
    where the natural order allows one in round 2. Round by round choice matched an exhaustive
    search over every combination of masks up to 64 lines; ``tests/domain/test_brackets_double.py``
    checks these rounds on the built structure, and that no drop order at all (every permutation)
    does better for 8 and 16 lines.
    """
    if winners_round == 1:
        return tuple(index // 2 for index in range(size // 2))
    mask = _drop_masks(size.bit_length() - 1)[winners_round]
    return tuple(index ^ mask for index in range(size >> winners_round))


@cache
def _drop_masks(rounds: int) -> dict[int, int]:
    """The drop mask of each winners' round ``2..rounds`` (see ``losers_drop_order``)."""
    masks = {1: 0}

    def meeting_round(later: int, earlier: int, mask: int) -> int:
        beaten_at = masks[earlier] >> (later - earlier) if earlier >= 2 else 0
        distance = (mask ^ beaten_at).bit_length()
        return 2 * (later - 1) if distance == 0 else 2 * later - 3 + 2 * distance

    for winners_round in range(2, rounds + 1):

        def chances(mask: int, winners_round: int = winners_round) -> list[int]:
            """How many rematch chances (weighted by team pairs) each losers' round gets."""
            counts = [0] * (2 * rounds)
            for earlier in range(1, winners_round):
                counts[meeting_round(winners_round, earlier, mask)] += 1 << (earlier - 1)
            return counts

        candidates = range((1 << (rounds - winners_round)) - 1, -1, -1)
        masks[winners_round] = min(candidates, key=chances)
    return masks


def _check_team_count(team_count: int) -> None:
    if team_count < 2:
        raise DomainError("A bracket needs at least 2 teams.", field="teams")
    if team_count > MAX_KNOCKOUT_TEAMS:
        raise DomainError(f"A bracket can have at most {MAX_KNOCKOUT_TEAMS} teams.", field="teams")


def _winners_bracket(lines: list[Slot], rounds: int, *, double: bool) -> list[Match]:
    """``W1`` from the first-round lines, then each round from the winners of the one before."""
    size = len(lines)
    matches = []
    for index in range(size // 2):
        matches.append(
            Match(
                code=f"W1-{index + 1}",
                bracket=BracketPart.WINNERS,
                round=1,
                first=lines[2 * index],
                second=lines[2 * index + 1],
            )
        )
    for round_number in range(2, rounds + 1):
        for index in range(size >> round_number):
            matches.append(
                Match(
                    code=f"W{round_number}-{index + 1}",
                    bracket=BracketPart.WINNERS,
                    round=round_number,
                    first=winner_of(f"W{round_number - 1}-{2 * index + 1}"),
                    second=winner_of(f"W{round_number - 1}-{2 * index + 2}"),
                )
            )
    if double:
        return matches
    return [_single_elimination_places(match, size, rounds) for match in matches]


def _single_elimination_places(match: Match, size: int, rounds: int) -> Match:
    """Nominal places, counted in bracket lines: round ``r``'s losers share ``size / 2^r + 1``."""
    if match.round == rounds:
        return replace(match, winner_place=1, loser_place=2)
    return replace(match, loser_place=(size >> match.round) + 1)


def _losers_bracket(size: int, rounds: int) -> list[Match]:
    """``L1`` from the first-round losers, then alternately drop-in and survivors' rounds.

    A team knocked out in losers' round ``t`` finishes (nominally, in bracket lines) just below
    every team still in: the champion, the runner-up and one loser per later losers' match.
    """
    if rounds < 2:
        return []
    matches = []
    drop = losers_drop_order(size, 1)
    first_round_losers: list[list[str]] = [[] for _ in range(size // 4)]
    for index, target in enumerate(drop):
        first_round_losers[target].append(f"W1-{index + 1}")
    for index, (upper, lower) in enumerate(first_round_losers):
        matches.append(
            Match(
                code=f"L1-{index + 1}",
                bracket=BracketPart.LOSERS,
                round=1,
                first=loser_of(upper),
                second=loser_of(lower),
            )
        )
    for winners_round in range(2, rounds + 1):
        drop_round = 2 * (winners_round - 1)
        dropping = {
            target: index for index, target in enumerate(losers_drop_order(size, winners_round))
        }
        for index in range(size >> winners_round):
            matches.append(
                Match(
                    code=f"L{drop_round}-{index + 1}",
                    bracket=BracketPart.LOSERS,
                    round=drop_round,
                    first=loser_of(f"W{winners_round}-{dropping[index] + 1}"),
                    second=winner_of(f"L{drop_round - 1}-{index + 1}"),
                )
            )
        if winners_round == rounds:
            break
        for index in range(size >> (winners_round + 1)):
            matches.append(
                Match(
                    code=f"L{drop_round + 1}-{index + 1}",
                    bracket=BracketPart.LOSERS,
                    round=drop_round + 1,
                    first=winner_of(f"L{drop_round}-{2 * index + 1}"),
                    second=winner_of(f"L{drop_round}-{2 * index + 2}"),
                )
            )
    per_round: dict[int, int] = {}
    for match in matches:
        per_round[match.round] = per_round.get(match.round, 0) + 1
    return [
        replace(
            match,
            loser_place=3 + sum(count for later, count in per_round.items() if later > match.round),
        )
        for match in matches
    ]


def _grand_final(rounds: int, *, reset: bool) -> list[Match]:
    """``GF1`` (and ``GF2``, the reset, if asked for)."""
    losers_champion = winner_of(f"L{2 * (rounds - 1)}-1") if rounds >= 2 else loser_of("W1-1")
    matches = [
        Match(
            code="GF1",
            bracket=BracketPart.FINAL,
            round=1,
            first=winner_of(f"W{rounds}-1"),
            second=losers_champion,
            winner_place=1,
            loser_place=2,
        )
    ]
    if reset:
        matches.append(
            Match(
                code="GF2",
                bracket=BracketPart.FINAL,
                round=2,
                first=winner_of("GF1"),
                second=loser_of("GF1"),
                winner_place=1,
                loser_place=2,
                reset_of="GF1",
            )
        )
    return matches


def _count_places(matches: tuple[Match, ...]) -> tuple[Match, ...]:
    """Turn nominal places (counted in bracket lines) into places counted in teams.

    A team knocked out at a stage finishes one place below every real team that goes further:
    with 12 teams in a 16-line bracket, the first-round losers finish 9th, not 9th of 16. Places 1
    and 2 stay as they are; from 3rd down, each real (non-bye) match that knocks a team out at a
    better nominal place pushes the place down by one, as does the third-place match's winner.
    Bye matches place nobody.
    """
    knocked_out: dict[int, int] = {}
    for match in matches:
        if match.is_bye:
            continue
        for place in (match.winner_place, match.loser_place):
            if place is not None and place >= 3:
                knocked_out[place] = knocked_out.get(place, 0) + 1
    real_place = {}
    better = 0
    for place in sorted(knocked_out):
        real_place[place] = 3 + better
        better += knocked_out[place]

    def counted(place: int | None) -> int | None:
        if place is None or place < 3:
            return place
        return real_place.get(place, place)

    return tuple(
        replace(match, winner_place=None, loser_place=None)
        if match.is_bye
        else replace(
            match, winner_place=counted(match.winner_place), loser_place=counted(match.loser_place)
        )
        for match in matches
    )
