# Finds loom's dependencies (Debian 12 / Ubuntu 24.04 packages; scripts/install-deps.sh installs them) and
# wraps each in an imported target so that the libraries below link by name.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(fmt REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(HDF5 REQUIRED COMPONENTS C)

# OpenBLAS (CPU DGEMM ceiling, spectral matrices) with its cblas header.
pkg_check_modules(OPENBLAS REQUIRED IMPORTED_TARGET openblas)
add_library(loom::blas ALIAS PkgConfig::OPENBLAS)

# FFTW3 (pseudo-spectral reference solver).
pkg_check_modules(FFTW3 REQUIRED IMPORTED_TARGET fftw3)
add_library(loom::fftw ALIAS PkgConfig::FFTW3)
# FFTW's threads through OpenMP (libfftw3-dev ships libfftw3_omp beside libfftw3), for `loom hit` on the CPU.
find_library(FFTW3_OMP_LIBRARY fftw3_omp HINTS ${FFTW3_LIBRARY_DIRS} REQUIRED)
add_library(loom_fftw_threads INTERFACE)
target_link_libraries(loom_fftw_threads INTERFACE ${FFTW3_OMP_LIBRARY} PkgConfig::FFTW3)
add_library(loom::fftw_threads ALIAS loom_fftw_threads)

# HDF5's C API as one target (FindHDF5 reports variables on older CMake).
add_library(loom_hdf5 INTERFACE)
target_include_directories(loom_hdf5 SYSTEM INTERFACE ${HDF5_C_INCLUDE_DIRS} ${HDF5_INCLUDE_DIRS})
target_link_libraries(loom_hdf5 INTERFACE ${HDF5_C_LIBRARIES} ${HDF5_LIBRARIES})
target_compile_definitions(loom_hdf5 INTERFACE ${HDF5_DEFINITIONS} ${HDF5_C_DEFINITIONS})
add_library(loom::hdf5 ALIAS loom_hdf5)

# toml++ is header-only; Debian has it, the GPU machine does not (carry its headers and set
# LOOM_TOMLPP_INCLUDE_DIR). Without it loom reads parameters from flags only. Needed to build loom_io only: an
# installed loom (LoomInstall.cmake) does not ask for it.
set(LOOM_HAVE_TOMLPP OFF)
add_library(loom_tomlpp INTERFACE)
pkg_check_modules(TOMLPP QUIET IMPORTED_TARGET tomlplusplus)
if(TOMLPP_FOUND)
  target_link_libraries(loom_tomlpp INTERFACE $<BUILD_INTERFACE:PkgConfig::TOMLPP>)
  set(LOOM_HAVE_TOMLPP ON)
elseif(LOOM_TOMLPP_INCLUDE_DIR AND EXISTS "${LOOM_TOMLPP_INCLUDE_DIR}/toml++/toml.h")
  target_include_directories(loom_tomlpp SYSTEM INTERFACE $<BUILD_INTERFACE:${LOOM_TOMLPP_INCLUDE_DIR}>)
  set(LOOM_HAVE_TOMLPP ON)
endif()
if(LOOM_HAVE_TOMLPP)
  target_compile_definitions(loom_tomlpp INTERFACE $<BUILD_INTERFACE:LOOM_HAVE_TOMLPP=1>)
else()
  message(WARNING "toml++ not found: input files are disabled, parameters come from flags only")
endif()
add_library(loom::tomlpp ALIAS loom_tomlpp)

# MPI: optional.
set(LOOM_HAVE_MPI OFF)
if(NOT LOOM_MPI STREQUAL "OFF")
  if(LOOM_MPI STREQUAL "ON")
    find_package(MPI REQUIRED COMPONENTS C)
  else()
    find_package(MPI QUIET COMPONENTS C)
  endif()
  if(MPI_C_FOUND)
    set(LOOM_HAVE_MPI ON)
  endif()
endif()

# FFTW's MPI transforms (Debian libfftw3-mpi-dev): optional; without them `loom hit` runs on one rank.
set(LOOM_HAVE_FFTW_MPI OFF)
if(LOOM_HAVE_MPI)
  find_library(FFTW3_MPI_LIBRARY fftw3_mpi HINTS ${FFTW3_LIBRARY_DIRS})
  find_path(FFTW3_MPI_INCLUDE_DIR fftw3-mpi.h HINTS ${FFTW3_INCLUDE_DIRS})
  if(FFTW3_MPI_LIBRARY AND FFTW3_MPI_INCLUDE_DIR)
    add_library(loom_fftw_mpi INTERFACE)
    target_include_directories(loom_fftw_mpi SYSTEM INTERFACE ${FFTW3_MPI_INCLUDE_DIR})
    target_link_libraries(loom_fftw_mpi INTERFACE ${FFTW3_MPI_LIBRARY} loom_fftw_threads MPI::MPI_C)
    add_library(loom::fftw_mpi ALIAS loom_fftw_mpi)
    set(LOOM_HAVE_FFTW_MPI ON)
  endif()
endif()

if(LOOM_TESTS)
  find_package(GTest REQUIRED)
endif()
