# What live mode needs beside the program: the systemd unit, the example settings and the
# udev rules (GPIO chips and the serial board).
set(TACTILED_BIN ${CMAKE_INSTALL_FULL_BINDIR}/tactiled)
set(TACTILED_CONFIG ${CMAKE_INSTALL_FULL_SYSCONFDIR}/tactiled/tactiled.conf)
set(TACTILED_DOC ${CMAKE_INSTALL_FULL_DOCDIR})
configure_file(${PROJECT_SOURCE_DIR}/systemd/tactiled.service.in
               ${CMAKE_CURRENT_BINARY_DIR}/tactiled.service @ONLY)

# PREFIX/lib/systemd/system and PREFIX/lib/udev/rules.d: with the prefix /usr, where
# Debian's own units and rules are.
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tactiled.service
        DESTINATION ${CMAKE_INSTALL_PREFIX}/lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/udev/60-tactile-board.rules
              ${PROJECT_SOURCE_DIR}/udev/60-tactiled-gpio.rules
        DESTINATION ${CMAKE_INSTALL_PREFIX}/lib/udev/rules.d)
# The example settings become /etc/tactiled/tactiled.conf (cmake/package.cmake).
install(FILES ${PROJECT_SOURCE_DIR}/docs/daemon.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
