"""The admin: games, seats and moves to look at, never to change. Every change to a game goes
through the services (the game's lock, the version check, the engine, the tasks that follow), so
the admin may not add, change or delete them. The mail outbox is read-only too."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .models import ChatMessage, ChatReport, Follow, Game, Invitation, Move, Notification, Seat


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shows every field; adds, changes and deletes nothing."""

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("index", "user", "resigned", "autopilot", "timeouts", "dropped", "final_rank")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = (
        "id", "status", "end_reason", "seat_count", "round_index", "version", "deadline",
        "created_by", "created_at", "finished_at",
    )  # fmt: skip
    list_filter = ("status", "end_reason", "is_public")
    search_fields = ("=id", "created_by__username", "seats__user__username")
    date_hierarchy = "created_at"
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("game", "index", "user", "resigned", "autopilot", "timeouts", "final_rank")
    list_filter = ("resigned", "autopilot", "dropped")
    search_fields = ("=game__id", "user__username")
    list_select_related = ("game", "user")


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "seat", "round_index", "by_bot", "created_at")
    list_filter = ("by_bot",)
    search_fields = ("=game__id",)
    list_select_related = ("game",)


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """What mail and pushes went out, and why some did not: the outbox, read-only."""

    list_display = (
        "created_at", "kind", "channel", "user", "game", "turn", "threshold", "status", "reason",
    )  # fmt: skip
    list_filter = ("kind", "channel", "status")
    search_fields = ("user__username", "user__email")
    readonly_fields = [f.name for f in Notification._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Who was invited to which game, and their answer."""

    list_display = ("created_at", "game", "invited_as", "invitee", "invited_by", "status")
    list_filter = ("status",)
    search_fields = ("invited_as", "invitee__username", "invited_by__username")
    raw_id_fields = ("game", "invitee", "invited_by")


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    """Who follows whom (the friends pages, friends-only games)."""

    list_display = ("created_at", "follower", "followee")
    search_fields = ("follower__username", "followee__username")
    raw_id_fields = ("follower", "followee")


def _chat_links(message: ChatMessage) -> str:
    """Links to the message in the admin, the game's whole chat there, and the game's page."""
    return format_html(
        '<a href="{}">{}</a> · <a href="{}">{}</a> · <a href="{}">{}</a>',
        reverse("admin:games_chatmessage_change", args=[message.pk]),
        _("message"),
        reverse("admin:games_chatmessage_changelist") + f"?game__id__exact={message.game_id}",
        _("the game's chat"),
        reverse("game", args=[message.game_id]),
        _("the game"),
    )


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    """Every chat message, with its game: staff read a reported one in its context (filter by
    the game). Escaped here too (the admin escapes what it shows)."""

    list_display = ("created_at", "game", "seq", "author", "text", "version")
    search_fields = ("=game__id", "author__username", "text")
    list_select_related = ("game", "author")
    list_filter = ("game__chat_spectators",)
    ordering = ("-created_at",)


@admin.register(ChatReport)
class ChatReportAdmin(ReadOnlyAdmin):
    """Reported chat messages, the open ones first, to read: the staff act on them through the
    moderation queue (/staff/moderation/, games/moderation.py), where each measure is logged."""

    list_display = ("created_at", "reported_text", "author", "reporter", "links", "resolved")
    list_filter = ("resolved",)
    list_select_related = ("message__author", "message__game", "reporter")
    search_fields = ("message__text", "message__author__username", "reporter__username")
    fields = ("message", "reported_text", "author", "reporter", "created_at", "links", "resolved")
    readonly_fields = ("message", "reported_text", "author", "reporter", "created_at", "links")

    @admin.display(description=_("message"))
    def reported_text(self, report: ChatReport) -> str:
        return report.message.text

    @admin.display(description=_("written by"))
    def author(self, report: ChatReport):
        return report.message.author

    @admin.display(description=_("links"))
    def links(self, report: ChatReport) -> str:
        return _chat_links(report.message)

    def has_add_permission(self, request):
        return False
