# loom's two commands (README): `make demo` and `make test`. Both install missing Debian/Ubuntu packages,
# configure and build in Release first.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
CTEST_FLAGS ?=

.PHONY: all deps configure build test test-all demo gpu-check clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOM_WERROR=ON $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# The fast CPU set: everything but tests labelled slow (CUDA cases skip without a GPU). Parallel test processes
# share the cores: OpenMP threads wait passively instead of spinning on the oversubscribed machine.
test: build
	@cd $(BUILD_DIR) && OMP_WAIT_POLICY=PASSIVE ctest -LE slow --output-on-failure -j $(JOBS) --timeout 900 $(CTEST_FLAGS)

# Every test, slow ones included.
test-all: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout 3600 $(CTEST_FLAGS)

demo: build
	@scripts/demo.sh $(BUILD_DIR)

gpu-check:
	@scripts/gpu-check.sh

clean:
	rm -rf $(BUILD_DIR)
