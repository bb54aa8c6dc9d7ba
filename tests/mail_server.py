"""A real SMTP server for the email tests: aiosmtpd's ``Controller`` on a free port of 127.0.0.1,
in a thread of the test process, keeping every message it receives.

- ``smtp_server`` (session): the server; the PostgreSQL pass's Celery worker is started with
  ``EMAIL_HOST``/``EMAIL_PORT`` pointing at it (``tests/integration/conftest.py``), so the mail a
  worker sends arrives here too.
- ``smtp`` (a test): the same server emptied, and Django's settings pointed at it with the SMTP
  backend, so the test process's own sends (eager tasks) go through it.

A recipient in ``refuse`` is answered ``451`` (try later) once: a mail server that refused, for
the retry tests.
"""

from __future__ import annotations

import email
import email.policy
import socket
import threading
from dataclasses import dataclass, field

import pytest
from aiosmtpd.controller import Controller


@dataclass
class Received:
    sender: str
    recipients: list[str]
    message: email.message.EmailMessage

    @property
    def text(self) -> str:
        return self.message.get_body(preferencelist=("plain",)).get_content()

    @property
    def html(self) -> str:
        return self.message.get_body(preferencelist=("html",)).get_content()


@dataclass
class Collector:
    """The aiosmtpd handler: keeps each message, refuses the addresses in ``refuse`` once."""

    messages: list[Received] = field(default_factory=list)
    refuse: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        with self.lock:
            if address in self.refuse:
                self.refuse.discard(address)
                return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append(Received(envelope.mail_from, list(envelope.rcpt_tos), message))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[Received]:
        with self.lock:
            return [received for received in self.messages if address in received.recipients]

    def recipients(self) -> list[str]:
        with self.lock:
            return sorted(address for received in self.messages for address in received.recipients)


@dataclass
class SmtpServer:
    port: int
    collector: Collector


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def smtp_server():
    collector = Collector()
    controller = Controller(collector, hostname="127.0.0.1", port=_free_port())
    controller.start()
    yield SmtpServer(port=controller.port, collector=collector)
    controller.stop()


@pytest.fixture
def smtp(smtp_server, settings) -> Collector:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = smtp_server.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    with smtp_server.collector.lock:
        smtp_server.collector.messages.clear()
        smtp_server.collector.refuse.clear()
    return smtp_server.collector
