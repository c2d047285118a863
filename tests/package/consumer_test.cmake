# Script mode (tests/package/CMakeLists.txt): install BUILD into WORK/prefix, build SOURCE against it, run it.
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix OUTPUT_QUIET
                COMMAND_ERROR_IS_FATAL ANY)
set(hints -DCMAKE_PREFIX_PATH=${WORK}/prefix -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
if(CUDA_ROOT)
  list(APPEND hints -DCUDAToolkit_ROOT=${CUDA_ROOT})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/build -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
                        ${hints} COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${WORK}/build/fmm_consumer COMMAND_ERROR_IS_FATAL ANY)
