"""A night's pot: the money of a night as data, counted from who came, the hands and the places.

Pure Python, no Django. Words:

money rules
    A season's rules for its nights' money (:class:`MoneyRules`): the currency, the entry fee per
    player per night, the side pots, the prize shares by place, the remainder rule and whether
    the money is shown to the public. Amounts are whole cents (the smallest unit of the
    currency), never floats.
entry fee
    What each player who comes to a night pays into its pot: a player checked in, or seated at
    one of its games.
side pot
    An amount counted from the hands (:class:`SidePotRule`): per hand of one kind (a lone march,
    a euchre of a lone caller, a renege …). A *bonus* is paid out of the pot to whoever earned it
    (the lone caller of a lone march, the side that euchred …), before the prizes, as bar leagues
    pay "a dollar a loner" from the night's kitty; a *fine* is paid into the pot by whoever gave
    it (the lone caller euchred, the side that reneged …) and swells the prizes.
pot
    Entry fees plus fines. Bonuses are paid from it first, in the order the hands were played
    (round, table, hand number); a bonus the pot can no longer cover is paid with what is left
    and the rest is marked *short* (never paid, never lost from the sums). What is left is the
    *prize fund*.
place
    An entrant's place in the night (a player in an individual season, a team in a team season),
    as the night's results page ranks them: most games won, then most points; entrants equal on
    both share a place.
prize shares
    Weights per place (``(50, 30, 20)``: the winner half the fund, second 30%, third 20%). With
    fewer entrants than shares, the shares beyond the last entrant are dropped and the fund is
    shared by the weights that remain, so the whole fund is paid.
remainder rule
    How the cents that do not divide are handed out, one cent each. ``higher_place``: each place
    gets its share rounded down, the leftover cents go to the highest places first.
    ``largest_remainder``: they go to the places whose exact share lost the most in rounding
    (a tie between two such places: the higher place). Entrants tied at a place pool the
    amounts of the places they fill and split them evenly, the leftover cents one each in the
    order the results list them; an amount paid to a side or a team is split evenly between its
    players, the leftover cent to the player listed first.
ledger
    Per player and night: paid in (fee, fines) and paid out (bonuses, prize); the sum paid out
    plus what is held over (a fund with nobody placed, as on a night with no finished game)
    equals the pot exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.errors import DomainError

BONUS = "bonus"
FINE = "fine"
DIRECTIONS = {BONUS: "paid from the pot to", FINE: "paid into the pot by"}

HIGHER_PLACE = "higher_place"
LARGEST_REMAINDER = "largest_remainder"
REMAINDER_RULES = {
    HIGHER_PLACE: "Leftover cents go to the higher places, one each",
    LARGEST_REMAINDER: "Leftover cents go to the largest remainders (ties: the higher place)",
}

MAKERS = "makers"
DEFENDERS = "defenders"
CALLER = "caller"
RENEGERS = "renegers"
INNOCENT = "innocent"
"""Who a side pot's hand names: the makers' side, the defenders' side, the caller (the makers'
side when no caller was entered), the side that reneged, or the side that did not."""


@dataclass(frozen=True)
class SidePotKind:
    """A kind of hand a side pot can count: the engine's outcome, its words, who earns a bonus
    on it and who pays a fine on it."""

    outcome: str
    label: str
    earner: str
    payer: str


SIDE_POT_KINDS: tuple[SidePotKind, ...] = (
    SidePotKind("lone_march", "Lone march (all five tricks alone)", CALLER, DEFENDERS),
    SidePotKind("lone_make", "Loner made (three or four tricks alone)", CALLER, DEFENDERS),
    SidePotKind("march", "March (all five tricks)", MAKERS, DEFENDERS),
    SidePotKind("lone_caller_euchred", "Euchre of a lone caller", DEFENDERS, CALLER),
    SidePotKind("lone_defender_euchre", "Euchre by a lone defender", DEFENDERS, MAKERS),
    SidePotKind("euchre", "Euchre", DEFENDERS, MAKERS),
    SidePotKind("renege", "Renege caught", INNOCENT, RENEGERS),
)
"""The hands a side pot can count, declared once: the form, the API and the ledger read it."""
KIND_OF = {kind.outcome: kind for kind in SIDE_POT_KINDS}
SIDE_POT_KIND_CHOICES = tuple(KIND_OF)
"""The kinds' names (the API schema's ``SidePotKindEnum``)."""

CURRENCY = re.compile(r"[A-Z]{3}")
MOST_CENTS = 100_000_000
"""A million in whole units: more than any bar night's fee or side pot (a typo guard)."""
MOST_PLACES = 20


