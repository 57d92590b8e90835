# SPDX-License-Identifier: GPL-3.0-or-later
# tactiled's own libraries: the board transports' drivers (board_transports.cmake; their
# link files are among tactiled's own sources), speech, the braille display (BrlAPI), the
# UCI engine client and libsystemd (sd_notify) for live mode; the scripted board is also
# replay's.
include(${CMAKE_CURRENT_LIST_DIR}/board_transports.cmake)
pkg_check_modules(LIBSYSTEMD REQUIRED IMPORTED_TARGET libsystemd)
target_link_libraries(tactiled_program PUBLIC ${TACTILED_BOARD_TRANSPORT_LIBS} tactiled_speech
                                               tactiled_braille tactiled_engine tactiled_dgt
                                               PkgConfig::LIBSYSTEMD)
include(${CMAKE_CURRENT_LIST_DIR}/install.cmake)
