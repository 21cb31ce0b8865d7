"""Settings shared by every environment. Everything that differs between machines comes from the
environment (see .env.example)."""

import os
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


SECRET_KEY = os.environ.get("SECRET_KEY", "")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# Where the admin lives (config/urls.py); production moves it off the address every scanner tries.
ADMIN_URL = os.environ.get("ADMIN_URL", "admin/").strip("/") + "/"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "allauth",
    "allauth.account",
    # Where a player is signed in, and signing out everywhere else (accounts/sessions.py).
    "allauth.usersessions",
    # Two-factor: an authenticator app with recovery codes, and passkeys (accounts/twofactor.py).
    "allauth.mfa",
    "ninja",  # the API docs page's own files (games/api)
    "accounts",
    "games",
]

MIDDLEWARE = [
    # Each request's id (the proxy's X-Request-ID, else a new one), which its tasks carry on; its
    # time and status for /metrics and its line in the log (games/tracing.py).
    "games.tracing.request_trace",
    # Then a login from an address its limits refuse is answered before anything else runs.
    "accounts.middleware.LoginRefusalMiddleware",
    # A mail too large for the inbound webhooks, refused before anything reads it (1 MB, as SMTP).
    "games.mailplay.webhook.mail_size_limit",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A multipart body over 2.5 MB, its files counted too: 413 before anything reads it.
    "config.uploads.multipart_size_limit",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "games.tracing.user_noted",  # the player, once read, named in the request's log line
    "accounts.middleware.session_seen",
    "accounts.middleware.PlayerLocaleMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.HashingBusyMiddleware",
    "accounts.middleware.InvalidFormStatusMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "games.api.logging.ApiRequestLog",
    "config.errors.method_not_allowed_page",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.notices",
            ],
        },
    },
]

# SQLite under var/ unless DATABASE_URL names another database (PostgreSQL in production).
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}", conn_max_age=60, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Worker, beat and web share the file: wait for locks rather than fail, write-ahead log.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
elif env_bool("DATABASE_POOL", False):
    # An ASGI server (config/asgi.py sets DATABASE_POOL) runs each request's database work in a
    # thread of its own: a connection kept per thread would be left open by every thread that
    # ends, so the process shares a pool instead (psycopg's), each request borrowing one.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "8")),
        "timeout": 10,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
