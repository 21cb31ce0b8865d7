"""Long names and the phone: a 40-character display name without spaces and a 150-character
username widen no page nor mail at 360 px, break no badge and hide no score in the scoresheet; at
360 x 740 the hand and the piles are on the first screen in the first round and the last (in a
game with a clock); and a new account takes the browser's time zone at sign-up."""

import pytest
from django.core import mail

from accounts.models import User
from games import chat, friends, invitations, services
from games.models import Game
from tests.e2e.conftest import artifact, log_in, sign_up
from tests.e2e.table import fresh
from tests.factories import GameFactory, UserFactory, play_on, started_game
from tests.notifications.helpers import html_of, send_all

pytestmark = [pytest.mark.e2e, pytest.mark.worker]

PHONE = {"width": 360, "height": 740}
LONG_DISPLAY_NAME = "W" * 40
LONG_USERNAME = "m" * 150


def my_turn_to_draw(game, user) -> bool:
    seat = game.seats.get(user=user).index
    return game.to_move_seat == seat and game.version == game.turn_version


def too_wide(page, path) -> str | None:
    page.goto(path)
    width = page.evaluate("document.documentElement.scrollWidth")
    return f"{path}: {width} px" if width > PHONE["width"] else None


@pytest.fixture
def every_game_rated(settings):
    settings.RATING_MIN_ROUNDS = 0
    settings.LEADERBOARD_MIN_GAMES = 1


def test_long_names_widen_no_page_at_360_px(open_page, every_game_rated):
    wide = UserFactory(display_name=LONG_DISPLAY_NAME, table_tour_done=True)
    long = UserFactory(username=LONG_USERNAME, display_name="", table_tour_done=True)
    playing = started_game([wide, long], seat_count=3, bots="medium")
    chat.chat_post(game_id=playing.pk, user=long, text="x" * 200)
    finished = started_game([long, wide])
    services.game_resign(game_id=finished.pk, user=wide)
    waiting = GameFactory(created_by=long, seat_count=3, is_public=False)
    invitations.game_invite(game_id=waiting.pk, user=long, who=wide.username)
    friends.follow_create(follower=wide, followee=long)
    friends.follow_create(follower=long, followee=wide)

    paths = [
        "/", "/lobby/", "/friends/", "/leaderboard/", "/games/new/", "/notices/",
        "/accounts/notifications/", "/how-to-play/", "/accounts/vacation/",
        f"/players/{wide.username}/", f"/players/{long.username}/",
        f"/games/{playing.pk}/", f"/games/{playing.pk}/history/", f"/games/{playing.pk}/chat/",
        f"/games/{finished.pk}/", f"/games/{finished.pk}/replay/", f"/games/{waiting.pk}/",
    ]  # fmt: skip
    found = []
    for user in (wide, long):
        page = open_page(**PHONE)
        log_in(page, user)  # lands on the dashboard with "Signed in as ..."
        assert user.name in page.locator("main .messages").inner_text()
        width = page.evaluate("document.documentElement.scrollWidth")
        found += [f"/ after login: {width} px"] if width > PHONE["width"] else []
        page.locator("header .menu-button").click()  # the menu open, with the name in it
        width = page.evaluate("document.documentElement.scrollWidth")
        found += [f"/ with the menu open: {width} px"] if width > PHONE["width"] else []
        page.screenshot(path=str(artifact(f"long-names-home-{user.pk}-360px.png")))
        found += [problem for path in paths if (problem := too_wide(page, path))]
        page.goto(f"/games/{playing.pk}/")
        page.screenshot(path=str(artifact(f"long-names-table-{user.pk}-360px.png")), full_page=True)
        found += [f"seat box at 360 px: {problem}" for problem in seat_names_cut(page)]
    assert not found, "\n".join(found)


SEAT_NAMES_CUT = """() => [...document.querySelectorAll("#table .player .pname")].flatMap(line => {
  const box = line.getBoundingClientRect(), name = line.querySelector(".seat-name");
  const seen = Math.min(name.getBoundingClientRect().right, box.right)
    - Math.max(name.getBoundingClientRect().left, box.left);
  const cut = [...line.querySelectorAll(".badge")].filter(
    badge => badge.getBoundingClientRect().right > box.right + 1);
  return (seen < 40 ? [`${name.title}: ${Math.round(seen)} px of the name seen`] : [])
    .concat(cut.map(badge => `${name.title}: its ${badge.textContent.trim()} badge cut off`));
})"""


