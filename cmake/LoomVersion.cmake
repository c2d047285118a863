# Records the git commit at configure and at each build into a generated header (loom/version_info.hpp).
set(LOOM_VERSION_OUT ${PROJECT_BINARY_DIR}/src/loom/version_info.hpp)
add_custom_target(loom_version_info ALL
  COMMAND ${CMAKE_COMMAND} -DSRC=${PROJECT_SOURCE_DIR} -DOUT=${LOOM_VERSION_OUT}
          -DVERSION=${PROJECT_VERSION} -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
          -P ${PROJECT_SOURCE_DIR}/cmake/WriteVersion.cmake
  BYPRODUCTS ${LOOM_VERSION_OUT}
  COMMENT "Recording the git commit")
