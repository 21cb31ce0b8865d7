"""Replies to turn mails through a provider's inbound webhook (django-anymail, Mailgun's here):
the provider's signature and the webhook's secret are checked before anything is read."""

import base64
import hashlib
import hmac
import importlib
import time

import pytest
from django.test import Client
from django.urls import clear_url_caches

from games.engine import GameState
from games.models import Game, InboundMail
from games.notifications.reply_tokens import TurnRef, reply_address
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db
KEY = "mailgun-signing-key"


@pytest.fixture
def webhook(settings):
    settings.MAIL_PLAY_ADDRESS = "play@localhost"
    settings.ANYMAIL = {"WEBHOOK_SECRET": "user:secret", "MAILGUN_WEBHOOK_SIGNING_KEY": KEY}
    import config.urls

    importlib.reload(config.urls)
    clear_url_caches()
    yield "/anymail/mailgun/inbound_mime/"
    settings.ANYMAIL = {}
    importlib.reload(config.urls)
    clear_url_caches()


def post(client, url, raw: str, *, key=KEY, auth="user:secret"):
    timestamp, token = str(int(time.time())), "a" * 50
    signature = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    headers = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(auth.encode()).decode()}
    data = {"body-mime": raw, "timestamp": timestamp, "token": token, "signature": signature}
    return client.post(url, data, **headers)


def a_turn():
    game = started_game([UserFactory(), UserFactory()])
    seat = game.seats.select_related("user").get(index=game.to_move_seat)
    card = GameState.from_dict(game.state).view(seat.index).hand[0]
    address = reply_address(TurnRef(game.pk, seat.index, game.version))
    raw = (
        f"From: {seat.user.email}\r\nTo: {address}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: <hook-{game.pk}@example.org>\r\n\r\nstock, discard {card.face}\r\n"
    )
    return game, raw


def test_a_signed_webhook_plays_the_turn_and_a_retry_plays_nothing_more(client, webhook):
    game, raw = a_turn()
    assert post(client, webhook, raw).status_code == 200
    assert InboundMail.objects.get().outcome == "played"
    assert post(client, webhook, raw).status_code == 200  # the provider's retry
    assert InboundMail.objects.count() == 1
    assert Game.objects.get(pk=game.pk).version == game.version + 2


@pytest.mark.parametrize("forged", ["signature", "secret"])
def test_a_forged_webhook_is_refused_and_reads_nothing(client, webhook, forged):
    game, raw = a_turn()
    options = {"key": "wrong"} if forged == "signature" else {"auth": "user:wrong"}
    assert post(client, webhook, raw, **options).status_code in (400, 401, 403)
    assert not InboundMail.objects.exists()
    assert Game.objects.get(pk=game.pk).version == game.version


def test_without_a_secret_there_is_no_webhook(client, settings):
    assert client.post("/anymail/mailgun/inbound_mime/", {}).status_code == 404


def anymail_addresses() -> list[str]:
    """Every address django-anymail's URLs would answer, one sample of each pattern."""
    from anymail import urls as anymail_urls

    addresses = []
    for pattern in anymail_urls.urlpatterns:
        route = str(pattern.pattern).lstrip("^").rstrip("$")
        addresses.append("/anymail/" + route.replace("(_mime)?", ""))
    return addresses


def test_only_the_configured_providers_inbound_address_is_mounted(client, webhook):
    """Every other provider's address (tracking, inbound of providers without their keys or
    packages) answered an anonymous POST with 500: now 404; the configured one refuses a post
    without its secret with a 4xx."""
    answers = {
        address: client.post(address, {"x": "1"}).status_code for address in anymail_addresses()
    }
    mounted = {address for address, status in answers.items() if status != 404}
    assert mounted == {"/anymail/mailgun/inbound/"}, answers
    assert 400 <= answers["/anymail/mailgun/inbound/"] < 500
    assert 400 <= client.post(webhook, {"x": "1"}).status_code < 500


def test_a_body_over_the_limit_with_a_csrf_cookie_is_a_400_not_a_500(webhook, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = Client(enforce_csrf_checks=True)  # as a browser's post is checked
    client.cookies["csrftoken"] = "a" * 32
    headers = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(b"user:secret").decode()}
    body = "body-mime=" + "x" * 5000
    response = client.post(
        webhook, body, content_type="application/x-www-form-urlencoded", **headers
    )
    assert response.status_code == 400


