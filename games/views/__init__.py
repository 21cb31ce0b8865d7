"""Views, a module per part of the site; games/urls.py names them all.

- play.py: the game's pages and the moves made on them;
- chat.py: a game's chat (messages, mutes, reports);
- invitations.py: inviting, accepting, declining, rematches;
- clock.py: "I'm back" and vacations;
- mail.py: the one-click unsubscribe and email previews;
- ratings.py: the leaderboard and a player's page;
- friends.py: following players, the friends page, a new game with a friend in one click;
- players.py: the player an address names, or a 404 that says there is none;
- health.py: /healthz.
"""
