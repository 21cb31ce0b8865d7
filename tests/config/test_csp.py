"""The Content-Security-Policy allows no inline script, and no page needs one: no <script> without
src, no on...= handler, no javascript: address, no htmx attribute that evaluates code (hx-on,
js: values), in any template nor in any page the site renders (every GET pattern, as a player of
the game, a visitor and the staff, and the table's HTMX fragment)."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils.csp import CSP

from tests.factories import UserFactory
from tests.urlwalk import is_admin, url_of, walk, world_build

pytestmark = pytest.mark.django_db
ROOT = Path(settings.BASE_DIR)
TEMPLATE_DIRS = [ROOT / "templates", ROOT / "games" / "templates", ROOT / "accounts" / "templates"]


class InlineScript(HTMLParser):
    """What in a page would run as script written into the page itself."""

    def __init__(self):
        super().__init__()
        self.found, self.in_script = [], False

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            value = (value or "").strip().lower()
            if name.startswith(("on", "hx-on")):
                self.found.append(f"<{tag} {name}=...>")
            elif value.startswith("javascript:") or (
                name in ("hx-vals", "hx-headers", "hx-vars")
                and value.startswith(("js:", "javascript:"))
            ):
                self.found.append(f"<{tag} {name}={value[:30]!r}>")
        # A data block (<script type="application/json">, the API docs page's settings) never
        # runs: the browser only stores its text.
        if tag == "script" and dict(attrs).get("type") == "application/json":
            return
        if tag == "script":
            self.in_script = True
            if not dict(attrs).get("src"):
                self.found.append("<script> without src")

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False

    def handle_data(self, data):
        if self.in_script and data.strip():
            self.found.append(f"<script> with a body: {data.strip()[:40]!r}")


def inline_script(html: str) -> list[str]:
    parser = InlineScript()
    parser.feed(html)
    return parser.found


def test_the_parser_finds_each_kind_of_inline_script():
    page = (
        '<script>alert(1)</script><script src="/s.js"></script><a href="JavaScript:x">a</a>'
        '<img src="x" onerror="y"><div hx-on:click="z"></div><b hx-vals="js:{a: 1}"></b>'
    )
    assert len(inline_script(page)) == 6  # the first script twice: no src, and a body
    assert inline_script('<script type="application/json">{"a": 1}</script>') == []


def test_script_src_allows_only_this_site():
    script_src = settings.SECURE_CSP["script-src"]
    assert script_src == [CSP.SELF]
    header = Client().get(reverse("how_to_play"))["Content-Security-Policy"]
    directive = next(d.strip() for d in header.split(";") if d.strip().startswith("script-src"))
    assert directive == "script-src 'self'"


def test_no_template_writes_inline_script():
    found = {}
    for folder in TEMPLATE_DIRS:
        for path in folder.rglob("*.html"):
            # Template tags inside attributes would read as junk attributes: blank them.
            text = re.sub(r"{%.*?%}|{{.*?}}", "x", path.read_text(), flags=re.S)
            if problems := inline_script(text):
                found[str(path.relative_to(settings.BASE_DIR))] = problems
    assert not found
    assert any(folder.exists() for folder in TEMPLATE_DIRS)


@pytest.mark.parametrize("who", ["player", "visitor", "staff"])
def test_no_rendered_page_carries_inline_script(who):
    world = world_build()
    client = Client()
    if who == "player":
        client.force_login(world["victims"][0])  # Alice, at her own private game
    elif who == "staff":
        client.force_login(UserFactory(is_staff=True))  # the mail previews, too
    found, pages = {}, 0
    for route, name in walk():
        if is_admin(name):
            continue
        url = url_of(route, name, world["args"])
        extra = {"format": "html"} if name == "mail_preview" else {}
        responses = [client.get(url, extra)]
        if name == "game_table":
            responses.append(client.get(url, HTTP_HX_REQUEST="true"))
        for response in responses:
            if response.get("Content-Type", "").startswith("text/html"):
                pages += 1
                if problems := inline_script(response.content.decode()):
                    found[url] = problems
    if who == "staff":
        from games.models import Notification

        for kind in Notification.Kind.values:
            response = client.get(reverse("mail_preview", args=[kind]))
            assert response.status_code == 200
            if problems := inline_script(response.content.decode()):
                found[response.request["PATH_INFO"]] = problems
    assert not found
    assert pages > 20
