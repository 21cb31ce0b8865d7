"""Email and push: every notice the site sends, a module per job. Callers import the module
they need.

- presence.py: whether a player has a table open (a 'your turn' notice waits while they do);
- outbox.py: recording each notice as a Notification row per channel, sending it from its task,
  requeueing it;
- policy.py: which channels a kind goes by, which mail or push a player wants, whether it is
  still wanted, waits and retry backoff;
- tokens.py: the one-click unsubscribe (a signed token, no login);
- compose.py: each kind's context, rendered to plain text and HTML with the headers;
- push.py: a push to each of the player's devices (pywebpush, VAPID), gone devices forgotten;
- previews.py: each kind with made-up data, for the browser.

Each notice is first recorded as a Notification row (an outbox) per channel, mail and, for
'your turn', invitations and reminders, push, in the transaction that causes it, then sent by a
task (games.tasks.send_notification) with retries and backoff, never from a request. The row's
unique constraint makes each happen once per channel; the send re-checks under the row's lock
that it is still wanted (the preference, still that turn, not on vacation). A 'your turn'
notice to a player looking at that table waits, still pending, until they leave; it goes out
then if the turn is still theirs. A send whose task was lost is queued again by the sweep. A
worker killed after the mail or push left but before its row was marked sent may send it twice:
at least once, never lost. The mail row is recorded even when the player wants no mail (as
skipped): it is the record the notice centre (games/selectors/notices.py) reads.
"""
