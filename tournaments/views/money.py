"""A season's money as pages (words: :mod:`tournaments.domain.pot`).

- ``/manage/seasons/<id>/money/``: the money rules' form (no JavaScript needed), with each
  night's pot in one line and the links to the ledger and its CSV.
- ``/manage/seasons/<id>/money/ledger/`` and ``…/ledger.csv``: each player's money over the
  season, and each night's.
- ``/manage/nights/<id>/pot/``: the night's pot and its payout sheet (one printed page).
- The public night page (``/nights/<id>/``) shows the payouts only while the organiser made
  the money public (:func:`payouts_context`).

Views parse the request, call one selector or service and render.
"""

from __future__ import annotations

from decimal import Decimal

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from core.errors import DomainError
from league.manage import exports
from league.manage.views import csv_response, form_error, workspace
from tournaments.domain.pot import (
    DIRECTIONS,
    KIND_OF,
    REMAINDER_RULES,
    NightPot,
    PlayerMoney,
    cents_text,
)
from tournaments.forms import MoneyRulesForm
from tournaments.selectors import money as selectors
from tournaments.services.money import season_money_update

LEDGER_COLUMNS = [
    "player",
    "nights",
    "fees",
    "fines",
    "bonuses",
    "prizes",
    "paid_in",
    "paid_out",
    "net",
]
"""The season ledger's CSV columns (amounts in the currency's units, e.g. 12.50)."""


def _money_line(money: PlayerMoney) -> dict:
    return {
        "fees": cents_text(money.fee_cents),
        "fines": cents_text(money.fines_cents),
        "bonuses": cents_text(money.bonuses_cents),
        "prizes": cents_text(money.prize_cents),
        "paid_in": cents_text(money.paid_in_cents),
        "paid_out": cents_text(money.paid_out_cents),
        "net": cents_text(money.net_cents),
    }


def _pot_summary(pot: NightPot) -> dict:
    return {
        "fees": cents_text(pot.fees_cents),
        "fines": cents_text(pot.fines_cents),
        "pot": cents_text(pot.pot_cents),
        "bonuses": cents_text(pot.bonuses_cents),
        "short": cents_text(pot.short_cents) if pot.short_cents else "",
        "prize_fund": cents_text(pot.prize_fund_cents),
        "held_over": cents_text(pot.held_over_cents) if pot.held_over_cents else "",
    }


def payouts_context(named: selectors.NamedPot) -> dict:
    """A night's pot as the pages show it: the sums, the side pots, the prizes by place and
    each player's ledger."""
    pot = named.pot
    side_pots = [
        {
            "where": f"Round {line.hand.round_number}, table {line.hand.table_number}, "
            f"hand {line.hand.number}",
            "kind": KIND_OF[line.kind].label,
            "direction": line.direction,
            "who": " & ".join(named.player_name(pk) for pk in line.players),
            "amount": cents_text(line.paid_cents),
            "short": cents_text(line.cents - line.paid_cents)
            if line.paid_cents < line.cents
            else "",
        }
        for line in pot.side_pots
    ]
    # The sheet's summary: per kind, how many hands and how much (who: the ledger's columns).
    totals: dict[tuple[str, str], list[int]] = {}
    for line in pot.side_pots:
        total = totals.setdefault((line.kind, line.direction), [0, 0])
        total[0] += 1
        total[1] += line.paid_cents
    side_pot_totals = [
        {
            "kind": KIND_OF[kind].label,
            "direction": direction,
            "count": count,
            "amount": cents_text(cents),
        }
        for (kind, direction), (count, cents) in totals.items()
    ]
    places = [
        {
            "place": payout.place,
            "is_tie": payout.is_tie,
            "name": named.entrant_names.get(
                payout.entrant.entrant_id, f"#{payout.entrant.entrant_id}"
            ),
            "wins": payout.entrant.wins,
            "points": payout.entrant.points,
            "amount": cents_text(payout.cents),
            "cents": payout.cents,
        }
        for payout in pot.places
    ]
    players = sorted(
        (
            {"name": named.player_name(pk), **_money_line(money), "net_cents": money.net_cents}
            for pk, money in pot.players.items()
        ),
        key=lambda line: line["name"].lower(),
    )
    return {
        "pot": pot,
        "currency": pot.rules.currency,
        "summary": _pot_summary(pot),
        "fee": cents_text(pot.rules.entry_fee_cents),
        "payers": sum(1 for money in pot.players.values() if money.fee_cents),
        "side_pots": side_pots,
        "side_pot_totals": side_pot_totals,
        "places": places,
        "players": players,
        "remainder_rule": REMAINDER_RULES[pot.rules.remainder],
    }


