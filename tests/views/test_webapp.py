"""The installable web app (games/views/webapp.py) and turning push notices on in a browser
(accounts/views.py push_subscribe, push_unsubscribe; static/js/push.js)."""

import json
import os
import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from accounts.models import PushSubscription
from config.vapid import b64url, vapid_keys_new
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def a_subscription(endpoint="https://push.example.net/send/abc") -> dict:
    """What static/js/push.js posts: a browser's PushSubscription.toJSON(), flattened."""
    return {
        "endpoint": endpoint,
        "p256dh": vapid_keys_new()["public"],
        "auth": b64url(os.urandom(16)),
    }


def test_the_manifest_names_the_app_and_its_icons_which_are_served_locally(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Three Thirteen by post" and manifest["short_name"] == "3·13"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512", "any"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        assert icon["src"].startswith("/static/")
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


def test_the_service_worker_is_served_from_the_root_and_caches_only_static_files(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    assert 'new URL("/static/", self.location.origin).pathname' in script
    # The only cache write is in the fetch handler, behind the static-files test.
    assert script.count("cache.put(") == 1
    guard = script.index("if (!isStatic(event.request)) return;")
    assert guard < script.index("cache.put(")


def test_every_page_links_the_manifest_and_registers_the_worker_from_a_static_file(client):
    page = client.get(reverse("how_to_play")).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert re.search(r'<script src="/static/js/webapp.js" data-worker="/sw.js" defer>', page)
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), "no inline script (CSP)"


def test_a_browser_turns_notices_on_and_off(client):
    user = UserFactory()
    client.force_login(user)
    sent = a_subscription()
    assert client.post(reverse("push_subscribe"), sent).status_code == 204
    device = PushSubscription.objects.get()
    assert (device.user, device.endpoint, device.p256dh) == (user, sent["endpoint"], sent["p256dh"])
    # The same browser again (a new key after a reinstall, say): still one device.
    again = {**a_subscription(), "endpoint": sent["endpoint"]}
    assert client.post(reverse("push_subscribe"), again).status_code == 204
    assert PushSubscription.objects.get().p256dh == again["p256dh"]
    settings_page = client.get(reverse("notification_preferences")).content.decode()
    assert "Notices are on in 1 browser or phone of yours." in settings_page
    off = client.post(reverse("push_unsubscribe"), {"endpoint": sent["endpoint"]})
    assert off.status_code == 204 and not PushSubscription.objects.exists()


def test_a_shared_browser_takes_the_notices_of_whoever_subscribed_it_last(client):
    first, second = UserFactory(), UserFactory()
    sent = a_subscription()
    for user in (first, second):
        client.force_login(user)
        client.post(reverse("push_subscribe"), sent)
    assert PushSubscription.objects.get().user == second
    client.force_login(first)  # the earlier player cannot turn off the other's device
    client.post(reverse("push_unsubscribe"), {"endpoint": sent["endpoint"]})
    assert PushSubscription.objects.get().user == second


@pytest.mark.parametrize(
    "change",
    [
        {"endpoint": "http://push.example.net/send/abc"},
        # Only a known push service: the worker POSTs to it (no aiming it inside our network).
        {"endpoint": "https://10.0.0.5/admin/"},
        {"endpoint": "https://push.example.net.evil.org/send/abc"},
        {"endpoint": "https://evilpush.example.net@127.0.0.1/x"},
        {"endpoint": "javascript:alert(1)"},
        {"endpoint": ""},
        {"p256dh": "not-a-key"},
        {"p256dh": b64url(os.urandom(32))},
        {"auth": b64url(os.urandom(8))},
        {"auth": "%%%"},
    ],
)
def test_a_subscription_that_is_not_one_is_refused_with_a_400(client, change):
    client.force_login(UserFactory())
    response = client.post(reverse("push_subscribe"), {**a_subscription(), **change})
    assert response.status_code == 400 and "errors" in response.json()
    assert not PushSubscription.objects.exists()


def test_subscribing_needs_a_login_a_post_and_a_site_with_keys(client, settings):
    assert client.post(reverse("push_subscribe"), a_subscription()).status_code == 302
    client.force_login(UserFactory())
    assert client.get(reverse("push_subscribe")).status_code == 405
    assert "data-key=" in client.get(reverse("notification_preferences")).content.decode()
    settings.VAPID_PRIVATE_KEY = ""
    assert client.post(reverse("push_subscribe"), a_subscription()).status_code == 400
    assert 'id="push"' not in client.get(reverse("notification_preferences")).content.decode()


def test_the_push_switch_is_a_preference_on_the_settings_page(client):
    user = UserFactory()
    client.force_login(user)
    page = client.get(reverse("notification_preferences")).content.decode()
    assert 'name="push"' in page and 'src="/static/js/push.js"' in page
    client.post(reverse("notification_preferences"), {"turn_mail": "each", "reminders": "on"})
    assert user.preferences.push is False