@dataclass(frozen=True)
class SidePotRule:
    """``cents`` per hand of kind ``kind`` (an outcome of :data:`SIDE_POT_KINDS`), a
    :data:`BONUS` or a :data:`FINE`."""

    kind: str
    cents: int
    direction: str = BONUS


@dataclass(frozen=True)
class MoneyRules:
    """A season's money rules (see the module docstring); the defaults are a season with no
    money: no fee, no side pot, the fund to the winner, not public."""

    currency: str = "USD"
    entry_fee_cents: int = 0
    side_pots: tuple[SidePotRule, ...] = ()
    prize_shares: tuple[int, ...] = (50, 30, 20)
    remainder: str = HIGHER_PLACE
    is_public: bool = False

    def to_data(self) -> dict[str, Any]:
        """The rules as JSON (what a season stores and the API shows)."""
        return {
            "currency": self.currency,
            "entry_fee_cents": self.entry_fee_cents,
            "side_pots": [
                {"kind": rule.kind, "cents": rule.cents, "direction": rule.direction}
                for rule in self.side_pots
            ],
            "prize_shares": list(self.prize_shares),
            "remainder": self.remainder,
            "is_public": self.is_public,
        }

    def side_pot(self, kind: str) -> SidePotRule | None:
        return next((rule for rule in self.side_pots if rule.kind == kind), None)


def _whole(value: Any, name: str, *, most: int = MOST_CENTS) -> int:
    if type(value) is not int or not 0 <= value <= most:
        raise DomainError(f"{name}: a whole number from 0 to {most}", field=name)
    return value


def money_rules_parse(data: Any) -> MoneyRules:
    """Rules from JSON (:meth:`MoneyRules.to_data`'s shape, every key optional: the default),
    checked; :class:`DomainError` naming the field at fault."""
    if not isinstance(data, Mapping):
        raise DomainError("send the money rules as a JSON object", code="parse_error")
    default = MoneyRules()
    currency = data.get("currency", default.currency)
    if not isinstance(currency, str) or not CURRENCY.fullmatch(currency):
        raise DomainError(
            "currency: three capital letters, its ISO 4217 code (USD, CAD, EUR …)",
            field="currency",
        )
    fee = _whole(data.get("entry_fee_cents", 0), "entry_fee_cents")
    pots = data.get("side_pots", [])
    if not isinstance(pots, list):
        raise DomainError("side_pots: a list of {kind, cents, direction}", field="side_pots")
    rules: list[SidePotRule] = []
    for item in pots:
        if not isinstance(item, Mapping) or item.get("kind") not in KIND_OF:
            raise DomainError(
                f"side_pots: each kind one of {', '.join(KIND_OF)}", field="side_pots"
            )
        if any(rule.kind == item["kind"] for rule in rules):
            raise DomainError(f"side_pots: {item['kind']} is listed twice", field="side_pots")
        direction = item.get("direction", BONUS)
        if direction not in DIRECTIONS:
            raise DomainError('side_pots: direction is "bonus" or "fine"', field="side_pots")
        cents = _whole(item.get("cents"), "side_pots")
        if cents:
            rules.append(SidePotRule(item["kind"], cents, direction))
    shares = data.get("prize_shares", list(default.prize_shares))
    if (
        not isinstance(shares, list | tuple)
        or not 1 <= len(shares) <= MOST_PLACES
        or any(type(share) is not int or not 0 <= share <= 10_000 for share in shares)
    ):
        raise DomainError(
            f"prize_shares: 1 to {MOST_PLACES} whole numbers from 0 to 10000, by place",
            field="prize_shares",
        )
    if shares[0] == 0:
        raise DomainError("prize_shares: first place must get a share", field="prize_shares")
    remainder = data.get("remainder", HIGHER_PLACE)
    if remainder not in REMAINDER_RULES:
        raise DomainError(f"remainder: one of {', '.join(REMAINDER_RULES)}", field="remainder")
    is_public = data.get("is_public", False)
    if type(is_public) is not bool:
        raise DomainError("is_public: true or false", field="is_public")
    order = list(KIND_OF)
    return MoneyRules(
        currency=currency,
        entry_fee_cents=fee,
        side_pots=tuple(sorted(rules, key=lambda rule: order.index(rule.kind))),
        prize_shares=tuple(shares),
        remainder=remainder,
        is_public=is_public,
    )


