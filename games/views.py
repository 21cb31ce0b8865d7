"""Views parse the request, call one service, and render a page or its partial."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from . import notifications, selectors, services
from .engine import Rules
from .forms import GameCreateForm
from .models import Game
from .services import GameError

TABLE_POLL_SECONDS = 5


def _count(value: str | None) -> int | None:
    """A non-negative whole number written in ASCII digits, or None for anything else."""
    value = value or ""
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else None


def home(request):
    if not request.user.is_authenticated:
        return render(request, "games/home.html")
    context = selectors.dashboard(request.user, page=request.GET.get("page"))
    return render(request, "games/dashboard.html", context)


@require_GET
@never_cache
def healthz(request):
    database = selectors.database_status()
    broker = selectors.broker_status()
    ok = database["ok"] and broker["ok"]
    last_seen = selectors.worker_last_seen() if database["ok"] else None
    body = {
        "status": "ok" if ok else "unavailable",
        "database": database,
        "broker": broker,
        "worker_last_seen": last_seen.isoformat() if last_seen else None,
    }
    return JsonResponse(body, status=200 if ok else 503)


@login_required
def lobby(request):
    return render(request, "games/lobby.html", {"games": selectors.lobby(request.user)})


@login_required
def game_new(request):
    form = GameCreateForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                game = services.game_create(
                    creator=request.user,
                    rules=form.rules(),
                    seat_count=data["seat_count"],
                    time_per_move_days=data["time_per_move_days"],
                    max_timeouts=data["max_timeouts"],
                    is_public=data["is_public"],
                    bot_kind=data["bots"],
                )
            except GameError as error:
                form.add_error(None, error.message)
            else:
                return redirect("game", game_id=game.pk)
        return render(request, "games/new.html", {"form": form}, status=400)
    return render(request, "games/new.html", {"form": form})


def _require_watchable(request, game, seat) -> None:
    """404 unless the viewer holds a seat, the game is public, or they came by its invitation."""
    invite = request.GET.get("invite") or request.session.get(f"invite-{game.pk}")
    if not selectors.can_watch(game, seat, invite):
        raise Http404(_("There is no such game."))


def _viewable_game(request, game_id):
    game, seat = selectors.game_for_viewer(game_id, request.user)
    if game is None:
        raise Http404(_("There is no such game."))
    _require_watchable(request, game, seat)
    return game, seat


def _page_context(request, game, seat, error=None):
    context = {"game": game, "me": seat, "error": error, "poll_seconds": TABLE_POLL_SECONDS}
    if game.status in (Game.Status.ACTIVE, Game.Status.FINISHED):
        context.update(selectors.table(game, seat))
    else:
        context["seats"] = list(game.seats.select_related("user"))
        context["free_seats"] = range(game.seat_count - len(context["seats"]))
        context["rules_summary"] = selectors.rules_summary(Rules.from_dict(game.rules))
        context["invitations"] = selectors.invitations_sent(game, seat)
        context["invite_url"] = request.build_absolute_uri(
            reverse("invite", kwargs={"code": game.invite_code})
        )
    return context


def _render_game(request, game, seat, *, status=200, error=None):
    context = _page_context(request, game, seat, error)
    template = "games/game.html"
    if request.htmx and game.status in (Game.Status.ACTIVE, Game.Status.FINISHED):
        template += "#table"
    response = render(request, template, context, status=status)
    if seat is not None and game.status == Game.Status.ACTIVE and status == 200:
        services.seat_mark_seen(seat=seat, version=game.version)
        notifications.seat_record_presence(seat=seat)
    return response


def game_detail(request, game_id):
    game, seat = _viewable_game(request, game_id)
    return _render_game(request, game, seat)


@never_cache
def game_table(request, game_id):
    """The table partial, for polling: 204 (nothing to swap) while the version is unchanged."""
    game, seat = selectors.game_for_poll(game_id, request.user)
    unchanged = game is not None and _count(request.GET.get("v")) == game.version
    if unchanged and game.status == Game.Status.ACTIVE:
        _require_watchable(request, game, seat)
        if seat is not None:
            notifications.seat_record_presence(seat=seat)  # it polls only while visible
        return HttpResponse(status=204)
    game, seat = _viewable_game(request, game_id)
    if game.status not in (Game.Status.ACTIVE, Game.Status.FINISHED):
        return HttpResponse(status=204)
    if seat is not None and game.status == Game.Status.ACTIVE:
        notifications.seat_record_presence(seat=seat)
    return render(request, "games/game.html#table", _page_context(request, game, seat))


def invite(request, code):
    game = Game.objects.filter(invite_code=code[:20]).first()
    if game is None:
        raise Http404(_("This invitation link is not valid."))
    request.session[f"invite-{game.pk}"] = code
    return redirect("game", game_id=game.pk)


def _version(request) -> int:
    version = _count(request.POST.get("version"))
    if version is None:
        raise GameError(_("This page is out of date: reload it and try again."))
    return version


def _act(request, game_id, service, **kwargs):
    """Run one write service for the player, then answer with the table (HTMX) or a redirect."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('game', kwargs={'game_id': game_id})}")
    try:
        service(game_id=game_id, user=request.user, **kwargs)
    except GameError as error:
        game, seat = selectors.game_for_viewer(game_id, request.user)
        if game is None:
            raise Http404(error.message) from None
        if not request.htmx:
            messages.error(request, error.message)
        if seat is None and not game.is_public:
            return HttpResponse(error.message, status=error.status, content_type="text/plain")
        return _render_game(request, game, seat, status=error.status, error=error.message)
    if request.htmx:
        game, seat = selectors.game_for_viewer(game_id, request.user)
        return _render_game(request, game, seat)
    return redirect("game", game_id=game_id)


def _move(service, field):
    """A move view: the card or source in `field`, and the version the player saw."""

    @require_POST
    def view(request, game_id):
        value = request.POST.get(field, "")[:20]

        def play(*, game_id, user):
            return service(game_id=game_id, user=user, version=_version(request), **{field: value})

        return _act(request, game_id, play)

    return view


move_draw = _move(services.move_draw, "source")
move_discard = _move(services.move_discard, "card")
move_go_out = _move(services.move_go_out, "card")


def _post(service):
    """A view that runs `service` for the player and game, with no other input."""
    return require_POST(lambda request, game_id: _act(request, game_id, service))


game_join = _post(services.game_join)
game_leave = _post(services.game_leave)
game_start = _post(services.game_start)
game_resign = _post(services.game_resign)


@require_POST
def game_bots(request, game_id):
    bot_kind = request.POST.get("bot", "easy")
    return _act(request, game_id, services.game_fill_with_bots, bot_kind=bot_kind)


@require_POST
def hand_sort(request, game_id):
    order = request.POST.getlist("order") or None
    return _act(
        request, game_id, services.seat_set_hand_order, sort=request.POST.get("sort", ""),
        order=order,
    )  # fmt: skip


def game_history(request, game_id):
    game, seat = _viewable_game(request, game_id)
    return render(
        request,
        "games/history.html",
        {"game": game, "moves": selectors.history(game, seat), "me": seat},
    )


def game_replay(request, game_id):
    game, _seat = _viewable_game(request, game_id)
    if game.status != Game.Status.FINISHED:
        return render(
            request,
            "games/replay.html",
            {"game": game, "error": _("The replay opens once the game is over.")},
            status=403,
        )
    step = _count(request.GET.get("step")) or 0
    context = {"game": game, **selectors.replay_step(game, step)}
    template = "games/replay.html#board" if request.htmx else "games/replay.html"
    return render(request, template, context)
