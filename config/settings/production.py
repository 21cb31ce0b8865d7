"""Production: PostgreSQL, Redis, real mail, HTTPS. Refuses to start without a SECRET_KEY."""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import env_bool, smtp_mailer

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if len(SECRET_KEY) < 50:
    raise ImproperlyConfigured(
        "Set SECRET_KEY (50 or more random characters) to run in production."
    )
DEBUG = False

# Behind a proxy that terminates HTTPS (docs/operations.md, Deploying): the header it sets to say
# the request came by HTTPS. Empty when the app faces the network itself, for then a client could
# send the header and pass for HTTPS.
PROXY_SSL_HEADER = os.environ.get("PROXY_SSL_HEADER", "X-Forwarded-Proto").strip()
if PROXY_SSL_HEADER:
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + PROXY_SSL_HEADER.upper().replace("-", "_"), "https")
# Who a request came from, for the rate limits per IP (allauth's): behind the proxy every request
# comes from the proxy's address, so that one client's guesses would lock every client out; the
# proxy appends the client's address to X-Forwarded-For, and that entry counts (the last one for
# one proxy). None without a proxy, or a client could name any address it likes.
ALLAUTH_TRUSTED_PROXY_COUNT = int(
    os.environ.get("TRUSTED_PROXY_COUNT", "") or (1 if PROXY_SSL_HEADER else 0)
)
ADMIN_URL = os.environ.get("ADMIN_URL", "").strip("/") + "/"
if ADMIN_URL == "/":
    ADMIN_URL = "backstage/"  # not admin/, the address every scanner tries
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
# Cookies only by HTTPS, out of reach of scripts, not sent along with other sites' POSTs; the
# __Host- prefix makes browsers refuse them unless secure, for this host alone, path /.
SESSION_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_NAME = "__Host-sessionid"
CSRF_COOKIE_SECURE = True
CSRF_COOKIE_HTTPONLY = True  # the pages carry the token (hx-headers on <body>); no script reads it
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_NAME = "__Host-csrftoken"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Real mail only: SMTP at EMAIL_HOST (a local MTA by default).
MAILERS = {"default": smtp_mailer(os.environ.get("EMAIL_HOST") or "localhost")}