# Django's PBKDF2, each hash taking one of the site's slots first (accounts/hashing.py): at most
# PASSWORD_HASHING_SLOTS passwords hashed at once by the whole site (each about half a second of a
# core), the others refused with 503. Keep it below gunicorn's workers and the machine's cores,
# so that a flood of guesses, each within its rate limits, leaves a worker and a core for pages.
PASSWORD_HASHERS = ["accounts.hashers.PBKDF2PasswordHasher"]
PASSWORD_HASHING_SLOTS = int(os.environ.get("PASSWORD_HASHING_SLOTS", "1"))
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Accounts (django-allauth): sign up with an email address, log in by username or email. The
# address is verified by a link; a player may play at once, but no mail about games goes to an
# address until it is verified (accounts.selectors.verified_email), and a changed address replaces
# the old one only once the new one is verified.
# allauth's backend alone: with Django's ModelBackend after it, every failed login hashed the
# password once more (a dummy hash for a name it did not know).
AUTHENTICATION_BACKENDS = ["allauth.account.auth_backends.AuthenticationBackend"]
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {
    "login": "accounts.forms.LoginForm",
    "signup": "accounts.forms.SignupForm",
    "change_password": "accounts.forms.ChangePasswordForm",
}
# A new email address waits for the password (allauth's reauthentication), or a stolen session
# would be enough to take the account: a new address, then a reset link mailed to it.
ACCOUNT_REAUTHENTICATION_REQUIRED = True
# Sign-in codes are off: no code by mail. A player with two-factor on confirms with it, not with
# the password (accounts/adapter.py).
ACCOUNT_REAUTHENTICATION_METHODS = ("password", "mfa")
ACCOUNT_SESSION_REMEMBER = True  # games last weeks: a login lasts (SESSION_COOKIE_AGE, 2 weeks)
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_LOGIN_ON_PASSWORD_RESET = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "3·13: "
# A mail to the player when their password, address or two-factor changes, with where from: a
# change they did not make is one they hear of (templates/account/email/base_notification.txt).
ACCOUNT_EMAIL_NOTIFICATIONS = True
ACCOUNT_USER_DISPLAY = "accounts.models.display_name"
# Guessing is slow and cheap for us: a refused attempt is answered 429 before any password is
# hashed. Per address (the site's own count, LOGIN_ADDRESS_LIMITS below): 30 logins and 10
# failures a minute. Per username or email address typed, from one IP: 5 in 5
# minutes and 10 an hour (accounts/adapter.py: a stranger's guesses lock no one else out); from
# every IP together: 30 an hour, a ceiling no single IP reaches (the message then says how to get
# in: by the other of username and address, or by a reset link).
ACCOUNT_RATE_LIMITS = {
    "login": "",  # per address: LOGIN_ADDRESS_LIMITS
    "login_failed": "5/5m/key,10/h/key",
    "login_failed_account": "30/h/key",
    "signup": "",  # per address: SIGNUP_ADDRESS_LIMITS
    "reset_password": "10/m/ip,3/m/key,10/d/key",
    "reset_password_from_key": "20/m/ip",
    "change_password": "5/m/user",
    # Wrong passwords typed by a signed-in player (deleting the account, reauthenticating,
    # changing the password: accounts/passwords.py), all together.
    "password_wrong": "5/5m/user,20/d/user",
    "manage_email": "10/m/user",
    "confirm_email": "1/3m/key",
    # Wrong two-factor codes (accounts/twofactor.py), as wrong passwords: per account and IP,
    # from every IP together (a ceiling no single IP reaches), and per IP, every account together.
    "code_failed": "5/5m/key,10/h/key",
    "code_failed_account": "30/h/key",
    "code_failed_address": "10/m/ip",
}

# Two-factor (allauth.mfa, accounts/twofactor.py), offered on the settings page: an authenticator
# app (TOTP, 6 digits every 30 s) with ten recovery codes, and passkeys, which log in alone too
# (the login page's button; WebAuthn asks the device for its PIN or fingerprint). Asked after the
# password at login; before a sensitive change it is asked instead of the password. Wrong codes
# are limited as wrong passwords are ("code_failed" above).
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_TOTP_ISSUER = "Three Thirteen"
# A code of the 30 s before or after this one is taken too (RFC 6238's allowance for a phone's
# clock and the time to type it): with none, a code typed as its window closed was refused. A
# code is still good once (allauth keeps it used for the whole allowance).
MFA_TOTP_TOLERANCE = 1
MFA_FORMS = {
    "authenticate": "accounts.twofactor.AuthenticateForm",
    "add_webauthn": "accounts.twofactor.AddPasskeyForm",
}

# Logins (count, seconds) per address (accounts/refusals.py): all logins posted, and the wrong
# passwords among them. Past either, the address's logins are refused before anything runs.
LOGIN_ADDRESS_LIMITS = {"login": (30, 60), "login_failed": (10, 60)}
# Sign-ups (count, seconds) per address, counted the same way: every sign-up posted. The page that
# refuses one says how long is left (allauth's own limit could not say: "signup" above is off).
SIGNUP_ADDRESS_LIMITS = [(10, 60), (50, 3600)]

