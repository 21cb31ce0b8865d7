"""Mail written to files (config/mail.py, the embedded default's var/mail/): a person reads the
file as it is, so its bodies are plain UTF-8, and a link copied from it works."""

import re

import pytest
from django.urls import reverse

from config.settings.base import file_mailer
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def mail_dir(settings, tmp_path):
    settings.MAILERS = {"default": file_mailer(tmp_path)}
    return tmp_path


def written(mail_dir) -> str:
    files = sorted(mail_dir.iterdir())
    assert files, "no mail was written"
    return "\n".join(path.read_text(encoding="utf-8") for path in files)


def link_in(text: str, path: str) -> str:
    """The first link to `path` as a reader would copy it (from its start to the next space),
    without its scheme and host."""
    found = re.search(r"https?://[^/\s]+(" + re.escape(path) + r"\S*)", text)
    assert found, text
    return found.group(1)


def test_a_confirmation_link_copied_from_the_file_confirms_the_address(client, mail_dir):
    password = "a long enough pass 42"
    client.post(
        reverse("account_signup"),
        {"username": "zoë", "display_name": "Zoë Ő.", "email": "zoe@example.com",
         "password1": password, "password2": password},
    )  # fmt: skip
    text = written(mail_dir)
    assert "quoted-printable" not in text and "base64" not in text
    assert "3·13" in text  # the subject's header too, as it reads
    confirm = link_in(text, "/accounts/confirm-email/")
    page = client.get(confirm)
    assert page.status_code == 200 and "zoe@example.com" in page.content.decode()


def test_a_reset_link_copied_from_the_file_opens_the_reset_form(client, mail_dir):
    user = UserFactory(email="ida@example.com")
    client.post(reverse("account_reset_password"), {"email": user.email})
    reset = link_in(written(mail_dir), "/accounts/password/reset/key/")
    page = client.get(reset, follow=True)
    assert page.status_code == 200 and 'name="password1"' in page.content.decode()
