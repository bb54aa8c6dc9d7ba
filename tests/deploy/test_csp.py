"""The site's Content-Security-Policy (django-csp's middleware, the settings' policies)."""


def test_the_site_answers_with_its_policy(client):
    response = client.get("/healthz")
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    assert "script-src 'self'" in response["Content-Security-Policy"]
