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
