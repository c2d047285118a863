# loom's two commands (README): `make demo` and `make test`. Both install missing Debian/Ubuntu packages,
# configure and build in Release first.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
CTEST_FLAGS ?=

.PHONY: all deps configure build test test-all test-asan demo gpu-check clean

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

# The CPU code (no CUDA) built with AddressSanitizer and UndefinedBehaviorSanitizer in its own folder, then a
# chosen subset of the fast CPU set: the platform (core, io with the parameter registry, checkpoints and run
# directories) and the CSV and TOML fuzzers (not MPI: Open MPI's own allocations are reported as leaks). Only the
# subset's targets are built (the loom executable, and with it the command-line tests, would double the build);
# the tests of the others show as _NOT_BUILT and are left out, as is the key fuzzer (it runs the executable).
# -O1 keeps it quick. Times: README's testing section.
ASAN_DIR ?= build-asan
ASAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
ASAN_TARGETS ?= test_core_array test_core_backend test_core_memory_budget test_io_parameters test_io_hdf5_fields \
  test_io_run_directory test_io_checkpoint_file test_io_run_lifecycle test_fmm_csv_fuzz test_gpe_toml_fuzz
test-asan: deps
	@cmake -S . -B $(ASAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Asan -DLOOM_CUDA=OFF -DLOOM_WERROR=ON -DLOOM_NATIVE=OFF \
	  -DCMAKE_CXX_FLAGS="$(ASAN_FLAGS)" -DCMAKE_C_FLAGS="$(ASAN_FLAGS)" \
	  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN_DIR) -j $(JOBS) --target $(ASAN_TARGETS)
	@cd $(ASAN_DIR) && OMP_WAIT_POLICY=PASSIVE ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest -LE 'slow|gpu|mpi' -E '_NOT_BUILT|^package|python|^FuzzKeys' \
	  --output-on-failure -j $(JOBS) --timeout 1800 $(CTEST_FLAGS)

demo: build
	@scripts/demo.sh $(BUILD_DIR)

gpu-check:
	@scripts/gpu-check.sh

clean:
	rm -rf $(BUILD_DIR)
