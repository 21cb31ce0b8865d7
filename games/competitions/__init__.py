"""Competitions: the ways the site brings players together beyond a game made by hand. Quick play
(`quick`: a player's seek seated at once in a waiting game of the same rules, near their
rating), leagues (`leagues`: seasons in divisions, every pair meeting once, promotion and
relegation), Swiss tournaments (`tournaments`), the forms a host opens them with (`forms`), and,
below them all and in plain Python, who sits with whom and what a place is worth
(games/pairing.py: Swiss seating, a division's waves of tables, the points). Each seats
its games through the games' services; their models are in games.models, their reads in
games.selectors."""
