from django.urls import path

from .views import account, chat, clock, health, invitations, learn, mail, play, ratings

urlpatterns = [
    path("", play.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("lobby/", play.lobby, name="lobby"),
    path("how-to-play/", learn.how_to_play, name="how_to_play"),
    path("practice/", learn.practice_start, name="practice_start"),
    path("games/new/", play.game_new, name="game_new"),
    path("invite/<slug:code>/", play.invite, name="invite"),
    path("games/<int:game_id>/", play.game_detail, name="game"),
    path("games/<int:game_id>/table/", play.game_table, name="game_table"),
    path("games/<int:game_id>/join/", play.game_join, name="game_join"),
    path("games/<int:game_id>/leave/", play.game_leave, name="game_leave"),
    path("games/<int:game_id>/bots/", play.game_bots, name="game_bots"),
    path("games/<int:game_id>/start/", play.game_start, name="game_start"),
    path("games/<int:game_id>/resign/", play.game_resign, name="game_resign"),
    path("games/<int:game_id>/draw/", play.move_draw, name="move_draw"),
    path("games/<int:game_id>/discard/", play.move_discard, name="move_discard"),
    path("games/<int:game_id>/go-out/", play.move_go_out, name="move_go_out"),
    path("games/<int:game_id>/sort/", play.hand_sort, name="hand_sort"),
    path("games/<int:game_id>/history/", play.game_history, name="game_history"),
    path("games/<int:game_id>/replay/", play.game_replay, name="game_replay"),
    path("games/<int:game_id>/chat/", chat.game_chat, name="game_chat"),
    path("games/<int:game_id>/chat/post/", chat.chat_post, name="chat_post"),
    path("games/<int:game_id>/chat/mute/", chat.chat_mute, name="chat_mute"),
    path("games/<int:game_id>/chat/<int:message_id>/report/", chat.chat_report, name="chat_report"),
    path("games/<int:game_id>/chat/spectators/", chat.chat_spectators, name="chat_spectators"),
    path("games/<int:game_id>/invite-player/", invitations.game_invite, name="game_invite"),
    path("games/<int:game_id>/rematch/", invitations.game_rematch, name="game_rematch"),
    path(
        "invitations/<int:invitation_id>/accept/",
        invitations.invitation_accept,
        name="invitation_accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        invitations.invitation_decline,
        name="invitation_decline",
    ),
    path("games/<int:game_id>/resume/", clock.seat_resume, name="seat_resume"),
    # Vacations stop the clocks of games, so games owns them; the address stays under accounts/.
    path("accounts/vacation/", clock.vacation, name="vacation"),
    # Downloading one's data and deleting one's account need the games too (views/account.py).
    path("accounts/data/", account.account_data, name="account_data"),
    path("accounts/delete/", account.account_delete_confirm, name="account_delete"),
    path("leaderboard/", ratings.leaderboard, name="leaderboard"),
    path("players/<str:username>/", ratings.player, name="player"),
    path("u/<str:token>/", mail.unsubscribe, name="unsubscribe"),  # short: see notifications/tokens
    path("mail/preview/", mail.mail_preview_index, name="mail_preview_index"),
    path("mail/preview/<str:kind>/", mail.mail_preview, name="mail_preview"),
]
