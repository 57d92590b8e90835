# SPDX-License-Identifier: GPL-3.0-or-later
# A program's systemd unit: systemd/NAME.service.in with @UNIT_BIN@ (the installed
# program), @UNIT_CONFIG@ (its settings, /etc/tactiled/CONFIG) and @TACTILED_DOC@ filled
# in, installed in PREFIX/lib/systemd/system: with the prefix /usr, where Debian's own
# units are.
function(tactiled_install_unit name config)
  set(UNIT_BIN ${CMAKE_INSTALL_FULL_BINDIR}/${name})
  set(UNIT_CONFIG ${CMAKE_INSTALL_FULL_SYSCONFDIR}/tactiled/${config})
  set(TACTILED_DOC ${CMAKE_INSTALL_FULL_DOCDIR})
  configure_file(${PROJECT_SOURCE_DIR}/systemd/${name}.service.in
                 ${CMAKE_CURRENT_BINARY_DIR}/${name}.service @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${name}.service
          DESTINATION ${CMAKE_INSTALL_PREFIX}/lib/systemd/system)
endfunction()
