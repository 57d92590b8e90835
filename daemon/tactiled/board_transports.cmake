# SPDX-License-Identifier: GPL-3.0-or-later
# The board transports (board_transport.h): the table, each transport's link file
# (daemon/tactiled/*_link.cpp, each with its entry) and its driver's library, for every
# program that opens a board (tactiled, tactilectl) and the config's test. A new transport
# adds its link file here by its name and its library below.
file(GLOB TACTILED_BOARD_TRANSPORT_SOURCES CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/daemon/tactiled/*_link.cpp)
list(FILTER TACTILED_BOARD_TRANSPORT_SOURCES EXCLUDE REGEX "/lendable_link\\.cpp$")
list(APPEND TACTILED_BOARD_TRANSPORT_SOURCES ${PROJECT_SOURCE_DIR}/daemon/tactiled/board_transports.cpp)
set(TACTILED_BOARD_TRANSPORT_LIBS tactiled_gpio_libgpiod tactiled_serial tactiled_drivers_script)
