from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import Preferences, PushSubscription, User, Vacation


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "display_name", "email", "is_bot", "is_staff")
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Player", {"fields": ("display_name", "is_bot", "bot_kind")}),
    )


@admin.register(Preferences)
class PreferencesAdmin(admin.ModelAdmin):
    list_display = ("user", "turn_mail", "reminders", "invitations", "game_over")
    list_filter = ("turn_mail",)
    search_fields = ("user__username", "user__email")
    raw_id_fields = ("user",)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    """The browsers and phones that take a player's push notices."""

    list_display = ("user", "created_at", "endpoint")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    list_display = ("user", "starts_at", "ends_at")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
