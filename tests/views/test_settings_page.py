"""The settings page (accounts.views.notification_preferences): each heading once, each with its
content under it."""

import re

import pytest
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def headings_and_what_follows(html: str) -> list[tuple[str, str]]:
    """Each <h2> of the page's main part: its text, and the markup up to the next heading."""
    main = html.split("<main", 1)[1].split("</main>", 1)[0]
    parts = re.split(r"<h2[^>]*>(.*?)</h2>", main, flags=re.S)
    return [(parts[i].strip(), parts[i + 1]) for i in range(1, len(parts) - 1, 2)]


@pytest.mark.parametrize("email", ["ann@example.com", ""])
def test_each_heading_once_and_none_empty(client, email):
    client.force_login(UserFactory(email=email))
    html = client.get(reverse("notification_preferences")).content.decode()
    sections = headings_and_what_follows(html)
    titles = [title for title, _body in sections]
    assert len(titles) == len(set(titles)), titles
    for title, body in sections:
        # Something a player reads or uses, not only whitespace and comments.
        assert re.search(r"<(p|ul|form|a|button)\b", body), f"{title!r} heads nothing"
    email_section = dict(sections)["Email"]
    assert 'section" value="preferences"' in email_section  # what mail to send
    assert reverse("account_email") in email_section  # and where it goes
