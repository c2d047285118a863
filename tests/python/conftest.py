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


@pytest.fixture(scope="session")
def same_run(loom_cli, runs_while):
    """same_run(command, config, folder): `loom <command>` with config's flags into folder/cli, and
    loom.<command>.run(config) into folder/py while another thread ticks; returns (the CLI's RunDirectory, the
    module's, (seconds, ticks) of runs_while)."""
    import loom

    def run(command, config, folder):
        loom_cli(command, *[f"--{k}={v}" for k, v in loom._config._flags(config)], "--output.dir", folder / "cli")
        out = []
        gil = runs_while(lambda: out.append(getattr(loom, command).run(config, {"output.dir": str(folder / "py")})))
        return loom.RunDirectory(folder / "cli"), out[0], gil

    return run


@pytest.fixture(scope="session")
def assert_same_summary():
    """Every summary.json entry of the CLI's run equal in the module's, except timings (keys ending in _s or
    naming wall, seconds, per_step, profile) and the build (loom, git)."""

    def check(cli, py):
        skip = ("wall", "seconds", "per_step", "profile", "git", "loom")
        compared = 0
        for key, value in cli.summary.items():
            if not key.endswith("_s") and not any(word in key for word in skip):
                assert py.summary[key] == value, key
                compared += 1
        assert compared > 3

    return check
