"""/metrics read in tests as Prometheus would (tests/test_health.py, tests/test_tracing.py)."""

from django.urls import reverse

TOKEN = "metrics-token-for-tests-0123456789"


def scrape(client, token=TOKEN) -> dict[str, float]:
    """/metrics read as Prometheus would: each sample line's name{labels} and value."""
    response = client.get(reverse("metrics"), HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"].startswith("text/plain; version=")
    samples = {}
    for line in response.content.decode().splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            samples[name] = float(value)
    return samples
