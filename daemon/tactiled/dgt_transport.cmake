# SPDX-License-Identifier: GPL-3.0-or-later
# board = dgt, a DGT e-board over its serial line (core/dgt's codec): its link file and its
# libraries (board_transports.cmake).
list(APPEND TACTILED_BOARD_TRANSPORT_SOURCES ${PROJECT_SOURCE_DIR}/daemon/tactiled/dgt_link.cpp)
list(APPEND TACTILED_BOARD_TRANSPORT_LIBS tactiled_dgt)
