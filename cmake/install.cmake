# Install rules: headers, libraries, the command, a CMake package (find_package(kiln)) and kiln.pc.
include(CMakePackageConfigHelpers)
install(DIRECTORY include/kiln DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS kiln kiln_rt EXPORT kilnTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT kilnTargets NAMESPACE kiln:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kiln)
configure_package_config_file(cmake/kilnConfig.cmake.in ${PROJECT_BINARY_DIR}/kilnConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kiln)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kilnConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kilnConfig.cmake ${PROJECT_BINARY_DIR}/kilnConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kiln)
configure_file(cmake/kiln.pc.in ${PROJECT_BINARY_DIR}/kiln.pc @ONLY)
configure_file(cmake/kiln_rt.pc.in ${PROJECT_BINARY_DIR}/kiln_rt.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/kiln.pc ${PROJECT_BINARY_DIR}/kiln_rt.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