# The site's own rate limits (games/ratelimit.py): (count, seconds) per player. A message in a
# game's chat; a move (draw, discard, go out, sorting the hand) in all games together; an
# invitation (by name, email, or to a friend). Far above what a person sends; they stop a script.
# Moves: the quickest player against one bot (which answers in about a second while they are at
# the table) draws, sorts and discards about every 2 s, some 90 a minute; twice a second is no
# one's pace.
# Quick play is closed to a player who abandoned more than this percent of their games ended
# (dropped after running out of time again and again; games/competitions/records.py), once five
# games have ended. Empty: no limit.
QUICK_PLAY_MAX_ABANDONED_PERCENT = (
    int(os.environ.get("QUICK_PLAY_MAX_ABANDONED_PERCENT", "25") or 0) or None
)

RATE_LIMITS = {
    "chat": (int(os.environ.get("RATE_LIMIT_CHAT_PER_MINUTE", "5")), 60),
    "move": (int(os.environ.get("RATE_LIMIT_MOVES_PER_MINUTE", "120")), 60),
    "invitation": (int(os.environ.get("RATE_LIMIT_INVITATIONS_PER_HOUR", "20")), 3600),
    # A new league (games/competitions/leagues.py): a few a day are plenty for a person.
    "league": (int(os.environ.get("RATE_LIMIT_LEAGUES_PER_DAY", "5")), 86400),
    # Every API request made with a token (games/api/): a bot polling once a second is far below.
    "api": (int(os.environ.get("RATE_LIMIT_API_PER_MINUTE", "300")), 60),
    # The hard bot's advice at the table (games/selectors/advice.py): a search per request.
    "advice": (int(os.environ.get("RATE_LIMIT_ADVICE_PER_MINUTE", "20")), 60),
}

LANGUAGE_CODE = "en"
# Each language named in itself, so a reader finds theirs whatever the page's language. The
# catalogues are locale/<code>/LC_MESSAGES/django.po, compiled by `python -m config.translations`
# (make run and make test do it; `make messages` refreshes them from the code).
LANGUAGES = [
    ("en", "English"),
    ("id", "Bahasa Indonesia"),
    ("cs", "Čeština"),
    ("is", "Íslenska"),
    ("hu", "Magyar"),
    ("nl", "Nederlands"),
]
# locale_vendor/: strings of Django and allauth that their own catalogues leave untranslated in
# one of these languages (Icelandic), kept by hand; `make messages` writes only into locale/.
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale_vendor"]
# Dates and times in each language's formats, some of them the site's own (config/formats/).
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Content Security Policy: everything is served from this site; no inline script.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
}


# Email (Django 6.1 MAILERS): a local folder by default, so a person can read what was sent
# (var/mail/, one file per message); SMTP when EMAIL_HOST is set.
def smtp_mailer(host: str) -> dict:
    return {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {
            "host": host,
            "port": int(os.environ.get("EMAIL_PORT", "25")),
            "username": os.environ.get("EMAIL_HOST_USER", ""),
            "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
            "use_tls": env_bool("EMAIL_USE_TLS", False),
        },
    }


def file_mailer(folder: Path) -> dict:
    """Each message a file in `folder`, its bodies readable as they are (config/mail.py)."""
    return {
        "BACKEND": "config.mail.ReadableFileBackend",
        "OPTIONS": {"file_path": str(folder)},
    }


MAILERS = {
    "default": smtp_mailer(os.environ["EMAIL_HOST"])
    if os.environ.get("EMAIL_HOST")
    else file_mailer(VAR_DIR / "mail")
}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Three Thirteen <games@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Replies to a turn mail play the turn (games/mailplay/): each turn's reply address is this one
# with the turn's signed token after a "+". Mail to it must reach the site: the local SMTP server
# of `manage.py serve`, or a provider's inbound webhook (docs/operations.md).
MAIL_PLAY_ADDRESS = os.environ.get("MAIL_PLAY_ADDRESS", "play@localhost")
# Or a mail provider's inbound webhook (django-anymail), enabled by its basic-auth secret
# ("user:password", given in the webhook's address at the provider), with the provider's own
# signing key where it has one (docs/operations.md).
ANYMAIL = {
    key: os.environ[f"ANYMAIL_{key}"]
    for key in ("WEBHOOK_SECRET", "MAILGUN_WEBHOOK_SIGNING_KEY")
    if os.environ.get(f"ANYMAIL_{key}")
}
# The provider whose inbound webhook is mounted (anymail's name: mailgun, postmark, sendgrid, …).
MAIL_PLAY_WEBHOOK_PROVIDER = os.environ.get("MAIL_PLAY_WEBHOOK_PROVIDER", "mailgun")
# Where `manage.py serve` (and `manage.py mail_server`) take those replies by SMTP.
MAIL_PLAY_SMTP = os.environ.get("MAIL_PLAY_SMTP", "127.0.0.1:2525")

