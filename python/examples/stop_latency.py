"""How soon a batch stops after Ctrl-C: ``python python/examples/stop_latency.py FILE DELAY
[BACKEND]`` solves FILE with ``solve_batch(path, jobs=1)`` while a timer sends SIGINT after DELAY
seconds, and prints how many seconds after the signal ``KeyboardInterrupt`` came (or that the batch
finished first), with the rows' statuses."""

import os
import pathlib
import signal
import sys
import threading
import time

import satdoku

path = pathlib.Path(sys.argv[1])
delay = float(sys.argv[2])
backend = sys.argv[3] if len(sys.argv) > 3 else "auto"
sent = {}


def fire():
    sent["at"] = time.perf_counter()
    os.kill(os.getpid(), signal.SIGINT)


timer = threading.Timer(delay, fire)
start = time.perf_counter()
timer.start()
try:
    batch = satdoku.solve_batch(path, jobs=1, backend=backend)
    print(path.name, backend, "finished first, in %.2f s" % (time.perf_counter() - start), batch.words())
except KeyboardInterrupt as e:
    after = time.perf_counter() - sent["at"]
    print(path.name, backend, "stopped %.2f s after the signal" % after, e.partial.words())
finally:
    timer.cancel()
