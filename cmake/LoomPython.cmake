# Finds what the Python module `loom` (python/) needs: the interpreter with its headers and pybind11 (Debian's
# pybind11-dev; on the GPU machine the headers carried by scripts/prepare-carry.sh, LOOM_PYBIND11_DIR). Sets
# LOOM_HAVE_PYTHON. The module is a shared object linking loom's static libraries, so they are then compiled
# position-independent; -fno-semantic-interposition keeps the executable's calls within a library inlinable.
set(LOOM_HAVE_PYTHON OFF)

# The GPU machine's interpreter (Ubuntu's python3.12) has no headers, python3-dev being absent there;
# scripts/prepare-carry.sh carries another CPython build's headers of the same minor version as
# .carry/python3.<minor>. CPython keeps its ABI within a minor version (3.12.x), so a module built against them
# loads in that interpreter. Used only where the interpreter's own headers are missing.
macro(loom_carried_python_headers)
  if(NOT DEFINED Python3_INCLUDE_DIR)
    find_package(Python3 QUIET COMPONENTS Interpreter)
    set(carried ${PROJECT_SOURCE_DIR}/.carry/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR})
    if(Python3_Interpreter_FOUND AND EXISTS ${carried}/Python.h)
      execute_process(COMMAND ${Python3_EXECUTABLE} -c
                              "import os, sysconfig; print(os.path.isfile(sysconfig.get_paths()['include'] + '/Python.h'))"
                      OUTPUT_VARIABLE own_headers OUTPUT_STRIP_TRAILING_WHITESPACE)
      if(NOT own_headers STREQUAL "True")
        set(Python3_INCLUDE_DIR ${carried} CACHE PATH "the interpreter's headers (carried: scripts/prepare-carry.sh)")
        message(STATUS "Python headers: ${carried} (carried; the interpreter has none)")
      endif()
    endif()
  endif()
endmacro()
if(NOT LOOM_PYTHON STREQUAL "OFF")
  # Debian's interpreter holds numpy and h5py; the first python3 on PATH may be another (pyenv).
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  loom_carried_python_headers()
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
