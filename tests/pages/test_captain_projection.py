"""The table of hands the captain's card gets with its page (``#card-rules``), from which the page
projects the score of the hands still waiting on a phone: for every combination the card can
submit, under every rulebook preset, it says what the engine says; and a hand posted through the
card's own form is stored with the points the table promised (or refused with its message)."""

import json
import random
import re
from html import unescape
from itertools import product

import pytest

from core.errors import DomainError
from league.domain.rules import PRESETS, GameLength
from scoring.games.domain.engine import HandFacts, Side, next_dealer, score_hand
from scoring.games.models import Hand

pytestmark = pytest.mark.django_db

DEALERS = CALLERS = (0, 1, 2, 3)
FLAGS = (False, True)
ORDERED = (None, True)
TRICKS = (None, 0, 1, 2, 3, 4, 5)
RENEGES = (None, "A", "B")


def card_rules(client, game) -> dict:
    html = client.get(f"/t/{game.captain_token}/").content.decode()
    found = re.search(r'<script id="card-rules" type="application/json">(.*?)</script>', html)
    assert found, "the card carries no table"
    return json.loads(unescape(found.group(1)))


def looked_up(rules: dict, *, dealer, caller, alone, defender, ordered, tricks, renege) -> dict:
    """The result the page finds for a played hand: the axes' values in the page's order, the
    last varying fastest, each code ``width`` base-36 digits."""
    values = {
        "dealer_seat": dealer,
        "caller_seat": caller,
        "caller_alone": alone,
        "defender_alone": defender,
        "ordered_up": ordered,
        "tricks_won": tricks,
        "renege": renege,
    }
    position = 0
    for name, choices in rules["axes"]:
        position = position * len(choices) + choices.index(values[name])
    width = rules["width"]
    code = rules["hands"][position * width : (position + 1) * width]
    return rules["results"][int(code, 36)]


def engine_says(rulebook, facts: HandFacts) -> dict:
    try:
        score = score_hand(rulebook, facts)
    except DomainError as error:
        return {"error": error.message}
    dealer = facts.dealer_seat
    return {
        "points": [score.points_a, score.points_b],
        "scored": score.outcome not in ("thrown_in", "misdeal"),
        "deal_moves": 0 if next_dealer(dealer, score) == dealer else 1,
        "summary": score.summary,
    }


@pytest.mark.parametrize("slug", sorted(PRESETS))
def test_the_table_is_the_engine_for_every_hand_the_card_can_submit(client, make_game, slug):
    rulebook = PRESETS[slug].rulebook
    rules = card_rules(client, make_game(slug))
    combinations = list(product(DEALERS, CALLERS, FLAGS, FLAGS, ORDERED, TRICKS, RENEGES))
    assert len(rules["hands"]) == len(combinations) * rules["width"]
    for dealer, caller, alone, defender, ordered, tricks, renege in combinations:
        facts = HandFacts(
            makers=Side.A if caller % 2 == 0 else Side.B,
            caller_seat=caller,
            dealer_seat=dealer,
            caller_alone=alone,
            defender_alone=defender,
            ordered_up=ordered,
            tricks_won=tricks,
            renege=Side(renege) if renege else None,
        )
        found = looked_up(
            rules,
            dealer=dealer,
            caller=caller,
            alone=alone,
            defender=defender,
            ordered=ordered,
            tricks=tricks,
            renege=renege,
        )
        assert found == engine_says(rulebook, facts), facts
    for dealer in DEALERS:
        for special in ("thrown_in", "misdeal"):
            facts = HandFacts(dealer_seat=dealer, **{special: True})
            found = rules["results"][rules["special"][special][dealer]]
            assert found == engine_says(rulebook, facts), facts
    expected = {
        GameLength.HANDS: {"length": "hands", "hands_per_game": rulebook.hands_per_game},
        GameLength.TARGET: {"length": "target", "target_score": rulebook.target_score},
        GameLength.TIME: {"length": "time"},
    }[rulebook.game_length]
    if rulebook.is_timed:
        expected["tie_at_time"] = "next_hand"  # the timed presets play on at a tie
    assert rules["game"] == expected


def test_the_table_follows_a_nights_number_of_hands(client, make_game):
    rules = card_rules(client, make_game("standard", hands_per_game=6))
    assert rules["game"] == {"length": "hands", "hands_per_game": 6}


def test_the_table_names_the_four_seats_in_order(client, make_game):
    game = make_game("csl")
    rules = card_rules(client, game)
    assert rules["seats"] == [{"id": player.pk, "name": player.name} for player in game.seats]


@pytest.mark.parametrize("slug", sorted(PRESETS))
def test_a_hand_posted_by_the_card_scores_what_the_table_promised(client, make_game, slug):
    """A sample of combinations (fixed seed), each the first hand of a fresh game dealt by the
    combination's dealer, posted as the card's form posts it."""
    pick = random.Random(f"captain-table-{slug}")
    combinations = list(product(DEALERS, CALLERS, FLAGS, FLAGS, ORDERED, TRICKS, RENEGES))
    for dealer, caller, alone, defender, ordered, tricks, renege in pick.sample(combinations, 16):
        game = make_game(slug, first_dealer_seat=dealer)
        rules = card_rules(client, game)
        promised = looked_up(
            rules,
            dealer=dealer,
            caller=caller,
            alone=alone,
            defender=defender,
            ordered=ordered,
            tricks=tricks,
            renege=renege,
        )
        data = {
            "key": f"key-{game.pk}",
            "number": "1",
            "caller": str(game.seat_player_ids[caller]),
            "tricks_won": "" if tricks is None else str(tricks),
            "renege": renege or "",
        }
        for name, on in (("caller_alone", alone), ("defender_alone", defender)):
            if on:
                data[name] = "on"
        if ordered:
            data["ordered_up"] = "on"
        response = client.post(f"/t/{game.captain_token}/hands/", data, HTTP_HX_REQUEST="true")
        hand = Hand.objects.filter(game=game).first()
        if "error" in promised:
            assert response.status_code == 400
            message = promised["error"][0].upper() + promised["error"][1:]
            assert message in unescape(response.content.decode())
            assert hand is None
        else:
            assert response.status_code == 200, response.content.decode()
            assert [hand.points_a, hand.points_b] == promised["points"]
            game.refresh_from_db()
            assert game.hands_played == int(promised["scored"])
