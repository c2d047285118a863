# Helpers every loom target uses: warnings, optimisation flags, and the dual-backend sources.

# Flags shared by all loom targets (not by dependencies, nor by projects using an installed loom: BUILD_INTERFACE).
add_library(loom_options INTERFACE)
set(loom_flags
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wno-unknown-pragmas>
  # GCC 12 reports false -Wrestrict positives inside std::string at -O3 (GCC bug 105329)
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-restrict>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${LOOM_WERROR}>>:-Werror>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${LOOM_NATIVE}>>:-march=native>
  $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda --expt-relaxed-constexpr -Xcompiler=-Wall,-Wextra,-fopenmp>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${LOOM_NATIVE}>>:-Xcompiler=-march=native>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${LOOM_WERROR}>>:-Werror=all-warnings>)
target_compile_options(loom_options INTERFACE "$<BUILD_INTERFACE:${loom_flags}>")
target_include_directories(loom_options INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>
                                                  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/src> $<INSTALL_INTERFACE:include>)
target_link_libraries(loom_options INTERFACE OpenMP::OpenMP_CXX)
if(LOOM_HAVE_CUDA)
  target_compile_definitions(loom_options INTERFACE LOOM_HAVE_CUDA=1)
endif()
if(LOOM_HAVE_MPI)
  target_compile_definitions(loom_options INTERFACE LOOM_HAVE_MPI=1)
endif()

# loom_backend_sources(<files>...): sources whose loops run on both backends (core::parallel_for with a
# LOOM_HOST_DEVICE body). They are compiled by nvcc when CUDA is enabled, so the same loop becomes an OpenMP
# loop and a CUDA kernel, and by the host compiler otherwise. See DESIGN.md, "One formula, two backends".
function(loom_backend_sources)
  if(LOOM_HAVE_CUDA)
    set_source_files_properties(${ARGN} DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTIES LANGUAGE CUDA)
  endif()
endfunction()

# loom_cuda_sources(<target> <files>...): CUDA-only sources (tuned kernels, cuBLAS calls), added when CUDA is on.
function(loom_cuda_sources target)
  if(LOOM_HAVE_CUDA)
    target_sources(${target} PRIVATE ${ARGN})
  endif()
endfunction()
