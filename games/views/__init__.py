"""Views, a module per part of the site; games/urls.py names them all.

- play.py: the game's pages and the moves made on them;
- chat.py: a game's chat (messages, mutes, reports);
- invitations.py: inviting, accepting, declining, rematches;
- clock.py: "I'm back" and vacations;
- mail.py: the one-click unsubscribe and email previews;
- ratings.py: the leaderboard and a player's page;
- health.py: /healthz.
"""
