# `cmake --install build --prefix P`: the libraries, the public headers, the `loom` executable and the CMake package
# (P/lib/cmake/loom/loomConfig.cmake) exporting loom::core, loom::fmm, loom::dec, loom::gpe, ... so that another
# project writes find_package(loom) and target_link_libraries(app loom::fmm) (examples/consumer/).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LOOM_EXPORTED)
foreach(module core perf io comm dec fmm spectral gpe vortex hit gr)
  if(TARGET loom_${module})
    set_target_properties(loom_${module} PROPERTIES EXPORT_NAME ${module})
    list(APPEND LOOM_EXPORTED loom_${module})
  endif()
endforeach()
# The interface targets the libraries link: flags (build only), HDF5, FFTW's threads and MPI transforms (where
# found), toml++ (build only).
foreach(helper options hdf5 fftw_threads fftw_mpi tomlpp)
  if(NOT TARGET loom_${helper})
    continue()
  endif()
  set_target_properties(loom_${helper} PROPERTIES EXPORT_NAME ${helper})
  list(APPEND LOOM_EXPORTED loom_${helper})
endforeach()

install(TARGETS ${LOOM_EXPORTED} EXPORT loomTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS loom RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/loom DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh")
install(FILES ${LOOM_VERSION_OUT} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/loom)

set(LOOM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/loom)
install(EXPORT loomTargets NAMESPACE loom:: DESTINATION ${LOOM_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/loomConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/cmake/loomConfig.cmake INSTALL_DESTINATION ${LOOM_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/loomConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/loomConfig.cmake ${PROJECT_BINARY_DIR}/cmake/loomConfigVersion.cmake
        DESTINATION ${LOOM_CMAKE_DIR})