# Celery: Redis when REDIS_URL is set; otherwise kombu's filesystem transport under var/broker,
# which needs no server yet still hands tasks to a separate worker process. Ours (config/broker.py)
# writes each message whole before a reader can see it.
REDIS_URL = os.environ.get("REDIS_URL", "")
BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_TRANSPORT = None if REDIS_URL else "config.broker:Transport"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
else:
    CELERY_BROKER_URL = "filesystem://localhost//"  # a host named: kombu warns otherwise
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        # An idle worker looks at the folder ten times a second (a listing of a few files): a
        # bot's action waits for that look, as well as for its own brief pause.
        "polling_interval": 0.1,
    }
    # This transport's worker holds a task's countdown in a timer thread that sleeps up to this
    # long between looks (Celery's default, 1 s, came on top of each bot's pause); with Redis the
    # worker's event loop wakes for it at once.
    CELERY_WORKER_TIMER_PRECISION = 0.1


def redis_cache(url: str) -> dict:
    """django-redis, whose reads miss and whose writes are dropped while Redis does not answer
    (a restart, a failover): the cache holds nothing that cannot be lost, sessions are written
    through to the database, and rate limits count nothing for those seconds, so no page fails
    for it (tests/config/test_cache.py, tests/faults). Each skipped call is logged as a warning."""
    return {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": url,
        # Bounded waits: an unreachable Redis costs a request a second, not a hang.
        "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 1},
    }


DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True


# Sessions are read from the cache and written through to the database, so that a request (the
# table's poll above all) costs no session query: Redis when there is one, else each process's
# memory (the embedded default runs one web process).
if REDIS_URL:
    CACHES = {"default": redis_cache(REDIS_URL)}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
