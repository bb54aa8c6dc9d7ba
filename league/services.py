"""Services that write leagues, rulebooks, seasons and the roster: the only writers of them."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.text import slugify

from league.domain.rules import PRESETS, preset_rulebook
from league.domain.rules import Rulebook as RulebookRules
from league.errors import ConflictError, DomainError
from league.models import League, LeagueRole, Player, Rulebook, Season, Team


@contextmanager
def _unique(message: str):
    """Turn a unique-constraint violation inside the block into a clear conflict."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as error:
        raise ConflictError(message) from error


def league_create(*, name: str, owner, slug: str = "", description: str = "") -> League:
    name = name.strip()
    if not name:
        raise DomainError("a league needs a name", field="name")
    slug = slug or slugify(name)[:80]
    if not slug:
        raise DomainError("the league's name needs a letter or a digit", field="name")
    with _unique(f"a league with the address {slug!r} already exists"):
        league = League.objects.create(name=name, slug=slug, description=description)
        LeagueRole.objects.create(league=league, user=owner, role=LeagueRole.Role.OWNER)
    return league


def rulebook_create(
    *,
    league: League | None,
    name: str,
    preset: str = "",
    options: dict[str, Any] | None = None,
    user=None,
) -> Rulebook:
    """A custom rulebook: a preset's options, with any of them changed."""
    base = preset_rulebook(preset) if preset else RulebookRules()
    rules = RulebookRules.from_options({**base.to_options(), **(options or {})})
    if not name.strip():
        raise DomainError("a rulebook needs a name", field="name")
    return Rulebook.objects.create(
        league=league,
        name=name.strip(),
        preset=preset,
        options=rules.to_options(),
        created_by=user if user is not None and user.is_authenticated else None,
    )


def rulebook_for_preset(*, league: League, slug: str, user=None) -> Rulebook:
    preset_rulebook(slug)
    return rulebook_create(league=league, name=PRESETS[slug].name, preset=slug, user=user)


def season_create(
    *,
    league: League,
    name: str,
    format: str = Season.Format.TEAMS,
    rulebook: Rulebook | None = None,
    preset: str = "",
    starts_on=None,
    ends_on=None,
    user=None,
) -> Season:
    if format not in Season.Format.values:
        raise DomainError("the format is teams or individual", field="format")
    if rulebook is not None and rulebook.league_id not in (None, league.pk):
        raise DomainError("that rulebook belongs to another league", field="rulebook")
    if starts_on and ends_on and ends_on < starts_on:
        raise DomainError("a season cannot end before it starts", field="ends_on")
    with _unique(f"this league already has a season called {name!r}"):
        if rulebook is None:
            rulebook = rulebook_for_preset(league=league, slug=preset or "standard", user=user)
        return Season.objects.create(
            league=league,
            name=name.strip(),
            format=format,
            rulebook=rulebook,
            starts_on=starts_on,
            ends_on=ends_on,
        )


def player_create(*, league: League, name: str, email: str = "") -> Player:
    name = " ".join(name.split())
    if not name:
        raise DomainError("a player needs a name", field="name")
    with _unique(f"{name} is already on this league's roster"):
        return Player.objects.create(league=league, name=name, email=email)


def team_create(*, season: Season, name: str, player_one: Player, player_two: Player) -> Team:
    if player_one.pk == player_two.pk:
        raise DomainError("a team is two different players", field="player_two")
    for player in (player_one, player_two):
        if player.league_id != season.league_id:
            raise DomainError(f"{player} is not on this league's roster", field="player_one")
    pair = [player_one, player_two]
    clash = Team.objects.filter(season=season, is_withdrawn=False).filter(
        Q(player_one__in=pair) | Q(player_two__in=pair)
    )
    if clash.exists():
        raise DomainError("a player can be on only one team in a season", field="player_one")
    with _unique(f"this season already has a team called {name!r}"):
        return Team.objects.create(
            season=season, name=name.strip(), player_one=player_one, player_two=player_two
        )
