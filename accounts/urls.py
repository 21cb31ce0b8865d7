from allauth.account import views as allauth_views
from django.urls import include, path

from . import twofactor, views

urlpatterns = [
    path("notifications/", views.notification_preferences, name="notification_preferences"),
    path("api/", views.api_access, name="api_access"),
    # Before allauth's own page at this address (allauth.usersessions), which this replaces.
    path("sessions/", views.signed_in, name="usersessions_list"),
    path("push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
    path("table-tour-done/", views.table_tour_done, name="table_tour_done"),
    path("signup/", views.SignupView.as_view(), name="account_signup"),
    # allauth's pages where a player with two-factor on confirms with it first (twofactor.py).
    path(
        "password/change/",
        twofactor.confirmed(allauth_views.password_change),
        name="account_change_password",
    ),
    path("2fa/reauthenticate/", twofactor.reauthenticate, name="mfa_reauthenticate"),
    # Sign-up, login, logout, email verification and change, password change and reset.
    path("", include("allauth.urls")),
]
