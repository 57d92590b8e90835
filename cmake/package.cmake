# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian package: what `cpack -G DEB` puts in it beside the programs, the unit and the
# udev rules (daemon/tactiled/install.cmake), and its control data. script/package builds
# it from the Release build (prefix /usr); docs/install.md says what it installs.
set(TACTILED_PACKAGING ${PROJECT_SOURCE_DIR}/packaging)

# The version is the changelog's first entry; the project's must agree with it.
file(STRINGS ${TACTILED_PACKAGING}/changelog changelog_head LIMIT_COUNT 1)
if(NOT changelog_head MATCHES "^tactiled \\(${PROJECT_VERSION}\\) ")
  message(FATAL_ERROR "packaging/changelog begins '${changelog_head}': its first entry must be "
                      "version ${PROJECT_VERSION}, the project's version")
endif()

# Man pages and the changelog are gzipped without name or time stamp (-n), so that two
# builds of one source give the same package.
set(compressed)
function(tactiled_gzip source output)
  add_custom_command(OUTPUT ${output}
                     COMMAND sh -c "gzip -9n < \"$1\" > \"$2\"" gzip ${source} ${output}
                     DEPENDS ${source} VERBATIM)
  set(compressed ${compressed} ${output} PARENT_SCOPE)
endfunction()

foreach(page tactiled.8 tactilectl.1 tactiled.conf.5 tactiled-publish.8 tactiled-hall.8
             tactiled-hall-setup.8 tactiled-usb-gadget.8)
  string(REGEX MATCH "[0-9]$" section ${page})
  tactiled_gzip(${PROJECT_SOURCE_DIR}/man/${page} ${CMAKE_CURRENT_BINARY_DIR}/man/${page}.gz)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/man/${page}.gz
          DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
endforeach()
tactiled_gzip(${TACTILED_PACKAGING}/changelog ${CMAKE_CURRENT_BINARY_DIR}/changelog.gz)
add_custom_target(tactiled_package_files ALL DEPENDS ${compressed})

# The docs the man pages and the units' Documentation= name (tests/package/check_doc_paths.sh
# checks that each one named is here).
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/changelog.gz ${TACTILED_PACKAGING}/copyright
              ${PROJECT_SOURCE_DIR}/docs/install.md ${PROJECT_SOURCE_DIR}/docs/script-format.md
              ${PROJECT_SOURCE_DIR}/docs/arbiter.md ${PROJECT_SOURCE_DIR}/docs/hall.md
              ${PROJECT_SOURCE_DIR}/docs/braille.md ${PROJECT_SOURCE_DIR}/docs/dgt.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The accounts: the tactiled user and group, and gpio where it is missing.
install(FILES ${TACTILED_PACKAGING}/sysusers.conf DESTINATION ${CMAKE_INSTALL_PREFIX}/lib/sysusers.d
        RENAME tactiled.conf)

# The settings: /etc/tactiled/tactiled.conf (for the prefix /usr), a conffile in the
# package. `cmake --install` never overwrites one that is there already. (file(INSTALL)
# puts DESTDIR, the package's tree, before the destination itself.)
set(TACTILED_CONFIG_DIR ${CMAKE_INSTALL_FULL_SYSCONFDIR}/tactiled)
install(CODE "
  set(config \"\$ENV{DESTDIR}${TACTILED_CONFIG_DIR}/tactiled.conf\")
  if(EXISTS \"\${config}\")
    message(STATUS \"Kept: \${config} (the example is ${PROJECT_SOURCE_DIR}/systemd/tactiled.conf)\")
  else()
    file(INSTALL \"${PROJECT_SOURCE_DIR}/systemd/tactiled.conf\"
         DESTINATION \"${TACTILED_CONFIG_DIR}\"
         PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  endif()")
install(CODE "
  set(config \"\$ENV{DESTDIR}${TACTILED_CONFIG_DIR}/publish.conf\")
  if(EXISTS \"\${config}\")
    message(STATUS \"Kept: \${config} (the example is ${PROJECT_SOURCE_DIR}/systemd/publish.conf)\")
  else()
    file(INSTALL \"${PROJECT_SOURCE_DIR}/systemd/publish.conf\"
         DESTINATION \"${TACTILED_CONFIG_DIR}\"
         PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  endif()")
install(CODE "
  set(config \"\$ENV{DESTDIR}${TACTILED_CONFIG_DIR}/hall.conf\")
  if(EXISTS \"\${config}\")
    message(STATUS \"Kept: \${config} (the example is ${PROJECT_SOURCE_DIR}/systemd/hall.conf)\")
  else()
    file(INSTALL \"${PROJECT_SOURCE_DIR}/systemd/hall.conf\"
         DESTINATION \"${TACTILED_CONFIG_DIR}\"
         PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  endif()")

# cpack installs what script/package built (the programs, tactiled_package_files), not
# every test and benchmark of the build.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tactiled)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "tactiled developers <dev@tactiled.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "tactile chess board daemon for blind players")
set(CPACK_PACKAGE_DESCRIPTION
    "tactiled turns a tactile chess board for blind and visually impaired\n"
    "players (FIDE Laws of Chess, Appendix D) into an electronic board. It\n"
    "reads the reed switches under the holes over the Raspberry Pi's GPIO or\n"
    "from the board's microcontroller over USB serial, recognises touched and\n"
    "made moves, speaks them (espeak-ng), runs the FIDE clock and keeps a\n"
    "tamper-evident arbiter log and the PGN.\n"
    ".\n"
    "This package holds the daemon and its systemd service, tactilectl (the\n"
    "arbiter's tool), the udev rules for the boards and the tactiled group for\n"
    "arbiters.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The libraries' packages come from dpkg-shlibdeps; systemd-sysusers makes the accounts.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "systemd | systemd-sysusers")
# A cross-built package (script/cross): CPack's dpkg-shlibdeps would look for the
# programs' libraries on this machine, where there are none of that architecture, so
# script/cross runs dpkg-shlibdeps in a root of the target architecture and passes its
# answer here; the architecture is the target's, not this machine's.
set(TACTILED_SHLIBS_DEPENDS "" CACHE STRING
    "The libraries' packages for Depends, from dpkg-shlibdeps (script/cross)")
if(TACTILED_SHLIBS_DEPENDS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${TACTILED_SHLIBS_DEPENDS}, ${CPACK_DEBIAN_PACKAGE_DEPENDS}")
endif()
if(CMAKE_CROSSCOMPILING)
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${TACTILED_DEB_ARCH})
endif()
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${TACTILED_PACKAGING}/postinst ${TACTILED_PACKAGING}/prerm
                                       ${TACTILED_PACKAGING}/postrm ${TACTILED_PACKAGING}/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_STRIP_FILES ON)
# Absolute destinations (/etc, the unit) go through DESTDIR into the package's tree.
set(CPACK_SET_DESTDIR ON)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                                                GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/package)
include(CPack)