def seat_names_cut(page) -> list[str]:
    """A seat's name may be cut short, but not to nothing, and never its badges (dealer, you,
    bot, autopilot...)."""
    return page.evaluate(SEAT_NAMES_CUT)


def first_screen(page, selector) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_the_hand_and_the_piles_are_on_the_first_screen_in_every_round(open_page):
    # A clock (the turn's due time in the header, the time left on the seat) and a long name.
    me = UserFactory(display_name=LONG_DISPLAY_NAME, table_tour_done=True)
    game = started_game([me], seat_count=4, bots="medium", time_per_move_days=3)
    page = open_page(**PHONE)
    log_in(page, me)
    for round_index in (0, 10):  # the first round and the last (13 cards, 14 once drawn)
        play_on(
            game,
            level="medium",
            until=lambda g, wanted=round_index: g.round_index == wanted and my_turn_to_draw(g, me),
        )
        assert fresh(game).status == Game.Status.ACTIVE
        page.goto(f"/games/{game.pk}/")
        page.locator(f"#table[data-version='{game.version}'] .your-turn").wait_for()
        name = "last" if round_index else "first"
        page.screenshot(path=str(artifact(f"table-{name}-round-360x740.png")))
        assert first_screen(page, "#table .piles"), f"the piles are below the fold ({name} round)"
        assert first_screen(page, "#table form.hand"), f"the hand is below the fold ({name} round)"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size({"width": 1280, "height": 900})
    page.reload()
    page.screenshot(path=str(artifact("table-last-round-1280px.png")))


