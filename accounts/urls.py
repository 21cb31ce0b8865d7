from django.urls import include, path

from . import views

urlpatterns = [
    path("notifications/", views.notification_preferences, name="notification_preferences"),
    # Sign-up, login, logout, email verification and change, password change and reset.
    path("", include("allauth.urls")),
]
