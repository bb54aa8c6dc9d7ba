"""What the archive tests share: a league worth archiving, the database as plain values, exports
and imports as text, and an empty database."""

import dataclasses
import datetime
import io
from io import StringIO

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from league import services as league_services
from league.models import League, LeagueRole, Night, Player, Season
from scoring.games import services as scoring_services
from scoring.games.models import Game, Hand, ResultChange
from scoring.games.services.hand_facts import hand_input_of
from tests.factories import UserFactory, race_season
from tournaments.domain.archive import ACCOUNT_FIELDS, LEFT_BEHIND
from tournaments.models import Bracket, BracketMatch, RoundClock, Seat
from tournaments.services.archive import archive_lines, league_export, league_import
from tournaments.services.brackets.corrections import bracket_correct, bracket_correction_preview
from tournaments.services.mail import night_seats_email
from tournaments.services.nights import night_self_check_in
from tournaments.services.tables import night_table_cards

APPS = ("league", "scoring", "standings", "tournaments")


def picture() -> dict[str, list[dict]]:
    """Every row of the product's tables (but those no archive holds, ``LEFT_BEHIND``) as plain
    values, by model and id, generated columns included; a reference to an account is its
    username (an account's id is the database's own), and an account is what an archive keeps of
    it."""
    accounts = get_user_model()
    names = dict(accounts.objects.values_list("pk", "username"))
    tables = {}
    for app in APPS:
        for model in apps.get_app_config(app).get_models():
            if model._meta.label_lower in LEFT_BEHIND:  # no archive holds them
                continue
            references = [
                each.attname
                for each in model._meta.concrete_fields
                if each.is_relation and each.related_model is accounts
            ]
            rows = []
            for row in model.objects.order_by("pk").values():
                for reference in references:
                    row[reference] = names.get(row[reference])
                rows.append(row)
            tables[model._meta.label_lower] = rows
    tables["auth.user"] = list(accounts.objects.order_by("username").values(*ACCOUNT_FIELDS))
    return tables


def row_counts() -> dict[str, int]:
    """How many rows each of the product's tables and the accounts hold."""
    counts = {
        model._meta.label_lower: model.objects.count()
        for app in APPS
        for model in apps.get_app_config(app).get_models()
    }
    counts["auth.user"] = get_user_model().objects.count()
    return counts


def export_text(league: str, *, passwords: bool = True) -> str:
    out = StringIO()
    league_export(league=league, stream=out, passwords=passwords)
    return out.getvalue()


def import_text(text: str, **options):
    return league_import(
        lines=archive_lines(io.BufferedReader(io.BytesIO(text.encode()))), **options
    )


def empty_database() -> None:
    """Every table emptied, as on a database just migrated (Django's ``flush``). PostgreSQL
    truncates no table with foreign-key checks still deferred in the test's transaction: they
    are made first."""
    connection.check_constraints()
    call_command("flush", interactive=False, verbosity=0)
    assert not any(row_counts().values())


