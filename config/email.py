"""How the service sends email: one function, read by the settings, that turns the environment
into Django's ``EMAIL_*`` settings.

- ``EMAIL_URL``, e.g. ``smtp://user:password@mail.example.org:587?tls=1`` (STARTTLS),
  ``smtps://user:password@mail.example.org:465`` (TLS from the start), ``smtp://127.0.0.1:1025``
  (no TLS), ``console://`` (printed on the console), ``dummy://`` (dropped). User and password
  are URL-quoted.
- Otherwise ``EMAIL_HOST`` (the SMTP backend) with ``EMAIL_PORT`` (25), ``EMAIL_HOST_USER``,
  ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS`` and ``EMAIL_USE_SSL``.
- With neither: the console backend (the embedded shape): messages are written to the log of
  the process that sends them, nothing leaves the machine.
"""

from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

SMTP = "django.core.mail.backends.smtp.EmailBackend"
BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "dummy": "django.core.mail.backends.dummy.EmailBackend",
    "smtp": SMTP,
    "smtps": SMTP,
}
TRUE = {"1", "true", "yes", "on"}
CONSOLE = {
    "EMAIL_BACKEND": BACKENDS["console"],
    "EMAIL_HOST": "localhost",
    "EMAIL_PORT": 25,
    "EMAIL_HOST_USER": "",
    "EMAIL_HOST_PASSWORD": "",
    "EMAIL_USE_TLS": False,
    "EMAIL_USE_SSL": False,
}


def email_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """Django's seven email settings (``EMAIL_BACKEND``, ``EMAIL_HOST``…) from ``environ``."""
    url = environ.get("EMAIL_URL", "").strip()
    if url:
        return _from_url(url)
    host = environ.get("EMAIL_HOST", "").strip()
    if not host:
        return dict(CONSOLE)
    return {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": host,
        "EMAIL_PORT": int(environ.get("EMAIL_PORT", "") or 25),
        "EMAIL_HOST_USER": environ.get("EMAIL_HOST_USER", ""),
        "EMAIL_HOST_PASSWORD": environ.get("EMAIL_HOST_PASSWORD", ""),
        "EMAIL_USE_TLS": environ.get("EMAIL_USE_TLS", "").strip().lower() in TRUE,
        "EMAIL_USE_SSL": environ.get("EMAIL_USE_SSL", "").strip().lower() in TRUE,
    }


def _from_url(url: str) -> dict[str, Any]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in BACKENDS:
        raise RuntimeError(f"EMAIL_URL: unknown scheme {scheme!r} (smtp, smtps, console, dummy)")
    if BACKENDS[scheme] != SMTP:
        return {**CONSOLE, "EMAIL_BACKEND": BACKENDS[scheme]}
    query = {key: values[-1].lower() for key, values in parse_qs(parts.query).items()}
    ssl = scheme == "smtps" or query.get("ssl", "") in TRUE
    return {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": parts.hostname or "localhost",
        "EMAIL_PORT": parts.port or (465 if ssl else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": not ssl and query.get("tls", "") in TRUE,
        "EMAIL_USE_SSL": ssl,
    }
