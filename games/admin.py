from django.contrib import admin

from .models import Invitation, Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """What mail went out, and why some did not: the outbox, read-only."""

    list_display = ("created_at", "kind", "user", "game", "turn", "threshold", "status", "reason")
    list_filter = ("kind", "status")
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
