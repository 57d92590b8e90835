# SPDX-License-Identifier: GPL-3.0-or-later
# board = script, an event script (drivers/script): its link file and its libraries
# (board_transports.cmake).
list(APPEND TACTILED_BOARD_TRANSPORT_SOURCES ${PROJECT_SOURCE_DIR}/daemon/tactiled/script_link.cpp)
list(APPEND TACTILED_BOARD_TRANSPORT_LIBS tactiled_drivers_script)