def _rules_words(rules) -> list[str]:
    words = [f"Entry fee {cents_text(rules.entry_fee_cents)} {rules.currency} per player"]
    for rule in rules.side_pots:
        kind = KIND_OF[rule.kind]
        whom = {"caller": "the caller", "makers": "the makers", "defenders": "the defenders"}
        who = kind.earner if rule.direction == "bonus" else kind.payer
        words.append(
            f"{kind.label}: {cents_text(rule.cents)} {DIRECTIONS[rule.direction]} "
            f"{whom.get(who, 'the side that reneged' if who == 'renegers' else 'the other side')}"
        )
    words.append("Prize shares by place: " + ", ".join(map(str, rules.prize_shares)))
    words.append(REMAINDER_RULES[rules.remainder])
    return words


@workspace
@require_http_methods(["GET", "POST"])
def season_money(request, pk: int):
    season = selectors.season_money_for_organiser(user=request.user, pk=pk)
    rules = selectors.season_money_rules(season=season)
    form = MoneyRulesForm(request.POST or None, initial=MoneyRulesForm.initial_of(rules))
    if request.method == "POST" and form.is_valid():
        try:
            rules, changed = season_money_update(
                season=season, data=form.cleaned_data["rules"], user=request.user
            )
        except DomainError as error:
            form_error(form, error)
        else:
            messages.success(request, "Money rules saved." if changed else "Nothing changed.")
            return redirect("season-money", pk=season.pk)
    ledger = selectors.season_ledger_get(season=season)
    context = {
        "season": season,
        "league": season.league,
        "form": form,
        "rules_words": _rules_words(rules),
        "nights": [{"night": named.night, **_pot_summary(named.pot)} for named in ledger.nights],
        "currency": rules.currency,
    }
    return render(request, "money/season.html", context, status=400 if form.errors else 200)


@workspace
@require_GET
def season_ledger(request, pk: int):
    season = selectors.season_money_for_organiser(user=request.user, pk=pk)
    ledger = selectors.season_ledger_get(season=season)
    context = {
        "season": season,
        "league": season.league,
        "currency": ledger.rules.currency,
        "players": [
            {"name": name, **_money_line(money), "net_cents": money.net_cents}
            for _, name, money in ledger.players
        ],
        "nights": [{"night": named.night, **_pot_summary(named.pot)} for named in ledger.nights],
        "pot": cents_text(ledger.pot_cents),
        "held_over": cents_text(ledger.held_over_cents),
    }
    return render(request, "money/ledger.html", context)


@workspace
@require_GET
def season_ledger_csv(request, pk: int):
    season = selectors.season_money_for_organiser(user=request.user, pk=pk)
    ledger = selectors.season_ledger_get(season=season)
    nights_of: dict[int, int] = {}
    for named in ledger.nights:
        for player in named.pot.players:
            nights_of[player] = nights_of.get(player, 0) + 1
    # Amounts as numbers (Decimal), not text: a spreadsheet sums them, and the export's
    # formula guard leaves a negative number alone.
    rows = [
        {
            "player": name,
            "nights": nights_of.get(player, 0),
            **{key: Decimal(text) for key, text in _money_line(money).items()},
        }
        for player, name, money in ledger.players
    ]
    return csv_response(f"season-{season.pk}-money.csv", exports.csv_text(LEDGER_COLUMNS, rows))


@workspace
@require_GET
def night_pot(request, pk: int):
    night = selectors.night_pot_for_organiser(user=request.user, pk=pk)
    named = selectors.night_pot_get(night=night)
    payouts = payouts_context(named)
    context = {
        "night": night,
        "season": night.season,
        "payouts": payouts,
        "players": payouts["players"],
    }
    return render(request, "money/night_pot.html", context)
