# `cmake --install build --prefix P` installs the tools into P/bin, the
# libraries into P/lib, the headers, generated .inc files and TableGen files
# into P/include/nvfp4 and a CMake package into P/lib/cmake/nvfp4, so that
# another project can
#
#   find_package(NVFP4 CONFIG REQUIRED)   # with CMAKE_PREFIX_PATH=P
#   target_link_libraries(app PRIVATE nvfp4::MLIRNVFP4)
#
# (and nvfp4::NVFP4Conversion, nvfp4::NVFP4Transforms,
# nvfp4::NVFP4Pipelines, nvfp4::NVFP4Support, nvfp4::NVFP4HostSimRuntime).

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(NVFP4_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/nvfp4)
# add_mlir_library puts the libraries into the export set MLIRTargets
# (get_target_export_arg); the plain C++ libraries join it here.
set(NVFP4_EXPORT_SET MLIRTargets)
set(NVFP4_MLIR_LIBRARIES MLIRNVFP4 NVFP4Conversion NVFP4Transforms
  NVFP4Pipelines)

foreach(lib IN LISTS NVFP4_MLIR_LIBRARIES)
  target_include_directories(${lib} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

install(TARGETS NVFP4Support NVFP4HostSimRuntime
  EXPORT ${NVFP4_EXPORT_SET}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(NVFP4_TOOLS nvfp4-opt nvfp4-run nvfp4-cpu-check nvfp4-sim-check)
# The installed tools find libMLIR and libLLVM where they were linked from.
set_target_properties(${NVFP4_TOOLS} PROPERTIES
  INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS ${NVFP4_TOOLS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/nvfp4
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/nvfp4
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

install(EXPORT ${NVFP4_EXPORT_SET}
  FILE NVFP4Targets.cmake
  NAMESPACE nvfp4::
  DESTINATION ${NVFP4_CMAKE_INSTALL_DIR})

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/NVFP4Config.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/NVFP4Config.cmake
  INSTALL_DESTINATION ${NVFP4_CMAKE_INSTALL_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/NVFP4ConfigVersion.cmake
  VERSION 0.1.0
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/NVFP4Config.cmake
  ${PROJECT_BINARY_DIR}/cmake/NVFP4ConfigVersion.cmake
  DESTINATION ${NVFP4_CMAKE_INSTALL_DIR})
