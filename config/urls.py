from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from accounts.views import language_set

urlpatterns = [
    path(settings.ADMIN_URL, admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/setlang/", language_set, name="set_language"),  # the footer's language picker
    path("", include("games.urls")),
]

handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
