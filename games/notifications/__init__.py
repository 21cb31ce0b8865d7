"""Email: every mail the site sends, a module per job. Callers import the module they need.

- presence.py: whether a player has a table open (a 'your turn' mail waits while they do);
- outbox.py: recording each mail as a Notification row, sending it from its task, requeueing it;
- policy.py: which mail a player wants, whether it is still wanted, waits and retry backoff;
- tokens.py: the one-click unsubscribe (a signed token, no login);
- compose.py: each kind's context, rendered to plain text and HTML with the headers;
- previews.py: each kind with made-up data, for the browser.

Each mail is first recorded as a Notification row (an outbox) in the transaction that causes it,
then sent by a task (games.tasks.send_notification) with retries and backoff, never from a
request. The row's unique constraint makes each mail happen once; the send re-checks under the
row's lock that the mail is still wanted (the preference, still that turn, not on vacation). A
'your turn' mail to a player looking at that table waits, still pending, until they leave; it
goes out then if the turn is still theirs. A send whose task was lost is queued again by the
sweep. A worker killed after the mail left but before its row was marked sent may send it twice:
mail is at least once, never lost.
"""