def test_the_menu_folds_away_on_a_phone_and_opens_without_javascript(browser, site):
    context = browser.new_context(base_url=site, viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        user = UserFactory()
        log_in(page, user)
        settings_link = page.locator("header").get_by_role("link", name="Settings")
        assert not settings_link.is_visible()
        page.locator("header .menu-button").click()
        assert settings_link.is_visible()
    finally:
        context.close()


MEDIA = """() => ["(hover: none)", "(pointer: coarse)", "(any-hover: hover)", "(any-pointer: fine)"]
  .filter((query) => matchMedia(query).matches)"""


@pytest.mark.parametrize(
    "device, keys_shown",
    [({"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}, False),
     ({"viewport": {"width": 1280, "height": 900}}, True)],
    ids=["phone", "desktop"],
)  # fmt: skip
def test_the_keyboard_help_shows_only_where_there_is_a_keyboard(browser, site, device, keys_shown):
    """The hand's "Keys: ← and → ..." line is for a keyboard: a phone (touch, 390 px) does not
    show it; a desktop does."""
    context = browser.new_context(base_url=site, locale="en", **device)
    try:
        page = context.new_page()
        me = UserFactory(table_tour_done=True)
        game = started_game([me], seat_count=2, bots="medium")
        log_in(page, me)
        page.goto(f"/games/{game.pk}/")
        keys = page.locator("#table .my-hand .keys")
        page.locator("#table .my-hand .keys:not([hidden])").wait_for(state="attached")
        assert keys.is_visible() == keys_shown, page.evaluate(MEDIA)
        name = "phone-390" if not keys_shown else "desktop-1280"
        page.screenshot(path=str(artifact(f"table-keys-{name}px.png")))
    finally:
        context.close()


def test_a_new_account_takes_the_browsers_time_zone(browser, site):
    context = browser.new_context(base_url=site, timezone_id="Asia/Jakarta", locale="en")
    try:
        page = context.new_page()
        page.goto("/accounts/signup/")
        sign_up(page, "ada")
        assert User.objects.get(username="ada").time_zone == "Asia/Jakarta"
    finally:
        context.close()


SCORE_COLUMNS_SEEN = """() => {
  const scroller = document.querySelector("#table .scoresheet .scroll").getBoundingClientRect();
  const within = cell => {
    const box = cell.getBoundingClientRect();
    return box.left >= scroller.left - 1 && box.right <= scroller.right + 1;
  };
  const rows = [...document.querySelectorAll("#table .scoresheet tbody tr")];
  const players = rows[0].cells.length - 1;
  return [...Array(players).keys()].filter(i => rows.every(row => within(row.cells[i + 1]))).length;
}"""


# The ranking writes each place itself, in the page's language (1st, 1., 1e, ke-1; ties share
# one): a list's own numbers beside them would say it twice ("1. 1st").
RANKING_MARKERS = """() => [...document.querySelectorAll("#table .ranking li")].map(
  item => getComputedStyle(item).listStyleType)"""


def test_the_scoresheet_shortens_long_names_at_360_and_1280_px(open_page):
    """A finished game of four (a 40-letter display name, a 150-letter username, two bots): its
    scoresheet's name headings are cut short (whole in their titles), so that the score cells of
    three players at least are in sight at 360 px without scrolling, and of all four at 1280 px.
    (And the final ranking above it gives each place once.)"""
    wide = UserFactory(display_name=LONG_DISPLAY_NAME, table_tour_done=True)
    long = UserFactory(username=LONG_USERNAME, display_name="", table_tour_done=True)
    game = started_game([wide, long], seat_count=4, bots="medium")
    play_on(game, level="medium")
    assert fresh(game).status == Game.Status.FINISHED
    page = open_page(**PHONE)
    log_in(page, wide)
    for width, wanted in ((360, 3), (1280, 4)):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/games/{game.pk}/")
        page.locator("#table .scoresheet").scroll_into_view_if_needed()
        page.screenshot(path=str(artifact(f"scoresheet-{width}px.png")))
        seen = page.evaluate(SCORE_COLUMNS_SEEN)
        assert seen >= wanted, f"at {width} px the scores of {seen} players of 4 are in sight"
        legend = page.locator("#scoresheet-legend").bounding_box()  # read whole, not scrolled
        assert legend and legend["x"] + legend["width"] <= width, "the legend runs out of sight"
        page.locator("#table .ranking").screenshot(path=str(artifact(f"ranking-{width}px.png")))
        assert page.evaluate(RANKING_MARKERS) == ["none"] * 4, "the ranking numbered twice"
        headings = page.locator("#table .scoresheet thead th[title]")
        assert headings.nth(0).get_attribute("title") == LONG_DISPLAY_NAME
        assert headings.nth(1).get_attribute("title") == LONG_USERNAME


BADGES_BROKEN = """() => [...document.querySelectorAll("main .badge")].filter(badge =>
  badge.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(badge).fontSize)
).map(badge => badge.textContent.trim())"""


LAST_COLUMN_RIGHT = """() => Math.max(...[...document.querySelectorAll("main td:last-child")]
  .map(cell => cell.getBoundingClientRect().right))"""


def test_a_badge_keeps_its_word_whole_beside_a_long_name_at_360_px(open_page, settings):
    """The leaderboard at 360 px, two long-named players after their first rated game: each one's
    PROVISIONAL badge stays on one line (it broke as PROVISION / AL)."""
    settings.RATING_MIN_ROUNDS = 0
    wide = UserFactory(display_name=LONG_DISPLAY_NAME)
    long = UserFactory(username=LONG_USERNAME, display_name="")
    game = started_game([wide, long])
    services.game_resign(game_id=game.pk, user=wide)
    page = open_page(**PHONE)
    log_in(page, long)
    page.goto("/leaderboard/")
    page.screenshot(path=str(artifact("leaderboard-360px.png")), full_page=True)
    assert page.locator("main .badge").count() >= 2
    assert not page.evaluate(BADGES_BROKEN), "a badge broke across lines"
    # And a name is cut short on one line (whole in its title), not 25 lines of one name.
    names = page.locator("main td a[href^='/players/']")
    assert names.count() == 2
    for index in range(2):
        name = names.nth(index)
        box = name.bounding_box()
        line = name.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
        assert box["height"] < 2 * line, f"{name.get_attribute('title')} takes many lines"
        assert name.get_attribute("title") in (LONG_DISPLAY_NAME, LONG_USERNAME)
    assert page.evaluate(LAST_COLUMN_RIGHT) <= PHONE["width"], "the games column is out of sight"


def test_a_mail_with_long_names_fits_a_360_px_screen(open_page):
    """The turn mails of a game between a 40-letter display name and a 150-letter username (each
    greets its reader and names the other), opened on a 360 px screen: no wider than it."""
    wide = UserFactory(display_name=LONG_DISPLAY_NAME)
    long = UserFactory(username=LONG_USERNAME, display_name="")
    started_game([wide, long], time_per_move_days=3)
    send_all()
    assert mail.outbox, "no mail was sent"
    page = open_page(**PHONE)
    found = []
    for number, message in enumerate(mail.outbox):
        page.set_content(html_of(message))
        page.screenshot(path=str(artifact(f"mail-{number}-360px.png")), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            found.append(f"{message.subject} to {message.to}: {width} px")
    assert not found, "\n".join(found)
