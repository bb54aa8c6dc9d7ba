"""Signing in is slowed down for an attacker without locking the real user out: failed attempts
count per username *and* address pair (``LOGIN_RATE`` in a window, a minute by default), on the
workspace's login (``/manage/login/``) and the admin's (``/admin/login/``) alike. Past it, that
pair is answered 429 with ``Retry-After`` until the window ends (the reset); the same username
from another address, or another username from that address, is not.
"""

from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
ATTACKER, OFFICE = "10.9.9.9", "10.1.1.1"
LOGINS = {"workspace": "manage:login", "admin": "admin:login"}


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("root", password=PASSWORD)


def attempt(url: str, username: str, password: str, address: str):
    return Client(REMOTE_ADDR=address).post(url, {"username": username, "password": password})


def signed_in(response) -> bool:
    return "_auth_user_id" in response.wsgi_request.session


@pytest.mark.parametrize("door", LOGINS)
def test_wrong_passwords_from_elsewhere_do_not_lock_the_user_out(door, superuser, one_minute):
    url = reverse(LOGINS[door])
    for _ in range(10):
        assert attempt(url, "root", "nope", ATTACKER).status_code == 200
    assert attempt(url, "root", "nope", ATTACKER).status_code == 429
    arrived = attempt(url, "root", PASSWORD, OFFICE)
    assert arrived.status_code == 302
    assert signed_in(arrived)


@pytest.mark.parametrize("door", LOGINS)
def test_the_eleventh_failure_of_a_pair_waits_for_the_window(
    door, superuser, settings, one_minute, monkeypatch
):
    assert settings.LOGIN_RATE == "10/m"
    url = reverse(LOGINS[door])
    for _ in range(10):
        wrong = attempt(url, "root", "nope", ATTACKER)
        assert wrong.status_code == 200
        assert not signed_in(wrong)
    refused = attempt(url, "root", PASSWORD, ATTACKER)  # even the right password, from there
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 60
    assert "Too many failed attempts" in refused.text
    assert f"Wait {wait} second" in refused.text
    assert not signed_in(refused)
    # The pair only: another username from that address is answered as usual.
    assert attempt(url, "someone", "nope", ATTACKER).status_code == 200
    # The reset: when the window is over, the pair may try again.
    later = SimpleNamespace(time=lambda: 1.8e9 + 7 + wait)
    monkeypatch.setattr(django_ratelimit.core, "time", later)
    arrived = attempt(url, "root", PASSWORD, ATTACKER)
    assert arrived.status_code == 302
    assert signed_in(arrived)


def test_a_successful_login_is_not_counted(superuser, settings, one_minute):
    settings.LOGIN_RATE = "2/m"
    url = reverse("manage:login")
    for _ in range(5):
        assert attempt(url, "root", PASSWORD, OFFICE).status_code == 302
    assert attempt(url, "root", "nope", OFFICE).status_code == 200
    assert attempt(url, "root", "nope", OFFICE).status_code == 200
    assert attempt(url, "root", PASSWORD, OFFICE).status_code == 429
