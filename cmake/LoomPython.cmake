# Finds what the Python module `loom` (python/) needs: the interpreter with its headers and pybind11 (Debian's
# pybind11-dev; on the GPU machine the headers carried by scripts/prepare-carry.sh, LOOM_PYBIND11_DIR). Sets
# LOOM_HAVE_PYTHON. The module is a shared object linking loom's static libraries, so they are then compiled
# position-independent; -fno-semantic-interposition keeps the executable's calls within a library inlinable.
set(LOOM_HAVE_PYTHON OFF)
if(NOT LOOM_PYTHON STREQUAL "OFF")
  # Debian's interpreter holds numpy and h5py; the first python3 on PATH may be another (pyenv).
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python3 QUIET COMPONENTS Interpreter Development.Module)
  if(NOT LOOM_PYBIND11_DIR AND EXISTS ${PROJECT_SOURCE_DIR}/.carry/pybind11)
    set(LOOM_PYBIND11_DIR ${PROJECT_SOURCE_DIR}/.carry/pybind11)  # scripts/prepare-carry.sh, on the GPU machine
  endif()
  if(LOOM_PYBIND11_DIR)
    list(APPEND CMAKE_PREFIX_PATH ${LOOM_PYBIND11_DIR})
  endif()
  if(Python3_FOUND)
    find_package(pybind11 CONFIG QUIET)
  endif()
  if(Python3_FOUND AND pybind11_FOUND)
    set(LOOM_HAVE_PYTHON ON)
  elseif(LOOM_PYTHON STREQUAL "ON")
    message(FATAL_ERROR "LOOM_PYTHON=ON but Python3 (${Python3_FOUND}) or pybind11 (${pybind11_FOUND}) is missing")
  else()
    message(STATUS "Python module skipped: needs Python3 with headers (python3-dev) and pybind11 (pybind11-dev); "
                   "found Python3=${Python3_FOUND} pybind11=${pybind11_FOUND}")
  endif()
endif()
if(LOOM_HAVE_PYTHON)
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fno-semantic-interposition>
                      $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fno-semantic-interposition>)
endif()
