"""The moderation queue in the browser: a player reports a rude chat message and the player who
wrote it; a moderator (the permission games.moderate, not a superuser) finds them in the queue,
reads the message in its context, hides it and mutes its writer for three days; the writer's
chat then refuses them, and the message is gone from everyone's table. A phone's width for the
players, a laptop's for the staff."""

import pytest
from django.contrib.auth.models import Permission

from games import chat
from tests.e2e.conftest import artifact
from tests.factories import started_game

pytestmark = [pytest.mark.e2e, pytest.mark.worker]


def test_a_report_worked_through_the_queue(player):
    ann, ann_page = player(width=390, display_name="Ann")
    tom, tom_page = player(width=390, display_name="Tom")
    staff, staff_page = player(display_name="Mo", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="moderate"))
    game = started_game([ann, tom])
    chat.chat_post(game_id=game.pk, user=ann, text="Good luck, both")
    chat.chat_post(game_id=game.pk, user=tom, text="You play like a potato")

    # Ann reports the message from the chat, then Tom from his page.
    ann_page.goto(f"/games/{game.pk}/chat/")
    line = ann_page.locator(".chat-line", has_text="You play like a potato")
    line.get_by_role("button", name="Report").click()
    # The chat thanks her, and marks the message as reported (to her), with no second Report.
    line.locator(".chat-reported", has_text="Reported").wait_for()
    thanks = ann_page.locator("#chat [role=status]")
    assert "the moderators will look into it" in thanks.inner_text()
    assert line.get_by_role("button", name="Report").count() == 0
    ann_page.screenshot(path=artifact("chat-reported-390.png"), full_page=True)
    ann_page.set_viewport_size({"width": 1280, "height": 900})
    ann_page.screenshot(path=artifact("chat-reported-1280.png"), full_page=True)
    ann_page.set_viewport_size({"width": 390, "height": 900})
    ann_page.goto(f"/players/{tom.username}/")
    ann_page.locator("#report summary").click()
    ann_page.locator("#report select[name=reason]").select_option("abandoning")
    ann_page.locator("#report textarea[name=note]").fill("Left three games this week.")
    ann_page.screenshot(path=artifact("moderation-report-390.png"), full_page=True)
    with ann_page.expect_navigation():
        ann_page.get_by_role("button", name="Send to the moderators").click()
    assert "the moderators will look into it" in ann_page.locator("main").inner_text()

    # The moderator: the queue, Tom's case, the message in its context; hide it, then mute.
    staff_page.goto("/staff/moderation/")
    staff_page.screenshot(path=artifact("moderation-queue-1280.png"), full_page=True)
    with staff_page.expect_navigation():
        staff_page.locator("main table").get_by_role("link", name="Tom").click()
    case = staff_page.locator("main")
    assert "Good luck, both" in case.inner_text() and "Left three games this week." in (
        case.inner_text()
    )
    staff_page.screenshot(path=artifact("moderation-case-1280.png"), full_page=True)
    # A warning first: the case stays open, and the moderator is back at it.
    staff_page.locator("select[name=kind]").select_option("warn")
    staff_page.locator("textarea[name=reason]").fill("Mind your words.")
    with staff_page.expect_navigation():
        staff_page.get_by_role("button", name="Take this measure").click()
    assert staff_page.url.endswith(f"/staff/moderation/{tom.username}/")
    hide = staff_page.locator(".reported-message form")
    hide.locator("input[name=reason]").fill("Insults in the chat.")
    with staff_page.expect_navigation():
        hide.get_by_role("button", name="Hide the message").click()
    staff_page.locator("select[name=kind]").select_option("mute")
    staff_page.locator("textarea[name=reason]").fill("Insults in the chat, again.")
    staff_page.locator("input[name=days]").fill("3")
    with staff_page.expect_navigation():
        staff_page.get_by_role("button", name="Take this measure").click()
    assert "The measure is logged." in staff_page.locator("main").inner_text()
    staff_page.goto(f"/staff/moderation/{tom.username}/")
    history = staff_page.locator("main").inner_text()
    assert "Hide the message" in history and "Mute in chat" in history and "Mo" in history
    assert "Warn" in history

    # Everyone's chat shows the message's place, not its text; Tom may not write.
    for page in (ann_page, tom_page):
        page.goto(f"/games/{game.pk}/chat/")
        assert "potato" not in page.content()
        assert "(hidden by a moderator)" in page.locator("main").inner_text()
    hidden = ann_page.locator(".chat-line", has_text="(hidden by a moderator)")
    assert hidden.get_by_role("button", name="Report").count() == 0
    # In place of the box to write in, he reads why.
    tom_page.locator("main .message.warning", has_text="muted").wait_for()
    assert tom_page.locator("#chat-text").count() == 0
    tom_page.screenshot(path=artifact("moderation-muted-390.png"), full_page=True)
