"""Fixtures the page tests share."""

import pytest
from django.test import Client


@pytest.fixture
def desk(organiser):
    """The organiser's logged-in browser at the night desk."""
    client = Client()
    client.force_login(organiser)
    return client
