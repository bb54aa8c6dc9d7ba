"""Messages (Django's middleware): one that is added is kept for the next page, which shows it
once."""

from django.contrib import messages
from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpResponse
from django.test import RequestFactory


def _through_the_middleware(view, request):
    from django.contrib.sessions.middleware import SessionMiddleware

    return SessionMiddleware(MessageMiddleware(view))(request)


def test_an_added_message_is_stored_and_shown_once_on_the_next_page(client, db):
    signup = {"username": "rosie", "password1": "a-long-pass-9931", "password2": "a-long-pass-9931"}
    response = client.post("/manage/signup/", signup, follow=True)
    assert [str(message) for message in response.context["messages"]] == [
        "Welcome, rosie. Create your league below."
    ]
    again = client.get("/manage/")
    assert list(again.context["messages"]) == []


def test_a_message_added_without_a_redirect_is_kept_in_the_cookie():
    request = RequestFactory().get("/")

    def view(request):
        messages.info(request, "kept")
        return HttpResponse("ok")

    response = _through_the_middleware(view, request)
    later = RequestFactory().get("/")
    later.COOKIES["messages"] = response.cookies["messages"].value
    shown = []

    def page(request):
        shown.extend(str(message) for message in messages.get_messages(request))
        return HttpResponse("ok")

    _through_the_middleware(page, later)
    assert shown == ["kept"]
