# SPDX-License-Identifier: GPL-3.0-or-later
# The board transports (board_transport.h), for every program that opens a board (tactiled,
# tactilectl) and the config's test: the table (board_transports.cpp) and each transport's
# own X_transport.cmake beside it, which adds its link file to
# TACTILED_BOARD_TRANSPORT_SOURCES and its libraries to TACTILED_BOARD_TRANSPORT_LIBS. A
# new transport brings its own .cmake file; nothing here names it. A file several transports
# share (switch_wiring.cpp, a board of switches) is listed by each, and once here.
set(TACTILED_BOARD_TRANSPORT_SOURCES ${PROJECT_SOURCE_DIR}/daemon/tactiled/board_transports.cpp)
set(TACTILED_BOARD_TRANSPORT_LIBS)
file(GLOB tactiled_board_transport_files CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/daemon/tactiled/*_transport.cmake)
foreach(file IN LISTS tactiled_board_transport_files)
  include(${file})
endforeach()
list(REMOVE_DUPLICATES TACTILED_BOARD_TRANSPORT_SOURCES)
