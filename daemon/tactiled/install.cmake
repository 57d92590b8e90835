# SPDX-License-Identifier: GPL-3.0-or-later
# What live mode needs beside the program: the systemd unit, the example settings and the
# udev rules (GPIO chips and the serial board).
tactiled_install_unit(tactiled tactiled.conf)
# PREFIX/lib/udev/rules.d: with the prefix /usr, where Debian's own rules are.
install(FILES ${PROJECT_SOURCE_DIR}/udev/60-tactile-board.rules
              ${PROJECT_SOURCE_DIR}/udev/60-tactiled-gpio.rules
        DESTINATION ${CMAKE_INSTALL_PREFIX}/lib/udev/rules.d)
# The example settings become /etc/tactiled/tactiled.conf (cmake/package.cmake).
install(FILES ${PROJECT_SOURCE_DIR}/docs/daemon.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# A Pi's USB gadget port for dgt-port (docs/dgt.md).
install(PROGRAMS ${PROJECT_SOURCE_DIR}/daemon/tactiled/tactiled-usb-gadget
        DESTINATION ${CMAKE_INSTALL_BINDIR})
