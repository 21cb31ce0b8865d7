"""Email previews in the browser (games/notifications/previews.py)."""

import pytest
from django.urls import reverse

from games.models import Notification
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", Notification.Kind.values)
def test_each_email_renders_as_a_preview_in_the_browser_for_staff(client, kind):
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    html = client.get(reverse("mail_preview", kwargs={"kind": kind}))
    assert html.status_code == 200 and b"<html" in html.content
    assert "style-src 'self' 'unsafe-inline'" in html.headers["Content-Security-Policy"]
    text = client.get(reverse("mail_preview", kwargs={"kind": kind}) + "?format=text")
    assert text["Content-Type"].startswith("text/plain")
    # Every mail can be unsubscribed from but a moderator's measure, told whatever the settings.
    assert (b"Unsubscribe" in text.content) == (kind != Notification.Kind.MODERATION)
    assert client.get(reverse("mail_preview_index")).status_code == 200


def test_previews_are_not_for_everyone(client):
    client.force_login(UserFactory())
    assert client.get(reverse("mail_preview", kwargs={"kind": "digest"})).status_code == 404
    client.force_login(UserFactory(is_staff=True))
    assert client.get(reverse("mail_preview", kwargs={"kind": "nonsense"})).status_code == 404


def test_the_preview_page_lists_the_timeout_and_drop_mails(client):
    client.force_login(UserFactory(is_staff=True))
    page = client.get(reverse("mail_preview_index")).content.decode()
    for kind in ("timed_out", "dropped"):
        assert reverse("mail_preview", kwargs={"kind": kind}) in page
        text = client.get(reverse("mail_preview", kwargs={"kind": kind}) + "?format=text")
        assert text.status_code == 200 and b"game #42" in text.content