AMOUNT = re.compile(r"(\d{1,9})(?:[.,](\d{1,2}))?")


def cents_parse(text: str, name: str) -> int:
    """Whole cents from an amount as typed ("5", "5.00", "0.5", "2,50"); :class:`DomainError`
    naming ``name``."""
    match = AMOUNT.fullmatch((text or "0").strip().lstrip("$€£"))
    if match is None:
        raise DomainError(f"“{text}” is not an amount: write it as 5 or 5.00", field=name)
    whole, fraction = match.groups()
    cents = int(whole) * 100 + int((fraction or "0").ljust(2, "0"))
    if cents > MOST_CENTS:
        raise DomainError(f"{text} is more than a night's money can be", field=name)
    return cents


def cents_text(cents: int) -> str:
    """``1234`` → ``"12.34"`` (a sign for a negative amount)."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def shares_parse(text: str) -> list[int]:
    """``"50, 30, 20"`` → ``[50, 30, 20]``; :class:`DomainError` on anything else."""
    parts = [part for part in re.split(r"[\s,;]+", (text or "").strip()) if part]
    if not parts or not all(part.isascii() and part.isdigit() and len(part) <= 5 for part in parts):
        raise DomainError(
            "write the shares as whole numbers by place, e.g. 50, 30, 20", field="prize_shares"
        )
    return [int(part) for part in parts]


# --- Counting a night ---


@dataclass(frozen=True)
class PotHand:
    """One counting hand of the night (facts the pot reads): its game, round, table and number
    (the order it was played), its outcome, the makers' side, the caller's player id, the side
    that reneged, and the players of side A (seats 0 and 2) and side B (seats 1 and 3)."""

    game_id: int
    round_number: int
    table_number: int
    number: int
    outcome: str
    makers: str | None
    caller_id: int | None
    renege: str | None
    side_a: tuple[int, int]
    side_b: tuple[int, int]


@dataclass(frozen=True)
class NightEntrant:
    """An entrant of the night's results: a player or team, its players, its wins and points."""

    entrant_id: int
    players: tuple[int, ...]
    wins: int
    points: int


@dataclass(frozen=True)
class SidePotLine:
    """One side pot counted from one hand: its kind, its direction, the cents the rules ask,
    the cents actually paid (a bonus the pot ran short of: less) and to or from whom."""

    hand: PotHand
    kind: str
    direction: str
    cents: int
    paid_cents: int
    players: tuple[int, ...]


@dataclass(frozen=True)
class PlacePayout:
    """An entrant's place and prize (``place`` shared by every entrant equal on wins and
    points; ``is_tie`` then)."""

    entrant: NightEntrant
    place: int
    is_tie: bool
    cents: int


