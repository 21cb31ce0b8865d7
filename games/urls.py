from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("lobby/", views.lobby, name="lobby"),
    path("games/new/", views.game_new, name="game_new"),
    path("invite/<slug:code>/", views.invite, name="invite"),
    path("games/<int:game_id>/", views.game_detail, name="game"),
    path("games/<int:game_id>/table/", views.game_table, name="game_table"),
    path("games/<int:game_id>/join/", views.game_join, name="game_join"),
    path("games/<int:game_id>/leave/", views.game_leave, name="game_leave"),
    path("games/<int:game_id>/bots/", views.game_bots, name="game_bots"),
    path("games/<int:game_id>/start/", views.game_start, name="game_start"),
    path("games/<int:game_id>/resign/", views.game_resign, name="game_resign"),
    path("games/<int:game_id>/draw/", views.move_draw, name="move_draw"),
    path("games/<int:game_id>/discard/", views.move_discard, name="move_discard"),
    path("games/<int:game_id>/go-out/", views.move_go_out, name="move_go_out"),
    path("games/<int:game_id>/sort/", views.hand_sort, name="hand_sort"),
    path("games/<int:game_id>/history/", views.game_history, name="game_history"),
    path("games/<int:game_id>/replay/", views.game_replay, name="game_replay"),
]
