"""Deadlines, autopilot, drops and vacations: the writes behind the sweep Celery beat runs every
30 s (sweep.py), the player's vacation and "I'm back" actions. The arithmetic is games/clock.py;
a player's vacations as clock pauses, and a turn's deadline, are reads (games/selectors/pauses.py)
that services and mail use too.

- due.py: what is due at a moment (the sweep's queries);
- timeouts.py: a turn running out, autopilot, counting timeouts, dropping, coming back;
- reminders.py: the reminder due on a turn;
- sweep.py: the sweep, and its report;
- vacations.py: booking and ending vacations, and the deadlines that follow them.

The rules, as played:
- A turn's deadline is its start plus the game's time per move, the clock standing still while
  the player to move is on vacation. A vacation booked or ended during a turn moves its deadline.
- When the deadline of a person's turn passes, the seat goes on autopilot (one timeout): a bot
  plays it at once, and every turn after, until the player comes back (moves themselves, or
  presses "I'm back" on the table).
- Every further time per move on autopilot counts one more consecutive timeout (the player would
  have missed that deadline too). At the game's max_timeouts the player is dropped: resigned,
  ranked last, a bot keeps the seat; as with resigning, the game ends when fewer than two people
  are left playing.
- Reminders go out when REMINDER_FRACTIONS of the player's own clock have run (vacation stops it),
  once per turn per threshold. When several thresholds passed while the sweep was down, only the
  latest is sent; the earlier ones are recorded as superseded.
- Every step is computed from stored times, never from when the sweep happens to run: a sweep
  that was down catches up exactly, and running it twice changes nothing. Each game is handled in
  its own transaction, under its row lock, re-checked there.
- Vacations are booked in whole UTC days; every calendar day a vacation touches counts against
  that calendar year's bank (Preferences.vacation_days_per_year, 14 by default). A vacation in
  the future can be cancelled (its days come back); one under way can be ended now (the days
  touched so far stay counted).
"""