CELERY_TASK_IGNORE_RESULT = True
# Bot turns have a queue of their own, and so have games' reviews; a worker consumes every queue
# named here, taking them in turn (kombu rotates them), so a pile of bot turns cannot hold back
# the mail or the sweeps. A review also gives way to both (games/reviews.py).
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = tuple(Queue(name, routing_key=name) for name in ("celery", "bots", "reviews"))
CELERY_TASK_ROUTES = {
    "games.tasks.bot_move": {"queue": "bots"},
    "games.tasks.game_review": {"queue": "reviews"},
}
# The worker takes each task's message under the request id it was sent with, so that its
# "received" line carries the id as the task's later lines do (games/tracing.py).
CELERY_TASK_ANNOTATIONS = {"*": {"Strategy": "games.tracing:task_strategy"}}
CELERY_TASK_ACKS_LATE = True  # a worker killed mid-task loses nothing: the task is redelivered
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# /metrics (games/views/health.py, docs/operations.md "Metrics") answers only with this token as
# a bearer; unset, it is a 404.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# /healthz answers 503 when the worker's heartbeat (every 30 s) is older than this: four beats.
WORKER_STALE_SECONDS = int(os.environ.get("WORKER_STALE_SECONDS", "120"))
# Bots wait a moment before each action (a draw, then a discard), so their play reads like a
# turn, not a flash: at correspondence pace this long; while a player has the table open
# (presence, PRESENCE_SECONDS) only a glance's pause, so that they are not kept waiting
# (games/services.py, bot_move_delay; docs/benchmarks.md, "A bot's answer").
BOT_MOVE_DELAY_SECONDS = float(os.environ.get("BOT_MOVE_DELAY_SECONDS", "1.5"))
BOT_MOVE_DELAY_WATCHED_SECONDS = float(os.environ.get("BOT_MOVE_DELAY_WATCHED_SECONDS", "0.25"))
# A cap on the hard bot's time per move, in the worker (never in a web request). Its move is a
# bounded amount of work (at most seven hands valued, 96 sampled hands read), milliseconds to a
# few hundred, so the cap is seldom reached; when it is, with BOT_HARD_TIME_CAP on, the move keeps
# the best candidate valued so far. Tests turn the cap off, so that choices never vary.
BOT_HARD_SECONDS = float(os.environ.get("BOT_HARD_SECONDS", "1.0"))
BOT_HARD_TIME_CAP = True
# Games' reviews (games/reviews.py): a review task spends at most this much CPU time (at least a
# round) before it queues the rest this many seconds later, as it does when a bot's turn or a
# mail is waiting. A two-player game's whole review takes one to three seconds.
REVIEW_SLICE_SECONDS = float(os.environ.get("REVIEW_SLICE_SECONDS", "1.0"))
REVIEW_PAUSE_SECONDS = float(os.environ.get("REVIEW_PAUSE_SECONDS", "10"))
CELERY_BEAT_SCHEDULE = {
    "heartbeat": {"task": "games.tasks.heartbeat", "schedule": 30.0},
    # Overdue turns, autopilot, drops, reminders, stalled bots, mail not yet sent. Each run is
    # idempotent and catches up on whatever it missed; a run older than its period is dropped.
    "deadlines-sweep": {
        "task": "games.tasks.deadlines_sweep",
        "schedule": 30.0,  # a killed worker's bot turn or mail is taken up within about a minute
        "options": {"expires": 25},
    },
    "digests": {"task": "games.tasks.digests_send", "schedule": 900.0, "options": {"expires": 850}},
    # Tournaments due to start; a round whose last table's task was lost goes on.
    "tournaments-sweep": {
        "task": "games.tasks.tournaments_sweep",
        "schedule": 120.0,
        "options": {"expires": 110},
    },
    # Leagues: seasons to start, waves due, seasons to finish, should a game's message be lost.
    "leagues-sweep": {
        "task": "games.tasks.leagues_sweep",
        "schedule": 300.0,
        "options": {"expires": 280},
    },
}

# Asynchronous turns (games.deadlines, games.notifications).
# Reminders go out when these fractions of a player's time per move have run (once each per turn).
REMINDER_FRACTIONS = tuple(float(f) for f in env_list("REMINDER_FRACTIONS", "0.5,0.9"))
# The daily digest goes out at this hour (UTC) or the first sweep after it.
DIGEST_HOUR = int(os.environ.get("DIGEST_HOUR", "7"))
# A player seen at the table this recently gets no 'your turn' mail (the table polls every 5 s
# while visible); the mail waits this long first, so a player looking at the table is seen.
PRESENCE_SECONDS = 30
YOUR_TURN_MAIL_DELAY_SECONDS = float(os.environ.get("YOUR_TURN_MAIL_DELAY_SECONDS", "15"))

# Web Push (games/notifications/push.py): the site's VAPID key pair (base64url: the public key
# as an uncompressed P-256 point, the private key as its 32-byte scalar; `python -m
# config.vapid` prints a new pair) and a contact the push services may write to. Without both
# keys the site offers no push notices.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:games@localhost")
# The push services a browser's subscription may name (a host, or the domain it ends in): the
# worker POSTs to the endpoint a browser gives, so any other address would let a player aim the
# worker at a host of our network. Chrome and Edge, Firefox, Safari, Windows.
PUSH_SERVICE_HOSTS = env_list(
    "PUSH_SERVICE_HOSTS",
    "fcm.googleapis.com,android.googleapis.com,push.services.mozilla.com,push.apple.com,"
    "notify.windows.com",
)
# Seconds a push service keeps a notice for a device that is offline.
PUSH_TTL_SECONDS = 60 * 60 * 24

