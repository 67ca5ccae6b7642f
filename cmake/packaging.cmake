# Debian packages with CPack, one per install component:
#   rankscope      the desktop app (and every command), depending on the GUI libraries;
#   rankscope-cli  the core-only command line and MCP server (Qt Core, zlib, ISA-L), with the capture helper.
# Dependencies come from dpkg-shlibdeps; each package carries its copyright, changelog and man page.
#   cd build/release && cpack     (after cmake --build --preset release; the packages land in build/release/packages)
include(GNUInstallDirs)
foreach(component app cli)
    if(component STREQUAL "app")
        set(package rankscope)
    else()
        set(package rankscope-cli)
    endif()
    install(FILES ${PROJECT_SOURCE_DIR}/resources/packaging/copyright
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component})
    set(changelog ${PROJECT_BINARY_DIR}/packaging/${package}/changelog)
    configure_file(${PROJECT_SOURCE_DIR}/resources/packaging/changelog ${changelog} COPYONLY)
    find_program(RANKSCOPE_GZIP gzip)
    if(RANKSCOPE_GZIP)
        add_custom_command(OUTPUT ${changelog}.gz COMMAND ${RANKSCOPE_GZIP} -9nkf ${changelog} DEPENDS ${changelog})
        add_custom_target(${package}_changelog ALL DEPENDS ${changelog}.gz)
        install(FILES ${changelog}.gz DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component})
    endif()
endforeach()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rankscope)
set(CPACK_PACKAGE_VENDOR "The RankScope authors")
set(CPACK_PACKAGE_CONTACT "RankScope maintainers <rankscope@users.noreply.github.com>")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/rankscope/rankscope")
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL app cli)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_APP_PACKAGE_NAME rankscope)
set(CPACK_DEBIAN_CLI_PACKAGE_NAME rankscope-cli)
# The window's platform plugins are loaded at run time, which dpkg-shlibdeps cannot see; the capture helper and the
# man page of the command line come with rankscope-cli.
set(CPACK_DEBIAN_APP_PACKAGE_DEPENDS "qt6-qpa-plugins, rankscope-cli (= ${PROJECT_VERSION})")
# Each package's first line is its own synopsis: CPack prepends the project's summary to every description unless that
# summary is CPack's default, so it is set to the default.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_DEBIAN_APP_DESCRIPTION "compare the GPU memory snapshots of the ranks of a PyTorch job
RankScope opens the CUDA memory snapshots of every rank of a multi-GPU PyTorch
job together, draws their timelines and block maps side by side, and says
which rank holds more than the others, at which allocation sites, and why:
extra work on one rank, uneven input, growth from step to step, memory on
another rank's GPU, or a job that does not fit on any rank. This package holds
the desktop app, which also runs every command (export and report included).")
set(CPACK_DEBIAN_CLI_DESCRIPTION "command line and MCP server of RankScope, with Qt Core alone
The commands of RankScope that need no display or GUI library: info, diff,
top, steps and digest, and an MCP server for coding agents. For cluster nodes
and CI machines. Also holds rankscope_capture.py, the capture helper that a
training script imports to write each rank's memory snapshot.")
include(CPack)