@dataclass
class PlayerMoney:
    """A player's money of a night (or, added up, of a season)."""

    fee_cents: int = 0
    fines_cents: int = 0
    bonuses_cents: int = 0
    prize_cents: int = 0

    @property
    def paid_in_cents(self) -> int:
        return self.fee_cents + self.fines_cents

    @property
    def paid_out_cents(self) -> int:
        return self.bonuses_cents + self.prize_cents

    @property
    def net_cents(self) -> int:
        return self.paid_out_cents - self.paid_in_cents

    def add(self, other: PlayerMoney) -> None:
        self.fee_cents += other.fee_cents
        self.fines_cents += other.fines_cents
        self.bonuses_cents += other.bonuses_cents
        self.prize_cents += other.prize_cents


@dataclass(frozen=True)
class NightPot:
    """A night's money: what came in, the side pots, the prizes and each player's ledger.

    ``pot_cents == sum of paid-in == sum of paid-out + held_over_cents`` always."""

    rules: MoneyRules
    fees_cents: int
    fines_cents: int
    bonuses_cents: int
    short_cents: int
    prize_fund_cents: int
    held_over_cents: int
    side_pots: tuple[SidePotLine, ...]
    places: tuple[PlacePayout, ...]
    players: dict[int, PlayerMoney] = field(default_factory=dict)

    @property
    def pot_cents(self) -> int:
        return self.fees_cents + self.fines_cents

    @property
    def paid_out_cents(self) -> int:
        return self.bonuses_cents + self.prize_fund_cents - self.held_over_cents


def split_evenly(total: int, count: int) -> list[int]:
    """``total`` cents in ``count`` parts as even as whole cents allow, the larger first."""
    base, leftover = divmod(total, count)
    return [base + (1 if index < leftover else 0) for index in range(count)]


