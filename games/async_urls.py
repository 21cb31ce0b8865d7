from django.urls import path

from . import async_views

urlpatterns = [
    path("u/<str:token>/", async_views.unsubscribe, name="unsubscribe"),  # short: see notifications
    path("mail/preview/", async_views.mail_preview_index, name="mail_preview_index"),
    path("mail/preview/<str:kind>/", async_views.mail_preview, name="mail_preview"),
    path("games/<int:game_id>/invite-player/", async_views.game_invite, name="game_invite"),
    path("games/<int:game_id>/resume/", async_views.seat_resume, name="seat_resume"),
    path("games/<int:game_id>/rematch/", async_views.game_rematch, name="game_rematch"),
    path(
        "invitations/<int:invitation_id>/accept/",
        async_views.invitation_accept,
        name="invitation_accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        async_views.invitation_decline,
        name="invitation_decline",
    ),
]