def lines_of(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def small_league(slug: str = "tuesdays", owner=None) -> League:
    """A team season of four teams with its games, one of them scored hand by hand (a hand
    corrected, one undone), a co-organiser, an open invitation and a player with an email."""
    owner = owner or UserFactory(username=f"{slug}-owner", email=f"{slug}@example.org")
    league = league_services.league_create(name=f"League {slug}", slug=slug, owner=owner)
    game = race_season(league)[3][0]
    for tricks in (3, 5, 0):
        caller = game.seat_0 if tricks else game.seat_1
        scoring_services.hand_record(
            game=game,
            data=scoring_services.HandInput(
                makers="A" if tricks else "B", caller_id=caller.pk, tricks_won=tricks or 3
            ),
            user=owner,
            client_key=f"{slug}-{tricks}",
        )
    first = game.hands.get(number=1)
    scoring_services.hand_correct(
        game=game,
        number=1,
        data=dataclasses.replace(hand_input_of(first), tricks_won=4),
        reason="four tricks, not three",
        user=owner,
    )
    scoring_services.hand_undo(game=game, number=3, user=owner, reason="wrong table")
    co_organiser = UserFactory(username=f"{slug}-co")
    invitation = league_services.invitation_create(league=league, user=owner, email="co@x.org")
    league_services.invitation_accept(invitation=invitation, user=co_organiser)
    league_services.invitation_create(league=league, user=owner, email="later@x.org")
    player = Player.objects.filter(league=league).order_by("pk").first()
    league_services.player_update(player=player, name=player.name, email="p@x.org", user=owner)
    return league


def enrich_demo() -> None:
    """The demo league, with what a season's history also holds: a hand corrected and one
    undone, a bracket result corrected (its final reset), a disputed score, a withdrawn player,
    a co-organiser and an open invitation, and a change not yet folded into the standings."""
    league = League.objects.get(slug="rosies")
    organiser = LeagueRole.objects.get(league=league, role=LeagueRole.Role.OWNER).user
    game = (
        Game.objects.filter(
            season__league=league, status=Game.Status.IN_PROGRESS, bracket_link__isnull=True
        )
        .order_by("pk")
        .first()
    )
    first = game.hands.get(number=1, status=Hand.Status.ACTIVE)
    facts = hand_input_of(first)
    scoring_services.hand_correct(
        game=game,
        number=1,
        data=dataclasses.replace(facts, tricks_won=5 if facts.tricks_won != 5 else 3),
        reason="the makers took all five",
        user=organiser,
    )
    last = game.hands.filter(status=Hand.Status.ACTIVE).order_by("-number").first()
    scoring_services.hand_undo(game=game, number=last.number, user=organiser, reason="misheard")

    bracket = Bracket.objects.get(season__league=league)
    semi = bracket.matches.filter(status=BracketMatch.Status.DECIDED).order_by("order").first()
    loser = semi.second_team if semi.winner_id == semi.first_team_id else semi.first_team
    preview = bracket_correction_preview(
        bracket=bracket, code=semi.code, winner=loser, user=organiser
    )
    bracket_correct(
        bracket=bracket,
        code=semi.code,
        winner=loser,
        reason="scores were swapped",
        reset=preview.reset_codes,
        user=organiser,
    )
    finished = Game.objects.filter(season__league=league, status=Game.Status.FINISHED)
    scoring_services.game_dispute(game=finished.order_by("pk").first(), reason="we had nine")
    player = Player.objects.filter(league=league, name="Pete Sandoval").get()
    league_services.player_deactivate(player=player, user=organiser, reason="moved away")
    co = UserFactory(username="co-organiser", email="co@example.org", first_name="Cora")
    invitation = league_services.invitation_create(league=league, user=organiser)
    league_services.invitation_accept(invitation=invitation, user=co)
    league_services.invitation_create(league=league, user=organiser, email="next@example.org")
    # The tents of the individual night, printed once: their links must survive the move.
    planned = Night.objects.filter(season__league=league, plan__isnull=False).order_by("pk").first()
    assert night_table_cards(night=planned, user=organiser)
    # A player who agreed to the emails, and was sent their seats (the test's mail backend);
    # another who signed up and unsubscribed (an ended consent is kept as the record).
    seated = Seat.objects.filter(round__plan__night=planned).order_by("pk")
    first_seated, second_seated = seated[0].player, seated[1].player
    league_services.email_consent_record(
        player=first_seated, email="seated@example.org", agreed=True, user=organiser
    )
    signed = league_services.email_consent_request(
        player=second_seated, email="gone@example.org", agreed=True
    )
    league_services.email_consent_confirm(consent_id=signed.pk)
    league_services.email_consent_end(
        player_id=second_seated.pk,
        address_key=league_services.email_address_key("gone@example.org"),
    )
    assert night_seats_email(night_id=planned.pk) == 1
    # A round's clock on a night (its time called early) and one on a bracket's round, as the
    # clock's service leaves them.
    started = datetime.datetime(2026, 11, 26, 19, 30, tzinfo=datetime.UTC)
    RoundClock.objects.create(
        night=planned,
        round_number=1,
        started_at=started,
        minutes=25,
        extended_minutes=5,
        stopped_at=started + datetime.timedelta(minutes=22),
        started_by=organiser,
    )
    RoundClock.objects.create(bracket=bracket, round_number=1, started_at=started, minutes=20)
    # A player's answer for a night ahead, and a check-in at a night's door on a phone.
    ahead = Night.objects.create(
        season=Season.objects.filter(league=league).order_by("pk").first(),
        date=datetime.date(2027, 1, 7),
        venue="Rosie's",
    )
    door_player = Player.objects.filter(league=league, is_active=True).order_by("pk").first()
    league_services.rsvp_set(player=door_player, night=ahead, answer="coming")
    assert night_self_check_in(night=ahead, player=door_player, device="a-phone")
    # A change committed while no worker ran: pending until the sweep folds it.
    ResultChange.objects.create(season_id=game.season_id, game=game)
