# SPDX-License-Identifier: GPL-3.0-or-later
# board = gpio, GPIO lines through libgpiod (drivers/gpio): its link file and its
# libraries (board_transports.cmake), and the calibrated mapping of a board of switches
# (switch_wiring.cpp).
list(APPEND TACTILED_BOARD_TRANSPORT_SOURCES ${PROJECT_SOURCE_DIR}/daemon/tactiled/gpio_link.cpp
     ${PROJECT_SOURCE_DIR}/daemon/tactiled/switch_wiring.cpp)
list(APPEND TACTILED_BOARD_TRANSPORT_LIBS tactiled_gpio_libgpiod)
