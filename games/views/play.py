"""The game's pages and the moves made on them: the dashboard, the lobby, a new game, the waiting
room and the table (with its poll), moves, history and replay. Each view parses the request,
calls one service, and renders a page or its partial."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from .. import services
from ..engine import AUTOPILOT_LEVEL, Rules
from ..errors import GameError, NoSuchGame
from ..forms import BotFillForm, GameCreateForm, QuickPlayForm
from ..models import Game
from ..notifications.presence import seat_record_presence
from ..presentation import rules_summary
from ..ratelimit import rate_limit_consume
from ..ratings import rating_of
from ..reviews import review_requested
from ..selectors import advice, chat, history, lists, reviews, table, viewer
from ..selectors.competitions import game_competition
from ..selectors.dashboard import dashboard_page

TABLE_POLL_SECONDS = 5
BOT_POLL_SECONDS = 1  # an unchanged poll is a 204 from a query or two
REVIEW_ASK_SECONDS = 60  # a review page missing rounds queues their review once a minute at most


def _count(value: str | None) -> int | None:
    """A non-negative whole number written in ASCII digits, or None for anything else."""
    value = value or ""
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else None


def home(request):
    if not request.user.is_authenticated:
        return render(request, "games/home.html")
    context = dashboard_page(request.user, page=request.GET.get("page"))
    return render(request, "games/dashboard.html", context)


@login_required
def lobby(request):
    context = {"games": lists.lobby(request.user), "quick_form": QuickPlayForm()}
    return render(request, "games/lobby.html", context)


@login_required
def game_new(request):
    """The form, and on POST the game. The form shows the seats of its number of players: when
    the number changes, htmx asks for them with the count and the seats chosen so far (a GET:
    the seats alone); without JavaScript, the form's "show the seats" button posts it back to be
    shown again, every choice kept, and nothing is created."""
    if request.method != "POST":
        form = GameCreateForm(initial=request.GET.dict())
        template = "games/new.html#seats" if request.htmx else "games/new.html"
        return render(request, template, {"form": form})
    form = GameCreateForm(request.POST)
    if "show_seats" in request.POST:
        return render(request, "games/new.html", {"form": form})
    if form.is_valid():
        try:
            game = services.game_create(creator=request.user, **form.game_kwargs())
        except GameError as error:
            form.add_error(None, error.message)
        else:
            return redirect("game", game_id=game.pk)
    return render(request, "games/new.html", {"form": form}, status=400)


def _invite_key(game_id: int) -> str:
    """Where the session keeps the invitation code a visitor followed to this game."""
    return f"invite-{game_id}"


def invite_of(request, game_id: int) -> str | None:
    return request.GET.get("invite") or request.session.get(_invite_key(game_id))


def viewable_game(request, game_id):
    """The game and the viewer's seat; 404 unless the viewer holds a seat, the game is listed
    to them, or they came by its invitation."""
    return viewer.watched(game_id, request.user, invite_of(request, game_id))


def to_login(request, next_path: str):
    """To the login page, and back to `next_path` after it (an HTMX request navigates)."""
    url = f"{reverse('account_login')}?{urlencode({'next': next_path})}"
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def login_first(request, game_id):
    """A logged-out visitor following a link to a game (from a mail, say) logs in first and then
    lands on it. Only a waiting room they may watch shows itself to them (a listed one, or one
    whose invitation link they followed, with its own 'Log in to join'); any other game, private
    in whatever state, or none at all, answers the same redirect, which tells nothing of it."""
    if request.user.is_authenticated:
        return None
    game, _seat = viewer.game_for_poll(game_id, request.user)
    waiting_room = (
        game is not None
        and game.status == Game.Status.OPEN
        and viewer.can_watch(game, None, invite_of(request, game_id))
    )
    return None if waiting_room else to_login(request, request.get_full_path())


AT_TABLE = (Game.Status.ACTIVE, Game.Status.FINISHED)  # else the waiting room


def _waiting_context(request, game, seat, error=None):
    """The waiting room: a game before it starts (or cancelled before it did)."""
    taken = {s.index: s for s in game.seats.all()}
    for s in taken.values():
        s.shown_rating = rating_of(s.user)
    return {
        "game": game,
        "me": seat,
        "error": error,
        "is_host": seat is not None and seat.user_id == game.created_by_id and not game.quick,
        "seats": [taken.get(index) for index in range(game.seat_count)],  # None: an empty seat
        "free_seats": game.seat_count - len(taken),
        "rules_summary": rules_summary(Rules.from_dict(game.rules)),
        "invitations": lists.invitations_sent(game, seat),
        "invite_url": request.build_absolute_uri(
            reverse("invite", kwargs={"code": game.invite_code})
        ),
        "bot_form": BotFillForm(),
        "poll_seconds": TABLE_POLL_SECONDS,
        "waiting_mark": viewer.waiting_mark(game),
    }


def _table_context(request, game, seat, error=None, *, partial=False, hand_shown=None):
    """The table: a game in play or over; with `hand_shown` (the mark of the hand the page
    holds), only its parts (selectors.table.table)."""
    context = {"game": game, "me": seat, "error": error, "poll_seconds": TABLE_POLL_SECONDS}
    parts = hand_shown is not None
    context.update(table.table(game, seat, parts=parts, hand_shown=hand_shown or ""))
    context["chat_version"] = viewer.chat_version(game, seat)
    # A partial answer (a move's, a poll's) leaves out the chat the page holds (its `c`).
    held = _count(_sent(request).get("c")) if partial else None
    if held != context["chat_version"]:
        context["chat"] = chat.chat(game, seat, request.user)
        context["chat_news"] = chat.news(context["chat"], seat)
        context["chat_sent"] = True
    if context["bot_to_move"]:
        context["poll_seconds"] = BOT_POLL_SECONDS
    if not partial:  # the line above the table, its league or tournament: the page's, not a poll's
        context.update(game_competition(game.pk))
    # The next game waiting on the player depends on their other games alone: drawn with the
    # whole table and with their own move's answer, not with the parts after another's move.
    others_move = parts and request.method == "GET"
    if request.user.is_authenticated and not others_move:
        next_id, waiting = lists.next_game(request.user, besides=game.pk)
        context["next_game"] = {"game_id": next_id, "waiting": waiting}
    return context


def _sent(request):
    """What the page sent with its request: a form's fields, or a poll's query."""
    return request.POST if request.method == "POST" else request.GET


def _hand_shown(request, game, error) -> str | None:
    """The mark of the hand the page holds, when the answer may be the table's parts only: an
    HTMX request of the table's, from a page showing this round of a game still in play, the
    version it shows not ahead of the game's, and no refusal to show (it is the table's)."""
    sent = _sent(request)
    version = _count(sent.get("v"))
    if not (request.htmx and request.htmx.target == "table" and error is None):
        return None
    if game.status != Game.Status.ACTIVE or version is None or version > game.version:
        return None
    if sent.get("r") != str(game.round_index):
        return None
    return sent.get("h", "")[:40]


def _table_answer(request, game, seat, *, status=200, error=None):
    """A move's or a poll's answer: the parts of the table that changed (swapped in place,
    out of band: table.html#parts), or the whole table when the page is out of step."""
    shown = _hand_shown(request, game, error)
    context = _table_context(request, game, seat, error, partial=True, hand_shown=shown)
    if shown is None:
        return render(request, "games/table.html#answer", context, status=status)
    response = render(request, "games/table.html#parts", context, status=status)
    response["HX-Reswap"] = "none"  # the parts swap themselves; the table stays
    return response


def render_game(request, game, seat, *, status=200, error=None):
    if game.status not in AT_TABLE:
        context = _waiting_context(request, game, seat, error)
        return render(request, "games/waiting.html", context, status=status)
    if request.htmx:
        response = _table_answer(request, game, seat, status=status, error=error)
    else:
        context = _table_context(request, game, seat, error)
        response = render(request, "games/table.html", context, status=status)
    if seat is not None and game.status == Game.Status.ACTIVE and status == 200:
        services.seat_mark_seen(seat=seat, version=game.version, chat=game.chat_count)
    return response


def game_detail(request, game_id):
    if login := login_first(request, game_id):
        return login
    game, seat = viewable_game(request, game_id)
    return render_game(request, game, seat)


@never_cache
def game_table(request, game_id):
    """The table partial, for polling: 204 (nothing to swap) while the version is unchanged: the
    moves (v) and, for a viewer who may read it, the chat (c)."""
    if login_first(request, game_id):  # the session ended while the table was open
        return to_login(request, reverse("game", kwargs={"game_id": game_id}))
    game, seat = viewer.watched(
        game_id, request.user, invite_of(request, game_id), read=viewer.game_for_poll
    )
    unchanged = _count(request.GET.get("v")) == game.version and (
        _count(request.GET.get("c")) or 0
    ) == viewer.chat_version(game, seat)
    if unchanged and game.status == Game.Status.ACTIVE:
        if seat is not None:
            seat_record_presence(seat=seat)  # it polls only while visible
        return HttpResponse(status=204)
    game, seat = viewable_game(request, game_id)
    if "w" in request.GET:  # a waiting room's, whatever became of the game since
        return _waiting_poll(request, game, seat)
    if game.status not in AT_TABLE:
        return HttpResponse(status=204)
    if seat is not None and game.status == Game.Status.ACTIVE:
        seat_record_presence(seat=seat)
    return _table_answer(request, game, seat)


def _waiting_poll(request, game, seat):
    """The waiting room's poll: 204 while what it shows is unchanged, else the page reloads (a
    seat taken or left, an invitation answered, the game started or cancelled). The host's poll
    is their presence: no mail about what their page shows them (notifications/policy.py)."""
    if seat is not None and game.status == Game.Status.OPEN:
        seat_record_presence(seat=seat)
    if request.GET.get("w") == viewer.waiting_mark(game):
        return HttpResponse(status=204)
    return HttpResponseClientRefresh()


@login_required
def game_next(request):
    """The game most urgently waiting on the player's move (lichess's "next game"), else the
    dashboard, saying that none waits."""
    next_id, _waiting = lists.next_game(request.user)
    if next_id is None:
        messages.info(request, _("No game is waiting on you."))
        return redirect("home")
    return redirect("game", game_id=next_id)


def invite(request, code):
    game = Game.objects.filter(invite_code=code[:20]).first()
    if game is None:
        raise Http404(_("This invitation link is not valid."))
    request.session[_invite_key(game.pk)] = code
    return redirect("game", game_id=game.pk)


def _version(request) -> int:
    version = _count(request.POST.get("version"))
    if version is None:
        raise GameError(_("This page is out of date: reload it and try again."))
    return version


def _act(request, game_id, service, **kwargs):
    """Run one write service for the player, then answer with the table (HTMX) or a redirect.
    A refusal answers its 4xx with the page (or, for HTMX, the table) showing the message once,
    in the table's message area; at a game the player may not see, the refusal is that there is
    no such game (404), whatever the service said: it would tell them about the game."""
    if not request.user.is_authenticated:
        return to_login(request, reverse("game", kwargs={"game_id": game_id}))
    try:
        result = viewer.as_viewer(
            service, game_id=game_id, user=request.user,
            watch_code=invite_of(request, game_id), **kwargs,
        )  # fmt: skip
    except NoSuchGame as error:
        return _render_error(request, error.message, status=404)
    except GameError as error:
        game, seat = viewer.game_for_viewer(game_id, request.user)
        return render_game(request, game, seat, status=error.status, error=error.message)
    if request.htmx:
        game, seat = viewer.game_as_left(result, request.user) or viewer.game_for_viewer(
            game_id, request.user
        )
        return render_game(request, game, seat)
    return redirect("game", game_id=game_id)


def _render_error(request, message: str, *, status: int):
    """A refusal with no table to show it on: a styled page, or for HTMX the fragment that takes
    the table's place."""
    template = "games/error.html#message" if request.htmx else "games/error.html"
    return render(request, template, {"error": message}, status=status)


def _move(service, field):
    """A move view: the card or source in `field`, and the version the player saw."""

    @require_POST
    def view(request, game_id):
        value = request.POST.get(field, "")[:20]

        def play(*, game_id, user):
            rate_limit_consume(user=user, action="move")
            return service(game_id=game_id, user=user, version=_version(request), **{field: value})

        return _act(request, game_id, play)

    return view


move_draw = _move(services.move_draw, "source")
move_discard = _move(services.move_discard, "card")
move_go_out = _move(services.move_go_out, "card")


def _post(service):
    """A view that runs `service` for the player and game, with no other input."""
    return require_POST(lambda request, game_id: _act(request, game_id, service))


@require_POST
def game_join(request, game_id):
    """Take a seat; a private game's invitation link, once followed, is kept in the session."""
    return _act(request, game_id, services.game_join, invite_code=invite_of(request, game_id))


game_leave = _post(services.game_leave)
game_start = _post(services.game_start)


def game_resign(request, game_id):
    """GET: ask first (a page, so it works without JavaScript). POST: resign."""
    if request.method == "POST":
        return _act(request, game_id, services.game_resign)
    if login := login_first(request, game_id):
        return login
    game, seat = viewable_game(request, game_id)
    if seat is None or seat.resigned or game.status != Game.Status.ACTIVE:
        return redirect("game", game_id=game_id)
    others = viewer.other_people_playing(game, seat)
    return render(request, "games/resign.html", {"game": game, "other_people": others})


@require_POST
def game_bots(request, game_id):
    bot_kind = request.POST.get("bot", AUTOPILOT_LEVEL)
    return _act(request, game_id, services.game_fill_with_bots, bot_kind=bot_kind)


@require_POST
def hand_sort(request, game_id):
    def sort(*, game_id, user):
        rate_limit_consume(user=user, action="move")
        order = request.POST.getlist("order") or None
        sort = request.POST.get("sort", "")
        return services.seat_set_hand_order(game_id=game_id, user=user, sort=sort, order=order)

    return _act(request, game_id, sort)


def game_history(request, game_id):
    if login := login_first(request, game_id):
        return login
    game, seat = viewable_game(request, game_id)
    return render(
        request,
        "games/history.html",
        {"game": game, "moves": history.history(game, seat), "me": seat},
    )


def game_replay(request, game_id):
    if login := login_first(request, game_id):
        return login
    game, seat = viewable_game(request, game_id)
    if game.status != Game.Status.FINISHED:
        return render(
            request,
            "games/replay.html",
            {"game": game, "error": _("The replay opens once the game is over.")},
            status=403,
        )
    step = _count(request.GET.get("step")) or 0
    context = {"game": game, **history.replay_step(game, step)}
    context["chat"] = chat.replay_chat(game, seat, request.user, context["step"])
    template = "games/replay.html#board" if request.htmx else "games/replay.html"
    return render(request, template, context)


@never_cache
@require_GET
def game_advice(request, game_id):
    """The hard bot's advice on the player's turn (games/selectors/advice.py), asked for from
    the hint: a fragment for the hint's box. ?v= is the version the page shows."""
    if login := login_first(request, game_id):
        return login
    game, seat = viewable_game(request, game_id)
    try:
        rate_limit_consume(user=request.user, action="advice")
        context = advice.advice(game, seat, _count(request.GET.get("v")))
    except GameError as error:
        return render(request, "games/table/_advice.html", {"error": error.message},
                      status=error.status)  # fmt: skip
    return render(request, "games/table/_advice.html", context)


def game_review(request, game_id):
    """A person's decisions beside the hard level's (games/selectors/reviews.py): the viewer's
    own, or with ?seat=N another person's once a listed game is over."""
    if login := login_first(request, game_id):
        return login
    game, seat = viewable_game(request, game_id)
    wanted = _count(request.GET.get("seat"))
    seats = list(game.seats.all())
    if wanted is not None:
        shown = seats[wanted] if wanted < len(seats) else None
    else:
        shown = seat or next((s for s in seats if not s.user.is_bot), None)
    if shown is None or not reviews.may_see(game, shown, seat):
        error = _(
            "A player's review is shown to them after each round, and to everyone once a listed "
            "game is over. Bots are not reviewed."
        )
        return render(request, "games/review.html", {"game": game, "error": error}, status=403)
    context = {"game": game, "me": seat, **reviews.review_page(game, shown)}
    if context["waiting"] and cache.add(f"review-asked:{game.pk}", 1, REVIEW_ASK_SECONDS):
        review_requested(game.pk)  # lost, or on its way: once a minute at most
    return render(request, "games/review.html", context)