def shares_split(total: int, weights: Sequence[int], remainder: str = HIGHER_PLACE) -> list[int]:
    """``total`` cents by ``weights`` (their sum above 0), in whole cents that add up to
    ``total``, the leftover cents by the ``remainder`` rule (see the module docstring)."""
    whole = sum(weights)
    if whole <= 0:
        raise DomainError("the prize shares add up to nothing", field="prize_shares")
    amounts = [total * weight // whole for weight in weights]
    leftover = total - sum(amounts)
    order = range(len(weights))
    if remainder == LARGEST_REMAINDER:
        # The exact share's fraction is (total * weight mod whole) / whole: compare numerators.
        order = sorted(order, key=lambda index: (-(total * weights[index] % whole), index))
    else:
        order = [index for index in order if weights[index] > 0]
    for index in list(order)[:leftover]:
        amounts[index] += 1
    return amounts


def night_places(entrants: Sequence[NightEntrant]) -> list[tuple[int, list[NightEntrant]]]:
    """The entrants by place: most wins, then most points; entrants equal on both share the
    place (the next place skips as many: 1, 2, 2, 4). Within a place, the order given."""
    ranked = sorted(enumerate(entrants), key=lambda pair: (-pair[1].wins, -pair[1].points, pair[0]))
    places: list[tuple[int, list[NightEntrant]]] = []
    for position, (_, entrant) in enumerate(ranked, start=1):
        if places and (places[-1][1][0].wins, places[-1][1][0].points) == (
            entrant.wins,
            entrant.points,
        ):
            places[-1][1].append(entrant)
        else:
            places.append((position, [entrant]))
    return places


def _side(hand: PotHand, side: str | None) -> tuple[int, ...]:
    return hand.side_a if side == "A" else hand.side_b


def _other(side: str | None) -> str:
    return "B" if side == "A" else "A"


def hand_players(hand: PotHand, who: str) -> tuple[int, ...]:
    """The players a side pot's hand names for ``who`` (:data:`MAKERS`, :data:`CALLER` …)."""
    if who == CALLER:
        makers = _side(hand, hand.makers)
        return (hand.caller_id,) if hand.caller_id in makers else makers
    if who == MAKERS:
        return _side(hand, hand.makers)
    if who == DEFENDERS:
        return _side(hand, _other(hand.makers))
    if who == RENEGERS:
        return _side(hand, hand.renege)
    return _side(hand, _other(hand.renege))


def _hand_order(hand: PotHand) -> tuple[int, int, int, int]:
    return (hand.round_number, hand.table_number, hand.game_id, hand.number)


def night_pot(
    rules: MoneyRules,
    *,
    payers: Iterable[int],
    hands: Iterable[PotHand],
    entrants: Sequence[NightEntrant],
) -> NightPot:
    """The night's pot under ``rules``: ``payers`` each pay the entry fee, ``hands`` (the
    night's counting hands) give the side pots, ``entrants`` (its results, in the order the
    results list them) share the prize fund by place."""
    players: dict[int, PlayerMoney] = {}

    def ledger(player: int) -> PlayerMoney:
        return players.setdefault(player, PlayerMoney())

    for player in sorted(set(payers)):
        ledger(player).fee_cents += rules.entry_fee_cents
    fees = rules.entry_fee_cents * len(players)
    counted: list[tuple[PotHand, SidePotRule]] = []
    for hand in sorted(hands, key=_hand_order):
        rule = rules.side_pot(hand.outcome)
        if rule is not None:
            counted.append((hand, rule))
    fines = 0
    for hand, rule in counted:
        if rule.direction == FINE:
            who = hand_players(hand, KIND_OF[rule.kind].payer)
            for player, cents in zip(who, split_evenly(rule.cents, len(who)), strict=True):
                ledger(player).fines_cents += cents
            fines += rule.cents
    available = fees + fines
    lines: list[SidePotLine] = []
    bonuses = short = 0
    for hand, rule in counted:
        if rule.direction == FINE:
            who = hand_players(hand, KIND_OF[rule.kind].payer)
            lines.append(SidePotLine(hand, rule.kind, FINE, rule.cents, rule.cents, who))
            continue
        who = hand_players(hand, KIND_OF[rule.kind].earner)
        paid = min(rule.cents, available - bonuses)
        bonuses += paid
        short += rule.cents - paid
        for player, cents in zip(who, split_evenly(paid, len(who)), strict=True):
            ledger(player).bonuses_cents += cents
        lines.append(SidePotLine(hand, rule.kind, BONUS, rule.cents, paid, who))
    fund = available - bonuses
    payouts: list[PlacePayout] = []
    held_over = fund
    places = night_places(entrants)
    if places and fund:
        weights = list(rules.prize_shares[: len(entrants)])
        weights += [0] * (len(entrants) - len(weights))
        by_place = shares_split(fund, weights, rules.remainder)
        for place, tied in places:
            pooled = sum(by_place[place - 1 : place - 1 + len(tied)])
            for entrant, cents in zip(tied, split_evenly(pooled, len(tied)), strict=True):
                payouts.append(PlacePayout(entrant, place, len(tied) > 1, cents))
                parts = split_evenly(cents, len(entrant.players))
                for player, part in zip(entrant.players, parts, strict=True):
                    ledger(player).prize_cents += part
        held_over = 0
    elif places:
        payouts = [
            PlacePayout(entrant, place, len(tied) > 1, 0)
            for place, tied in places
            for entrant in tied
        ]
    return NightPot(
        rules=rules,
        fees_cents=fees,
        fines_cents=fines,
        bonuses_cents=bonuses,
        short_cents=short,
        prize_fund_cents=fund,
        held_over_cents=held_over,
        side_pots=tuple(lines),
        places=tuple(payouts),
        players=players,
    )


def season_ledger(nights: Iterable[NightPot]) -> dict[int, PlayerMoney]:
    """Each player's money over the season: their nights' ledgers added up."""
    totals: dict[int, PlayerMoney] = {}
    for pot in nights:
        for player, money in pot.players.items():
            totals.setdefault(player, PlayerMoney()).add(money)
    return totals
