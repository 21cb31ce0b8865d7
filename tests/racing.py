"""Racing requests with real threads on PostgreSQL (the concurrency tests): `race` starts them
at one moment and collects what each answered or raised."""

import threading

from django.db import connection


def race(n, target):
    """Run target(i) in n threads released together; return what each returned or raised."""
    barrier = threading.Barrier(n)
    results = [None] * n

    def run(i):
        try:
            barrier.wait()
            results[i] = target(i)
        except Exception as error:  # recorded, asserted on below
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results
