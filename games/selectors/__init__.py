"""Reads: what pages show, a module per kind of page. Callers import the module they need.

- lists.py: the dashboard, the lobby, a host's invitations, the games waiting on a player;
- dashboard.py: the dashboard's whole page (the lists, quick play's form, the open seeks);
- viewer.py: which game and seat a request is about, and whether its viewer may look;
- table.py: the table as one seat sees it (from the engine's PlayerView alone);
- history.py: the move history and the replay;
- pauses.py: a player's clock as stored: vacations as pauses, a turn's deadline.

Card presentation shared with mails is games/presentation.py; health checks, games/health.py.
"""
