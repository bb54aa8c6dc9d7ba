"""Posting a form the way a browser does at the night desk: following the redirect back to the
page, whose flash messages say what happened."""


def post(client, url, data=None):
    response = client.post(url, data or {}, follow=True)
    assert response.status_code == 200
    return response


def flashes(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]