def test_the_400_page_answers_a_body_over_the_limit_with_a_csrf_cookie(settings):
    """Django's own 400 page checks the CSRF token, which reads the body it was called for: a
    body too large raised again inside the error page (a 500 at the webhooks)."""
    from django.core.exceptions import RequestDataTooBig
    from django.test import RequestFactory
    from django.urls import get_resolver

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    request = RequestFactory().post(
        "/anymail/mailgun/inbound/", "body-mime=" + "x" * 5000,
        content_type="application/x-www-form-urlencoded",
    )  # fmt: skip
    request.COOKIES["csrftoken"] = "a" * 32
    handler = get_resolver().resolve_error_handler(400)
    assert handler(request, RequestDataTooBig("too big")).status_code == 400


def test_the_webhook_takes_what_the_smtp_server_takes_and_refuses_more_with_413(client, webhook):
    """One limit whichever way mail comes: 1 MB (smtp.MAX_BYTES), answered 413 with its reason
    by the webhook as 552 by the SMTP server (tests/mailplay/test_mail_server.py)."""
    _game, raw = a_turn()
    lines = "".join("x" * 71 + "\r\n" for _ in range(900_000 // 73))
    near = raw.replace("\r\n\r\n", f"\r\n\r\n{lines}", 1)  # 0.9 MB of lines before the move
    assert post(client, webhook, near).status_code == 200
    assert InboundMail.objects.get().outcome in ("played", "refused")
    over = raw.replace("\r\n\r\n", "\r\n\r\n" + lines * 2, 1)  # 1.8 MB
    response = post(client, webhook, over)
    assert response.status_code == 413 and "over 1 MB" in response.content.decode()
    assert InboundMail.objects.count() == 1


@pytest.mark.parametrize(
    "header",
    [
        "Authentication-Results: mx.example.net; spf=fail smtp.mailfrom=evil.example; dkim=none",
        "Authentication-Results: mx.example.net; dkim=fail header.d=example.org",
        "X-Mailgun-Spf: Fail",
    ],
)
def test_a_mail_whose_provider_reports_spf_or_dkim_failed_is_not_played(client, webhook, header):
    """The From is the only proof of the sender: where the provider says it failed, the mail
    is recorded and ignored, never played (and never answered: the From may not be theirs)."""
    game, raw = a_turn()
    version = game.version
    assert post(client, webhook, header + "\r\n" + raw).status_code == 200
    row = InboundMail.objects.get()
    assert (row.outcome, row.reason) == ("ignored", "sender")
    assert Game.objects.get(pk=game.pk).version == version


def test_a_pass_changes_nothing(client, webhook):
    _game, raw = a_turn()
    header = "Authentication-Results: mx.example.net; spf=pass; dkim=pass header.d=example.org"
    assert post(client, webhook, header + "\r\n" + raw).status_code == 200
    assert InboundMail.objects.get().outcome == "played"


def test_a_signed_post_without_its_mail_is_a_400(client, webhook):
    """Mailgun's MIME post without `body-mime` raised anymail's KeyError: a 500."""
    timestamp, token = str(int(time.time())), "b" * 50
    signature = hmac.new(KEY.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    headers = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(b"user:secret").decode()}
    data = {"timestamp": timestamp, "token": token, "signature": signature}
    response = client.post(webhook, data, **headers)
    assert response.status_code == 400
    assert not InboundMail.objects.exists()


@pytest.fixture
def unkeyed_webhook(settings):
    """The webhook mounted by its secret, its provider's signing key forgotten."""
    settings.ANYMAIL = {"WEBHOOK_SECRET": "user:secret"}
    import config.urls

    importlib.reload(config.urls)
    clear_url_caches()
    yield
    settings.ANYMAIL = {}
    importlib.reload(config.urls)
    clear_url_caches()


def webhook_errors():
    from django.core import checks

    return [m for m in checks.run_checks() if m.id == "games.E001"]


def test_a_webhook_without_its_providers_key_fails_the_check(unkeyed_webhook):
    [error] = webhook_errors()
    assert error.level == 40 and "MAILGUN_WEBHOOK_SIGNING_KEY" in error.msg


def test_a_configured_webhook_or_none_passes_the_check(settings, webhook):
    assert webhook_errors() == []
    settings.ANYMAIL = {}
    assert webhook_errors() == []


@pytest.mark.parametrize("address", ["/anymail/mailgun/inbound/", "/anymail/mailgun/inbound_mime/"])
def test_a_webhook_without_its_providers_key_answers_503_saying_so(
    client, unkeyed_webhook, address
):
    """It was a 500 on every post: the provider retries a 503 once the key is set."""
    _game, raw = a_turn()
    response = post(client, address, raw)
    assert response.status_code == 503 and "not configured" in response.content.decode()
    assert not InboundMail.objects.exists()
