"""The public pages of the emails players opt into (no account, no login):

- ``/l/<league>/players/<id>/emails/``: sign up for one's seats and night reports, reached from
  the player's public page: an address and a box to tick (the words are stored with the
  consent); a confirmation email follows, and nothing else is sent until its link is opened.
- ``/emails/confirm/<token>/``: the confirmation link: a button that confirms (a GET changes
  nothing, so a mail scanner that opens links confirms nobody).
- ``/emails/unsubscribe/<token>/``: every email's unsubscribe link: a GET shows a button, a POST
  unsubscribes, and so does the one-click POST a mail program sends (RFC 8058, no CSRF token:
  the signed link is the authority). Idempotent.

No page shows an address: the sign-up page answers the same whatever was asked before.
"""

from __future__ import annotations

from django import forms
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from core.errors import DomainError, NotFoundError
from league.access import email_signup_wait
from league.models import Player
from league.services import email_consent_wording
from scoring.standings.selectors import league_public_get
from tournaments.services import mail


class SignupForm(forms.Form):
    email = forms.EmailField(label="Your email address", max_length=254)
    agreed = forms.BooleanField(label="I agree", required=True)


def _player(slug: str, player_id: int) -> Player:
    try:
        league = league_public_get(slug=slug)
    except NotFoundError as error:
        raise Http404(error.message) from error
    player = Player.objects.filter(league=league, pk=player_id).select_related("league").first()
    if player is None:
        raise Http404("no such player in this league")
    return player


@require_http_methods(["GET", "POST"])
def email_signup(request, slug: str, player_id: int):
    player = _player(slug, player_id)
    form = SignupForm(request.POST or None)
    status, done = 200, False
    if request.method == "POST":
        wait = email_signup_wait(request)
        if wait is not None:
            response = render(
                request,
                "email/page_signup.html",
                {"player": player, "form": form, "league": player.league, "wait": wait},
                status=429,
            )
            response["Retry-After"] = str(wait)
            return response
        if form.is_valid():
            try:
                mail.email_signup(
                    player=player,
                    email=form.cleaned_data["email"],
                    agreed=form.cleaned_data["agreed"],
                )
            except DomainError as error:
                form.add_error(error.field if error.field in form.fields else None, error.message)
            else:
                done = True
        if form.errors:
            status = 400
    email = form.data.get("email", "") if form.is_bound else ""
    context = {
        "player": player,
        "league": player.league,
        "form": form,
        "done": done,
        "wording": email_consent_wording(league=player.league, email=email or "the address above"),
    }
    return render(request, "email/page_signup.html", context, status=status)


@require_http_methods(["GET", "POST"])
def email_confirm(request, token: str):
    confirmed, problem = None, ""
    if request.method == "POST":
        try:
            confirmed = mail.email_confirm(token=token)
        except DomainError as error:
            problem = error.message
    status = 400 if problem else 200
    context = {"confirmed": confirmed, "problem": problem, "token": token}
    return render(request, "email/page_confirm.html", context, status=status)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def email_unsubscribe(request, token: str):
    try:
        player = mail.unsubscribe_target(token=token)
    except NotFoundError as error:
        return render(
            request, "email/page_unsubscribe.html", {"problem": error.message}, status=400
        )
    done = False
    if request.method == "POST":
        mail.email_unsubscribe(token=token)
        done = True
        if request.POST.get("List-Unsubscribe") == "One-Click":
            return HttpResponse("Unsubscribed.\n", content_type="text/plain; charset=utf-8")
    context = {"player": player, "league": player.league, "done": done, "token": token}
    return render(request, "email/page_unsubscribe.html", context)
