"""The roster in the organiser's workspace: add, edit, deactivate, and import from a CSV file
(all rows or none)."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from league.models import AuditEntry, Player
from tests.factories import PlayerFactory


@pytest.fixture
def client(organiser):
    client = Client()
    client.force_login(organiser)
    return client


def _import(client, league, text: str | bytes, name: str = "roster.csv"):
    content = text.encode() if isinstance(text, str) else text
    return client.post(
        reverse("manage:roster-import", args=[league.pk]),
        {"file": SimpleUploadedFile(name, content, "text/csv")},
    )


def _problems(response) -> list[tuple[str, str]]:
    table = response.text.split('class="list problems"', 1)[1]
    cells = re.findall(r"<tr><td>(\d+)</td><td>(.*?)</td></tr>", table)
    return [(line, reason.replace("&#x27;", "'")) for line, reason in cells]


def test_the_template_downloads_as_csv(client):
    response = client.get(reverse("manage:roster-template"))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="roster-template.csv"'
    assert response.content == b"name,email\nAlice Adams,alice@example.com\nBob Brown,\n"


def test_a_good_file_imports_every_player_in_order(client, league, organiser):
    text = "\ufeffName,Email\r\nYara  Young ,yara@example.com\r\n\r\nXavier,\r\n"
    response = _import(client, league, text)
    assert response.status_code == 302
    assert response["Location"] == reverse("manage:roster", args=[league.pk])
    players = list(Player.objects.filter(league=league).order_by("pk"))
    assert [(p.name, p.email, p.is_active) for p in players] == [
        ("Yara Young", "yara@example.com", True),
        ("Xavier", "", True),
    ]
    entries = AuditEntry.objects.filter(action="player.create").order_by("pk")
    assert [(e.actor_label, e.target_id, e.after) for e in entries] == [
        (
            organiser.username,
            players[0].pk,
            {"name": "Yara Young", "email": "yara@example.com", "is_active": True},
        ),
        (organiser.username, players[1].pk, {"name": "Xavier", "email": "", "is_active": True}),
    ]
    assert "Imported 2 players." in client.get(response["Location"]).text


def test_bad_rows_are_listed_by_line_and_nothing_is_imported(client, league):
    PlayerFactory(league=league, name="Zed")
    text = (
        "name,email\n"
        "Yara,yara@example.com\n"  # line 2: fine
        ",nobody@example.com\n"  # line 3: no name
        "zed,\n"  # line 4: already on the roster (any case)
        "Xavier,not-an-email\n"  # line 5: bad email
        "YARA,\n"  # line 6: twice in the file
        f"{'W' * 121},\n"  # line 7: too long
        "Vera,\n"  # line 8: fine
    )
    response = _import(client, league, text)
    assert response.status_code == 400
    assert "5 rows cannot be imported; nothing was imported" in response.text
    assert _problems(response) == [
        ("3", "the name is empty"),
        ("4", "zed is already on the roster"),
        ("5", "'not-an-email' is not an email address"),
        ("6", "YARA is also on line 2"),
        ("7", "the name is longer than 120 characters"),
    ]
    assert list(Player.objects.filter(league=league).values_list("name", flat=True)) == ["Zed"]
    assert not AuditEntry.objects.exists()


def test_line_numbers_count_quoted_line_breaks(client, league):
    text = 'name,email\n"Yara\nYoung",\n,x@example.com\n'
    response = _import(client, league, text)
    assert response.status_code == 400
    assert _problems(response) == [("4", "the name is empty")]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"player,mail\nYara,\n", "the first line must name the columns: name,email"),
        (b"name\n\xff\xfe\n", "the file is not UTF-8 text (save it as CSV UTF-8)"),
        (b"name,email\n", "the file has no players"),
    ],
)
def test_a_file_that_is_not_a_roster_imports_nothing(client, league, content, message):
    response = _import(client, league, content)
    assert response.status_code == 400
    assert message in response.text
    assert not Player.objects.exists()


def test_a_player_is_added_edited_and_deactivated(client, league, organiser):
    response = client.post(
        reverse("manage:roster", args=[league.pk]), {"name": " Yara ", "email": ""}
    )
    assert response.status_code == 302
    player = Player.objects.get()
    response = client.post(
        reverse("manage:player-edit", args=[player.pk]),
        {"name": "Yara Young", "email": "yy@example.com"},
    )
    assert response.status_code == 302
    response = client.post(
        reverse("manage:player-deactivate", args=[player.pk]),
        {"reason": "moved away"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert f'id="player-{player.pk}" class="inactive"' in response.text
    player.refresh_from_db()
    assert (player.name, player.email, player.is_active) == ("Yara Young", "yy@example.com", False)
    assert [(e.action, e.before, e.after, e.reason) for e in AuditEntry.objects.order_by("pk")] == [
        ("player.create", None, {"name": "Yara", "email": "", "is_active": True}, ""),
        (
            "player.update",
            {"name": "Yara", "email": "", "is_active": True},
            {"name": "Yara Young", "email": "yy@example.com", "is_active": True},
            "",
        ),
        (
            "player.deactivate",
            {"name": "Yara Young", "email": "yy@example.com", "is_active": True},
            {"name": "Yara Young", "email": "yy@example.com", "is_active": False},
            "moved away",
        ),
    ]


def test_a_duplicate_name_is_refused_with_the_reason(client, league):
    PlayerFactory(league=league, name="Zed")
    response = client.post(reverse("manage:roster", args=[league.pk]), {"name": "Zed"})
    assert response.status_code == 400
    assert "Zed is already on this league&#x27;s roster" in response.text
    assert Player.objects.count() == 1
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("name", ["zed", "  ZED  ", "Zed Young"])
def test_a_name_on_the_roster_in_another_case_is_refused(client, league, name):
    PlayerFactory(league=league, name="Zed")
    PlayerFactory(league=league, name="Zed Young")
    response = client.post(reverse("manage:roster", args=[league.pk]), {"name": name.swapcase()})
    assert response.status_code == 400
    refused = " ".join(name.swapcase().split())
    assert f"{refused} is already on this league&#x27;s roster" in response.text
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Zed", "Zed Young"]
    assert not AuditEntry.objects.exists()


def test_a_rename_to_another_players_name_in_another_case_is_refused(client, league):
    PlayerFactory(league=league, name="Zed")
    yara = PlayerFactory(league=league, name="Yara")
    response = client.post(reverse("manage:player-edit", args=[yara.pk]), {"name": "ZED"})
    assert response.status_code == 400
    assert "ZED is already on this league&#x27;s roster" in response.text
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Yara", "Zed"]
    assert not AuditEntry.objects.exists()

    recased = client.post(reverse("manage:player-edit", args=[yara.pk]), {"name": "YARA"})
    assert recased.status_code == 302
    assert sorted(Player.objects.values_list("name", flat=True)) == ["YARA", "Zed"]