# LOG_FORMAT=json: one JSON object a line for every record, each request and each task among them
# (games/tracing.py), with the request id that follows a request into its tasks and mails.
LOG_JSON = os.environ.get("LOG_FORMAT", "") == "json"
CELERY_WORKER_HIJACK_ROOT_LOGGER = not LOG_JSON  # the worker's lines are JSON too
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"quiet_polls": {"()": "config.logging.QuietPolls"}},
    "formatters": {
        "server": {"format": "[{asctime}] {message}", "style": "{"},
        "json": {"()": "games.tracing.JsonLines"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "json" if LOG_JSON else None},
        "server": {
            "class": "logging.StreamHandler",
            "filters": ["quiet_polls"],
            "formatter": "server",
        },
    },
    "loggers": {
        # `manage.py serve`'s request lines (uvicorn's), without the table's "nothing new" polls
        # (204), and its own messages. With JSON logs each request is the site's own line
        # (threethirteen.request), so uvicorn's access line is left out (whether or not it was
        # started with --no-access-log), and its messages are JSON lines like every other.
        "uvicorn.access": {
            "handlers": [] if LOG_JSON else ["server"],
            "level": "WARNING" if LOG_JSON else "INFO",
            "propagate": False,
        },
        "uvicorn.error": {
            "handlers": ["console" if LOG_JSON else "server"],
            "level": "INFO",
            "propagate": False,
        },
        # aiosmtpd (manage.py mail_server): each SMTP command of each session, senders included.
        "mail.log": {"level": "WARNING"},
        # A line per request and per task: with JSON logs only (the servers log their own).
        "threethirteen": {"level": "INFO" if LOG_JSON else "WARNING"},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# Ratings (games/ratings.py): a game ended early is rated once this many rounds were played; the
# leaderboard lists players with at least this many rated games.
RATING_MIN_ROUNDS = int(os.environ.get("RATING_MIN_ROUNDS", "1"))
LEADERBOARD_MIN_GAMES = int(os.environ.get("LEADERBOARD_MIN_GAMES", "5"))

# `make lintmigrations` (django-migration-linter, development only): a new migration of ours must
# not break the version still running beside it nor lock a table for long (docs/operations.md,
# "Upgrades without a stop"). Those made before the linter are not read: each was deployed with a
# stop.
MIGRATION_LINTER_OPTIONS = {
    "include_apps": ["games", "accounts"],
    "no_cache": True,
    "ignore_name": [
        "0001_initial",
        "0002_async_turns",
        "0002_preferences_vacation",
        "0003_display_name_one_line",
        "0003_game_end_reason",
        "0004_invitations_round_columns",
        "0004_preference_help_texts",
        "0005_preferences_profile_hidden",
        "0005_seat_finished_at",
        "0006_email_addresses",
        "0006_notification_timed_out_dropped",
        "0007_ratings",
        "0007_user_time_zone_language",
        "0008_follow_friends_only",
        "0008_user_four_colour_deck_table_tour",
        "0009_bot_levels",
        "0009_notification_channel",
        "0010_chat",
        "0010_push_devices_notices_seen",
        "0011_display_name_without_bidi_marks",
        "0011_seat_players_and_history_indexes",
        "0012_drop_chat_author_recent_index",
        "0012_shown_names_unique",
        "0013_mail_play",
        "0013_seat_departed",
        "0014_api_tokens_own_bots",
        "0014_game_rated",
        "0015_names_read_by_their_lookalikes",
        "0015_start_when_full",
        "0016_quick_play",
        "0017_tournaments",
        "0018_leagues",
        "0019_mail_play",
        "0020_seek_constraint_both_databases",
        "0021_seat_user_unfinished",
    ],
}
