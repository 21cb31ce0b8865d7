from django.contrib import admin

from .models import Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """What mail went out, and why some did not: the outbox, read-only."""

    list_display = ("created_at", "kind", "user", "game", "turn", "threshold", "status", "reason")
    list_filter = ("kind", "status")
    search_fields = ("user__username", "user__email")
    readonly_fields = [f.name for f in Notification._meta.fields]

    def has_add_permission(self, request):
        return False
