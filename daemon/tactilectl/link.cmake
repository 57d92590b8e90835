# SPDX-License-Identifier: GPL-3.0-or-later
# tactilectl's driver libraries: gpio-check, calibrate and self-test open the board through
# the system's libgpiod, calibrate and self-test also through libserialport, read
# tactiled's own config (its parser is shared) and speak with espeak-ng. self-test and
# calibrate open the board exactly as tactiled does, through its table of board transports
# and their links (board_transports.cmake). It reads every button's name tactiled reads
# (GPIO wiring, braille keys, the log): the player's channel declares its own
# (player_channel.cpp).
include(${PROJECT_SOURCE_DIR}/daemon/tactiled/board_transports.cmake)
target_sources(tactilectl PRIVATE ${PROJECT_SOURCE_DIR}/daemon/tactiled/config.cpp
                                  ${PROJECT_SOURCE_DIR}/daemon/tactiled/player_channel.cpp
                                  ${TACTILED_BOARD_TRANSPORT_SOURCES}
                                  ${PROJECT_SOURCE_DIR}/daemon/tactiled/braille_keys.cpp)
target_link_libraries(tactilectl PRIVATE ${TACTILED_BOARD_TRANSPORT_LIBS} tactiled_gpio
                                         tactiled_speech)
