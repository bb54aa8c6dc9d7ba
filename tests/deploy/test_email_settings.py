"""The mail server from the environment (config/email.py): EMAIL_URL, the EMAIL_HOST fields, or
the console backend when nothing is set (the embedded default)."""

import pytest

from config.email import email_settings

SMTP = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE = "django.core.mail.backends.console.EmailBackend"


def test_nothing_set_is_the_console():
    settings = email_settings({})
    assert settings["EMAIL_BACKEND"] == CONSOLE
    assert set(settings) == {
        "EMAIL_BACKEND",
        "EMAIL_HOST",
        "EMAIL_PORT",
        "EMAIL_HOST_USER",
        "EMAIL_HOST_PASSWORD",
        "EMAIL_USE_TLS",
        "EMAIL_USE_SSL",
    }


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "smtp://ann%40x.org:p%3Ass@mail.example.org:587?tls=1",
            ("mail.example.org", 587, "ann@x.org", "p:ss", True, False),
        ),
        ("smtps://u:p@mail.example.org", ("mail.example.org", 465, "u", "p", False, True)),
        ("smtp://127.0.0.1:1025", ("127.0.0.1", 1025, "", "", False, False)),
    ],
)
def test_an_email_url(url, expected):
    settings = email_settings({"EMAIL_URL": url, "EMAIL_HOST": "ignored.example.org"})
    assert settings["EMAIL_BACKEND"] == SMTP
    assert (
        settings["EMAIL_HOST"],
        settings["EMAIL_PORT"],
        settings["EMAIL_HOST_USER"],
        settings["EMAIL_HOST_PASSWORD"],
        settings["EMAIL_USE_TLS"],
        settings["EMAIL_USE_SSL"],
    ) == expected


def test_the_fields_one_by_one():
    settings = email_settings(
        {
            "EMAIL_HOST": "mail.example.org",
            "EMAIL_PORT": "2525",
            "EMAIL_HOST_USER": "league",
            "EMAIL_HOST_PASSWORD": "secret",
            "EMAIL_USE_TLS": "yes",
        }
    )
    assert settings == {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 2525,
        "EMAIL_HOST_USER": "league",
        "EMAIL_HOST_PASSWORD": "secret",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
    }


def test_console_and_dummy_urls_and_a_wrong_scheme():
    assert email_settings({"EMAIL_URL": "console://"})["EMAIL_BACKEND"] == CONSOLE
    assert email_settings({"EMAIL_URL": "dummy://"})["EMAIL_BACKEND"].endswith("dummy.EmailBackend")
    with pytest.raises(RuntimeError, match="unknown scheme 'http'"):
        email_settings({"EMAIL_URL": "http://mail.example.org"})
