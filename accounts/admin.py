from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "display_name", "email", "is_bot", "is_staff")
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Player", {"fields": ("display_name", "is_bot", "bot_kind")}),
    )
