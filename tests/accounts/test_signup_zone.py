"""A new account takes its time zone from the browser: the sign-up form's hidden time_zone field,
filled by static/js/timezone-hint.js, checked against the zones this machine knows."""

import pytest
from django.urls import reverse

from accounts.models import User
from tests.factories import signup

pytestmark = pytest.mark.django_db


def test_the_sign_up_form_carries_a_field_for_the_browsers_zone(client):
    page = client.get(reverse("account_signup")).content.decode()
    assert 'type="hidden" name="time_zone"' in page
    assert "js/timezone-hint.js" in page


def test_the_browsers_zone_becomes_the_accounts(client):
    assert signup(client, time_zone="Asia/Jakarta").status_code == 302
    assert User.objects.get(username="dave").time_zone == "Asia/Jakarta"


@pytest.mark.parametrize("zone", ["", "Mars/Olympus_Mons", "x" * 500, "../etc/passwd"])
def test_no_zone_or_one_not_known_here_is_utc_and_no_refusal(client, zone):
    """The field is filled by the browser, not typed: a player could not fix it, so it refuses
    nothing, and Settings offers the zone again."""
    assert signup(client, time_zone=zone).status_code == 302
    assert User.objects.get(username="dave").time_zone == "UTC"
