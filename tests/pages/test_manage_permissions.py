"""Who may see and change what in the organiser's workspace (``/manage/``).

Every role — anonymous, a signed-in stranger, an organiser of another league, a co-organiser, the
owner, a superuser — against every page and every write. A refused write leaves every row as it
was (the whole database's relevant counts and fields are compared).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from league.models import (
    AuditEntry,
    Invitation,
    League,
    LeagueRole,
    Night,
    Player,
    Rulebook,
    Season,
    Team,
)
from scoring.games import services as scoring_services
from scoring.games.models import Game, Hand
from tests.factories import (
    LeagueRoleFactory,
    NightFactory,
    PlayerFactory,
    SeasonFactory,
    UserFactory,
)

ROLES = ["anonymous", "stranger", "other_organiser", "co_organiser", "owner", "superuser"]
ORGANISERS = {"co_organiser", "owner", "superuser"}
OWNERS = {"owner", "superuser"}
SIGNED_IN = set(ROLES) - {"anonymous"}
EVERYONE = set(ROLES)

PASSWORD = "a long pass phrase 42"
MARCH_A = scoring_services.HandInput(makers="A", tricks_won=5)


def disputed_game(season, *, reason: str = "hand 3 was a euchre, not a march") -> Game:
    """A finished game of ``season`` (A 10 – B 0 by five marches) that side B disputes."""
    players = [
        PlayerFactory(league=season.league, name=name) for name in ("Alice", "Bob", "Carol", "Dave")
    ]
    game = scoring_services.game_create(season=season, seats=tuple(players), table_number=3)
    for _ in range(5):
        scoring_services.hand_record(game=game, data=MARCH_A)
    return scoring_services.game_dispute(game=game, reason=reason)


class World:
    """One league (owner, co-organiser, a season with a night, a player and a disputed game),
    another league with its own organiser, a stranger and a superuser."""

    def __init__(self):
        owner_role = LeagueRoleFactory(user__username="owner")
        self.league = owner_role.league
        self.users = {
            "owner": owner_role.user,
            "co_organiser": LeagueRoleFactory(
                league=self.league, user__username="co", role=LeagueRole.Role.ORGANISER
            ).user,
            "other_organiser": LeagueRoleFactory(user__username="other").user,
            "stranger": UserFactory(username="stranger"),
            "superuser": get_user_model().objects.create_superuser("root", password="x"),
        }
        self.season = SeasonFactory(league=self.league, name="Winter")
        self.night = NightFactory(season=self.season)
        self.player = PlayerFactory(league=self.league, name="Zed", email="zed@example.com")
        self.game = disputed_game(self.season)
        self.alice, self.bob = (
            Player.objects.get(league=self.league, name=name) for name in ("Alice", "Bob")
        )

    def client(self, role: str) -> Client:
        client = Client()
        if role != "anonymous":
            client.force_login(self.users[role])
        return client

    def state(self):
        """Everything a write could change, to compare before and after a refusal."""
        counts = tuple(
            model.objects.count()
            for model in (
                League,
                LeagueRole,
                Invitation,
                Season,
                Rulebook,
                Player,
                Team,
                Night,
                AuditEntry,
                Hand,
            )
        )
        player = Player.objects.get(pk=self.player.pk)
        game = Game.objects.get(pk=self.game.pk)
        season = Season.objects.get(pk=self.season.pk)
        return (
            counts,
            (player.name, player.email, player.is_active),
            (game.confirmation, game.score_a, game.score_b),
            season.rulebook_id,
        )


@pytest.fixture
def world(db):
    return World()


def _rules_data(world) -> dict:
    from league.forms import OPTION_LABELS

    options = {**world.season.rulebook.options, "target_score": 11}
    return {
        name: ("on" if value is True else "" if value is False or value is None else value)
        for name, value in options.items()
        if name in OPTION_LABELS
    }


# (name, url, post data or None for a GET, roles allowed)
def _endpoints(w: World):
    league, season, player, game = w.league.pk, w.season.pk, w.player.pk, w.game.pk
    url = reverse
    csv = "name,email\nYara,\nXavier,x@example.com\n"
    return {
        # Pages
        "home": (url("manage:home"), None, SIGNED_IN),
        "league-new page": (url("manage:league-new"), None, SIGNED_IN),
        "roster template": (url("manage:roster-template"), None, SIGNED_IN),
        "league": (url("manage:league", args=[league]), None, ORGANISERS),
        "season-new page": (url("manage:season-new", args=[league]), None, ORGANISERS),
        "roster": (url("manage:roster", args=[league]), None, ORGANISERS),
        "roster-import page": (url("manage:roster-import", args=[league]), None, ORGANISERS),
        "player page": (url("manage:player-edit", args=[player]), None, ORGANISERS),
        "season dashboard": (url("manage:season", args=[season]), None, ORGANISERS),
        "rules page": (url("manage:season-rules", args=[season]), None, ORGANISERS),
        "teams page": (url("manage:teams", args=[season]), None, ORGANISERS),
        "nights page": (url("manage:nights", args=[season]), None, ORGANISERS),
        "audit trail": (url("manage:audit", args=[season]), None, ORGANISERS),
        "settle page": (url("manage:game-settle", args=[game]), None, ORGANISERS),
        "standings.csv": (url("manage:export-standings", args=[season]), None, ORGANISERS),
        "games.csv": (url("manage:export-games", args=[season]), None, ORGANISERS),
        "hands.csv": (url("manage:export-hands", args=[season]), None, ORGANISERS),
        "nights.ics": (url("manage:nights-ical", args=[season]), None, ORGANISERS),
        # Writes
        "create league": (url("manage:league-new"), {"name": "Rival league"}, SIGNED_IN),
        "invite": (url("manage:league-invite", args=[league]), {"email": "c@example.com"}, OWNERS),
        "create season": (
            url("manage:season-new", args=[league]),
            {"name": "Summer", "format": "teams", "preset": "csl"},
            ORGANISERS,
        ),
        "change rules": (url("manage:season-rules", args=[season]), _rules_data, ORGANISERS),
        "add player": (url("manage:roster", args=[league]), {"name": "Yara"}, ORGANISERS),
        "edit player": (
            url("manage:player-edit", args=[player]),
            {"name": "Zed Zulu", "email": "zz@example.com"},
            ORGANISERS,
        ),
        "deactivate player": (
            url("manage:player-deactivate", args=[player]),
            {"reason": "moved away"},
            ORGANISERS,
        ),
        "import roster": (
            url("manage:roster-import", args=[league]),
            lambda w: {"file": SimpleUploadedFile("r.csv", csv.encode(), "text/csv")},
            ORGANISERS,
        ),
        "create team": (
            url("manage:teams", args=[season]),
            lambda w: {"name": "Aces", "player_one": w.alice.pk, "player_two": w.bob.pk},
            ORGANISERS,
        ),
        "create night": (
            url("manage:nights", args=[season]),
            {"date": "2026-03-03", "venue": "Rosie's"},
            ORGANISERS,
        ),
        "settle dispute": (
            url("manage:game-settle", args=[game]),
            {"decision": "confirm", "reason": "checked the score sheet"},
            ORGANISERS,
        ),
    }


ENDPOINT_NAMES = [
    "home",
    "league-new page",
    "roster template",
    "league",
    "season-new page",
    "roster",
    "roster-import page",
    "player page",
    "season dashboard",
    "rules page",
    "teams page",
    "nights page",
    "audit trail",
    "settle page",
    "standings.csv",
    "games.csv",
    "hands.csv",
    "nights.ics",
    "create league",
    "invite",
    "create season",
    "change rules",
    "add player",
    "edit player",
    "deactivate player",
    "import roster",
    "create team",
    "create night",
    "settle dispute",
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINT_NAMES)
def test_permission_matrix(world, role, endpoint):
    url, data, allowed = _endpoints(world)[endpoint]
    client = world.client(role)
    before = world.state()
    if data is None:
        response = client.get(url)
    else:
        response = client.post(url, data(world) if callable(data) else data)
    after = world.state()

    if role in allowed:
        if data is None:
            assert response.status_code == 200, response.content[:500]
            assert after == before
        else:
            assert response.status_code == 302, response.content.decode()[:2000]
            assert after != before
    else:
        if role == "anonymous":
            assert response.status_code == 302
            assert response["Location"] == f"/manage/login/?next={url}"
        else:
            assert response.status_code == 403
        assert after == before


def test_another_leagues_organiser_never_sees_emails_disputes_or_the_trail(world):
    client = world.client("other_organiser")
    for url in (
        reverse("manage:roster", args=[world.league.pk]),
        reverse("manage:player-edit", args=[world.player.pk]),
        reverse("manage:season", args=[world.season.pk]),
        reverse("manage:audit", args=[world.season.pk]),
        reverse("manage:game-settle", args=[world.game.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 403
        body = response.content.decode()
        assert "zed@example.com" not in body
        assert "not a march" not in body
    home = client.get(reverse("manage:home")).content.decode()
    assert world.league.name not in home


def test_an_organiser_sees_the_emails_and_the_dispute(world):
    client = world.client("co_organiser")
    assert "zed@example.com" in client.get(reverse("manage:roster", args=[world.league.pk])).text
    dashboard = client.get(reverse("manage:season", args=[world.season.pk])).text
    assert "hand 3 was a euchre, not a march" in dashboard


def test_a_missing_object_is_not_found(world):
    client = world.client("owner")
    assert client.get(reverse("manage:season", args=[999999])).status_code == 404
    assert client.get(reverse("manage:player-edit", args=[999999])).status_code == 404
    assert client.get(reverse("manage:nights-ical", args=[999999])).status_code == 404


def test_a_post_without_the_csrf_token_is_refused_and_writes_nothing(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users["owner"])
    before = world.state()
    response = client.post(reverse("manage:roster", args=[world.league.pk]), {"name": "Yara"})
    assert response.status_code == 403
    assert world.state() == before


def test_every_workspace_form_carries_a_csrf_token(world):
    client = world.client("owner")
    for name, args in (
        ("manage:league-new", []),
        ("manage:league", [world.league.pk]),
        ("manage:season-new", [world.league.pk]),
        ("manage:roster", [world.league.pk]),
        ("manage:roster-import", [world.league.pk]),
        ("manage:player-edit", [world.player.pk]),
        ("manage:season-rules", [world.season.pk]),
        ("manage:teams", [world.season.pk]),
        ("manage:nights", [world.season.pk]),
        ("manage:game-settle", [world.game.pk]),
    ):
        body = client.get(reverse(name, args=args)).text
        assert body.count("<form") == body.count('name="csrfmiddlewaretoken"'), name


# --- Invitations ---


def test_the_owner_invites_and_the_invitee_becomes_a_co_organiser(world):
    owner = world.client("owner")
    response = owner.post(reverse("manage:league-invite", args=[world.league.pk]), {})
    assert response.status_code == 302
    invitation = Invitation.objects.get()
    assert invitation.invited_by == world.users["owner"]
    assert len(invitation.token) == 32

    newcomer = Client()
    link = reverse("manage:invitation", args=[invitation.token])
    assert newcomer.get(link)["Location"] == f"/manage/login/?next={link}"
    newcomer.post(
        reverse("manage:signup") + f"?next={link}",
        {
            "username": "newbie",
            "password1": "a long pass phrase 42",
            "password2": "a long pass phrase 42",
        },
    )
    assert "Co-organise" in newcomer.get(link).text
    response = newcomer.post(link)
    assert response["Location"] == reverse("manage:league", args=[world.league.pk])
    role = LeagueRole.objects.get(user__username="newbie")
    assert (role.league, role.role) == (world.league, "organiser")
    entry = AuditEntry.objects.get(action="organiser.join")
    assert (entry.actor_label, entry.after) == ("newbie", {"user": "newbie", "role": "organiser"})
    # The link works once.
    assert newcomer.get(link).status_code == 404
    assert Client().get(link).status_code == 302


def test_an_invitation_to_someone_who_already_organises_adds_nothing(world):
    invitation = Invitation.objects.create(league=world.league, token="t" * 32)
    client = world.client("co_organiser")
    before = LeagueRole.objects.count()
    response = client.post(reverse("manage:invitation", args=[invitation.token]))
    assert response.status_code == 302
    assert LeagueRole.objects.count() == before
    assert Invitation.objects.get().accepted_at is None


def test_a_wrong_invitation_link_is_not_found(world):
    client = world.client("stranger")
    assert client.get(reverse("manage:invitation", args=["nope"])).status_code == 404
    assert client.post(reverse("manage:invitation", args=["nope"])).status_code == 404
    assert not LeagueRole.objects.filter(user__username="stranger").exists()
