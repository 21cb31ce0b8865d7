from django.urls import include, path

from . import views

urlpatterns = [
    path("notifications/", views.notification_preferences, name="notification_preferences"),
    path("table-tour-done/", views.table_tour_done, name="table_tour_done"),
    # Sign-up, login, logout, email verification and change, password change and reset.
    path("", include("allauth.urls")),
]
