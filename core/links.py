"""Links to many objects of one kind on one page, each reversed once.

A page that lists hundreds of partners, or a score card with a link to correct each hand, would
otherwise call ``reverse`` once a row, and each call costs tens of microseconds."""

from collections.abc import Callable

from django.urls import reverse

_MARKER = 987654321
"""An id put in the URL's last argument when it is reversed: it is there alone (``rpartition``)."""


def link_by_pk(name: str, *args) -> Callable[[int], str]:
    """``reverse(name, args=[*args, pk])`` for any integer ``pk``, reversed once."""
    before, _, after = reverse(name, args=[*args, _MARKER]).rpartition(str(_MARKER))
    return lambda pk: f"{before}{int(pk)}{after}"
