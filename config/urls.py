from django.conf import settings
from django.contrib import admin
from django.core.exceptions import ImproperlyConfigured
from django.urls import include, path

from accounts.views import admin_login, admin_password_change, language_set
from games.mailplay import webhook

# The admin signs in and changes passwords through the site's own pages and their limits.
admin.site.login = admin_login
admin.site.password_change = admin_password_change

urlpatterns = [
    path(settings.ADMIN_URL, admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/setlang/", language_set, name="set_language"),  # the footer's language picker
    path("api/v1/", include("games.api.urls")),  # the public API (docs/api.md)
    path("", include("games.urls")),
]
# Replies to turn mails through a mail provider's inbound webhook (games/mailplay/webhook.py), at
# /anymail/<provider>/inbound/: only once its basic-auth secret is set (each provider's own
# signature is checked too, with its key in ANYMAIL), and only the configured provider's inbound
# URL: the others (their tracking webhooks, providers without their keys or packages) answer 404,
# not a provider's error. Mounted without its provider's key, it fails `manage.py check` and
# answers 503 (games/mailplay/webhook.py).
if settings.ANYMAIL.get("WEBHOOK_SECRET"):
    inbound = webhook.inbound_patterns()
    if not inbound:
        raise ImproperlyConfigured(
            f"MAIL_PLAY_WEBHOOK_PROVIDER={settings.MAIL_PLAY_WEBHOOK_PROVIDER!r}: "
            "django-anymail has no inbound webhook of that name"
        )
    urlpatterns.append(path("anymail/", include((inbound, "anymail"))))

handler400 = "config.errors.bad_request"
handler429 = "config.errors.too_many_requests"  # allauth's limits answer through it
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
