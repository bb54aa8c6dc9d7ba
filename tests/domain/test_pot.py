"""A night's pot (tournaments.domain.pot), without a database: hand-worked payouts under both
remainder rules, ties, side pots by hand, the rules' parsing, and 1,000 seeded random nights whose
payouts add up to the pot exactly and whose side pots equal the hands counted by brute force."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from core.errors import DomainError
from tournaments.domain.pot import (
    BONUS,
    FINE,
    HIGHER_PLACE,
    KIND_OF,
    LARGEST_REMAINDER,
    SIDE_POT_KINDS,
    MoneyRules,
    NightEntrant,
    PotHand,
    SidePotRule,
    cents_parse,
    money_rules_parse,
    night_places,
    night_pot,
    season_ledger,
    shares_parse,
    shares_split,
)

OUTCOMES = [
    "make",
    "march",
    "lone_make",
    "lone_march",
    "euchre",
    "lone_caller_euchred",
    "lone_defender_euchre",
    "renege",
    "thrown_in",
]


def hand(outcome, *, makers="A", caller=1, renege=None, number=1, game=1, table=1, round_=1):
    return PotHand(game, round_, table, number, outcome, makers, caller, renege, (1, 3), (2, 4))


def entrant(pk, wins, points, players=None):
    return NightEntrant(pk, players or (pk,), wins, points)


def test_shares_split_higher_place_by_hand():
    # 1003 by 50/30/20 is 501.5, 300.9, 200.6: 1001 rounded down, 2 cents left, to 1st and 2nd.
    assert shares_split(1003, [50, 30, 20], HIGHER_PLACE) == [502, 301, 200]


def test_shares_split_largest_remainder_by_hand():
    # The remainders are .5, .9 and .6: the two cents go to 2nd and 3rd.
    assert shares_split(1003, [50, 30, 20], LARGEST_REMAINDER) == [501, 301, 201]
    # Equal remainders (1/3 each): the higher place first.
    assert shares_split(100, [1, 1, 1], LARGEST_REMAINDER) == [34, 33, 33]


def test_places_share_on_equal_wins_and_points():
    a, b, c, d = entrant(1, 3, 30), entrant(2, 2, 25), entrant(3, 2, 25), entrant(4, 1, 40)
    assert night_places([d, c, b, a]) == [(1, [a]), (2, [c, b]), (4, [d])]


def test_tie_pools_the_places_it_fills():
    rules = MoneyRules(entry_fee_cents=250, prize_shares=(50, 30, 20))
    entrants = [entrant(1, 3, 30), entrant(2, 2, 25), entrant(3, 2, 25), entrant(4, 0, 10)]
    pot = night_pot(rules, payers=[1, 2, 3, 4], hands=[], entrants=entrants)
    # 1000 cents: 500 / 300 / 200 / 0; 2nd and 3rd tied pool 500: 250 each.
    assert pot.pot_cents == 1000
    assert [(p.entrant.entrant_id, p.place, p.is_tie, p.cents) for p in pot.places] == [
        (1, 1, False, 500),
        (2, 2, True, 250),
        (3, 2, True, 250),
        (4, 4, False, 0),
    ]


def test_three_way_tie_for_first_leftover_cent_in_results_order():
    rules = MoneyRules(entry_fee_cents=250, prize_shares=(100,))
    entrants = [entrant(7, 2, 20), entrant(5, 2, 20), entrant(6, 2, 20), entrant(8, 0, 0)]
    pot = night_pot(rules, payers=[5, 6, 7, 8], hands=[], entrants=entrants)
    assert [(p.entrant.entrant_id, p.cents) for p in pot.places] == [
        (7, 334),
        (5, 333),
        (6, 333),
        (8, 0),
    ]


def test_fewer_entrants_than_shares_pay_the_whole_fund():
    rules = MoneyRules(entry_fee_cents=500, prize_shares=(50, 30, 20))
    pot = night_pot(rules, payers=[1, 2], hands=[], entrants=[entrant(1, 1, 10), entrant(2, 0, 5)])
    # 1000 by 50/30 (the 3rd share dropped): 625 and 375.
    assert [p.cents for p in pot.places] == [625, 375]
    assert pot.held_over_cents == 0


def test_team_prize_split_between_its_players():
    rules = MoneyRules(entry_fee_cents=101, prize_shares=(1,))
    teams = [entrant(10, 1, 10, (1, 3)), entrant(11, 0, 4, (2, 4))]
    pot = night_pot(rules, payers=[1, 2, 3, 4], hands=[], entrants=teams)
    assert pot.players[1].prize_cents == 202 and pot.players[3].prize_cents == 202
    assert pot.players[1].net_cents == 101 and pot.players[2].net_cents == -101


def test_side_pots_bonus_to_caller_fine_from_lone_caller():
    rules = MoneyRules(
        entry_fee_cents=500,
        side_pots=(
            SidePotRule("lone_march", 100, BONUS),
            SidePotRule("lone_caller_euchred", 50, FINE),
            SidePotRule("renege", 100, FINE),
        ),
        prize_shares=(1,),
    )
    hands = [
        hand("lone_march", caller=3, number=1),
        hand("lone_caller_euchred", makers="B", caller=2, number=2),
        hand("renege", renege="B", number=3),  # side B (2 and 4) pays 50 each
        hand("lone_march", caller=None, number=4),  # no caller entered: side A shares it
    ]
    pot = night_pot(rules, payers=[1, 2, 3, 4], hands=hands, entrants=[entrant(1, 1, 5)])
    assert pot.fees_cents == 2000 and pot.fines_cents == 150 and pot.bonuses_cents == 200
    assert pot.players[3].bonuses_cents == 150 and pot.players[1].bonuses_cents == 50
    assert pot.players[2].fines_cents == 100 and pot.players[4].fines_cents == 50
    assert pot.prize_fund_cents == 2150 - 200 == pot.places[0].cents
    assert [line.players for line in pot.side_pots] == [(3,), (2,), (2, 4), (1, 3)]


def test_bonuses_beyond_the_pot_are_short_not_lost():
    rules = MoneyRules(entry_fee_cents=100, side_pots=(SidePotRule("march", 150, BONUS),))
    hands = [hand("march", number=1), hand("march", number=2, makers="B")]
    pot = night_pot(rules, payers=[1, 2], hands=hands, entrants=[entrant(1, 1, 5)])
    assert [line.paid_cents for line in pot.side_pots] == [150, 50]
    assert pot.short_cents == 100 and pot.prize_fund_cents == 0
    assert sum(money.paid_out_cents for money in pot.players.values()) == pot.pot_cents == 200


def test_no_finished_game_holds_the_fund_over():
    pot = night_pot(MoneyRules(entry_fee_cents=300), payers=[1, 2, 3], hands=[], entrants=[])
    assert pot.held_over_cents == 900 and pot.places == ()


def test_rules_round_trip_and_errors():
    rules = MoneyRules(
        currency="CAD",
        entry_fee_cents=500,
        side_pots=(SidePotRule("lone_march", 100, BONUS),),
        prize_shares=(60, 40),
        remainder=LARGEST_REMAINDER,
        is_public=True,
    )
    assert money_rules_parse(rules.to_data()) == rules
    assert money_rules_parse({}) == MoneyRules()
    bad = [
        ({"currency": "usd"}, "currency"),
        ({"entry_fee_cents": -1}, "entry_fee_cents"),
        ({"entry_fee_cents": 1.5}, "entry_fee_cents"),
        ({"side_pots": [{"kind": "make", "cents": 1}]}, "side_pots"),
        ({"side_pots": [{"kind": "march", "cents": 1, "direction": "up"}]}, "side_pots"),
        ({"side_pots": [{"kind": "march", "cents": 1}] * 2}, "side_pots"),
        ({"prize_shares": []}, "prize_shares"),
        ({"prize_shares": [0, 10]}, "prize_shares"),
        ({"remainder": "random"}, "remainder"),
        ({"is_public": "yes"}, "is_public"),
    ]
    for data, field in bad:
        with pytest.raises(DomainError) as error:
            money_rules_parse(data)
        assert error.value.field == field, data


def test_amounts_and_shares_as_typed():
    assert [cents_parse(text, "x") for text in ("5", "5.00", "0.5", "2,50", "$12.34")] == [
        500,
        500,
        50,
        250,
        1234,
    ]
    for text in ("-1", "1.234", "five"):
        with pytest.raises(DomainError):
            cents_parse(text, "x")
    assert shares_parse("50, 30 20") == [50, 30, 20]
    with pytest.raises(DomainError):
        shares_parse("50%, 50")


def _random_night(rng: random.Random):
    players = list(range(1, rng.randint(4, 24) + 1))
    hands = []
    for number in range(rng.randint(0, 60)):
        seated = rng.sample(players, 4)
        makers = rng.choice("AB")
        outcome = rng.choice(OUTCOMES)
        side = (seated[0], seated[2]) if makers == "A" else (seated[1], seated[3])
        hands.append(
            PotHand(
                rng.randint(1, 5),
                rng.randint(1, 5),
                rng.randint(1, 6),
                number + 1,
                outcome,
                makers,
                rng.choice([*side, None]),
                rng.choice("AB") if outcome == "renege" else None,
                (seated[0], seated[2]),
                (seated[1], seated[3]),
            )
        )
    entrants = [
        NightEntrant(player, (player,), rng.randint(0, 3), rng.randint(0, 12))
        for player in players
        if rng.random() < 0.9
    ]
    kinds = rng.sample([kind.outcome for kind in SIDE_POT_KINDS], rng.randint(0, 4))
    rules = MoneyRules(
        entry_fee_cents=rng.choice([0, 1, 99, 500, 1001]),
        side_pots=tuple(
            SidePotRule(kind, rng.randint(1, 300), rng.choice([BONUS, FINE])) for kind in kinds
        ),
        prize_shares=tuple([rng.randint(1, 100)] + [rng.randint(0, 100) for _ in range(4)]),
        remainder=rng.choice([HIGHER_PLACE, LARGEST_REMAINDER]),
    )
    return rules, players, hands, entrants


def test_a_thousand_random_nights_add_up_exactly():
    rng = random.Random(33)
    pots = []
    for _ in range(1000):
        rules, players, hands, entrants = _random_night(rng)
        pot = night_pot(rules, payers=players, hands=hands, entrants=entrants)
        pots.append(pot)
        paid_in = sum(money.paid_in_cents for money in pot.players.values())
        paid_out = sum(money.paid_out_cents for money in pot.players.values())
        assert paid_in == pot.pot_cents == rules.entry_fee_cents * len(players) + pot.fines_cents
        assert paid_out + pot.held_over_cents == pot.pot_cents
        assert sum(place.cents for place in pot.places) + pot.bonuses_cents == paid_out
        assert all(money.prize_cents >= 0 for money in pot.players.values())
        # Side pots against the hands counted by brute force.
        counts = Counter(h.outcome for h in hands)
        lines = Counter(line.kind for line in pot.side_pots)
        for rule in rules.side_pots:
            assert lines[rule.kind] == counts[rule.kind]
        asked = sum(r.cents * counts[r.kind] for r in rules.side_pots if r.direction == BONUS)
        assert pot.bonuses_cents + pot.short_cents == asked
        fines = sum(r.cents * counts[r.kind] for r in rules.side_pots if r.direction == FINE)
        assert pot.fines_cents == fines
        # Each fine is paid by the players the kind names, split evenly.
        expected_fines = Counter()
        for h in hands:
            rule = rules.side_pot(h.outcome)
            if rule is not None and rule.direction == FINE:
                who = _brute_players(h, KIND_OF[rule.kind].payer)
                share, extra = divmod(rule.cents, len(who))
                for index, player in enumerate(who):
                    expected_fines[player] += share + (1 if index < extra else 0)
        assert {p: m.fines_cents for p, m in pot.players.items() if m.fines_cents} == {
            p: c for p, c in expected_fines.items() if c
        }
        # Each bonus paid goes to the players the kind names, split evenly, in hand order.
        expected_bonuses, left = Counter(), pot.pot_cents
        for h in sorted(hands, key=lambda h: (h.round_number, h.table_number, h.game_id, h.number)):
            rule = rules.side_pot(h.outcome)
            if rule is not None and rule.direction == BONUS:
                paid = min(rule.cents, left)
                left -= paid
                who = _brute_players(h, KIND_OF[rule.kind].earner)
                share, extra = divmod(paid, len(who))
                for index, player in enumerate(who):
                    expected_bonuses[player] += share + (1 if index < extra else 0)
        assert {p: m.bonuses_cents for p, m in pot.players.items() if m.bonuses_cents} == {
            p: c for p, c in expected_bonuses.items() if c
        }
    ledger = season_ledger(pots)
    assert sum(money.paid_in_cents for money in ledger.values()) == sum(
        pot.pot_cents for pot in pots
    )


def _brute_players(h: PotHand, who: str) -> tuple[int, ...]:
    makers = h.side_a if h.makers == "A" else h.side_b
    defenders = h.side_b if h.makers == "A" else h.side_a
    if who == "caller":
        return (h.caller_id,) if h.caller_id is not None else makers
    if who == "makers":
        return makers
    if who == "defenders":
        return defenders
    if who == "renegers":
        return h.side_a if h.renege == "A" else h.side_b
    return h.side_b if h.renege == "A" else h.side_a
