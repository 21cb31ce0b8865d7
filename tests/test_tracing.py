"""games/tracing.py: what a request adds to /metrics is bounded whatever the client sends, and its
log line names the player only if the request read who they are."""

import logging

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import UserFactory
from tests.metrics import TOKEN, scrape

pytestmark = pytest.mark.django_db


def test_invented_methods_are_one_series_not_one_each(client, settings):
    """500 anonymous requests with invented methods made 500 new series: each is "other"."""
    settings.METRICS_TOKEN = TOKEN
    before = scrape(client)
    for n in range(20):
        client.generic(f"INVENTED{n}", reverse("how_to_play"))
    after = scrape(client)
    assert not [name for name in after if "INVENTED" in name]
    other = [
        name for name in after
        if name.startswith("tt_http_requests_total{") and 'method="other"' in name
        and 'view="how_to_play"' in name
    ]  # fmt: skip
    assert sum(after[n] - before.get(n, 0) for n in other) == 20
    added = {name for name in after if name.startswith("tt_http_requests_total")} - set(before)
    assert len(added) <= 2, added  # "other" with the one or two statuses it was answered


@pytest.mark.parametrize("address", ["/no/such/page/?x=1", "/games/123456789/", "/api/v1/games/1"])
def test_the_labels_are_the_routes_not_the_addresses(client, settings, address):
    """The view label is the route's name ("unmatched" for none): an address a client invents
    adds no series of its own."""
    settings.METRICS_TOKEN = TOKEN
    for n in range(5):
        client.post(f"{address}{n}", {"x": n}, HTTP_X_REQUEST_ID=f"invented-{n:04d}")
    names = [name for name in scrape(client) if name.startswith("tt_http_requests_total")]
    assert not [name for name in names if "/" in name or "invented" in name]


def request_lines(caplog):
    return [r for r in caplog.records if r.name == "threethirteen.request"]


def test_the_log_line_names_the_signed_in_player_who_the_request_read(client, caplog):
    caplog.set_level(logging.INFO, logger="threethirteen")
    player = UserFactory()
    client.force_login(player)
    assert client.get(reverse("home")).status_code == 200
    client.logout()
    client.get(reverse("how_to_play"))
    [signed_in, visitor] = request_lines(caplog)[-2:]
    assert signed_in.user == player.pk and visitor.user is None


def test_the_log_line_reads_no_user_the_request_did_not(caplog):
    """A request answered before anything asked who sent it logs no player: the log line never
    asks itself (no session read, no query)."""
    from django.http import HttpResponse
    from django.test import RequestFactory
    from django.utils.functional import SimpleLazyObject

    from games.tracing import request_trace

    def never_read():
        raise AssertionError("the log line read the user")

    caplog.set_level(logging.INFO, logger="threethirteen")
    request = RequestFactory().get("/")
    request.user = SimpleLazyObject(never_read)
    with CaptureQueriesContext(connection) as queries:
        assert request_trace(lambda request: HttpResponse("early"))(request).status_code == 200
    assert not queries.captured_queries and request_lines(caplog)[-1].user is None
