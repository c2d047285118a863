"""Shared helpers of the Python module's tests: the `loom` executable (LOOM_EXECUTABLE, set by ctest) whose results
the module must reproduce for the same inputs."""
import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def loom_cli():
    exe = os.environ.get("LOOM_EXECUTABLE")
    if not exe or not os.path.exists(exe):
        pytest.fail("LOOM_EXECUTABLE must name the loom executable (ctest sets it)")

    def run(*args, expect=0):
        r = subprocess.run([exe, *map(str, args)], capture_output=True, text=True)
        assert r.returncode == expect, f"loom {' '.join(map(str, args))}: exit {r.returncode}\n{r.stderr}"
        return r

    return run


@pytest.fixture(scope="session")
def runs_while():
    """runs_while(call) runs call() while another Python thread ticks every millisecond, and returns
    (seconds the call took, ticks inside it): a call that holds the GIL lets no tick in."""
    import threading
    import time

    def measure(call):
        ticks, stop = [], threading.Event()

        def tick():
            while not stop.is_set():
                ticks.append(time.perf_counter())
                time.sleep(0.001)

        thread = threading.Thread(target=tick)
        thread.start()
        time.sleep(0.05)
        start = time.perf_counter()
        try:
            call()
        finally:
            end = time.perf_counter()
            stop.set()
            thread.join()
        return end - start, sum(start < t < end for t in ticks)

    return measure
