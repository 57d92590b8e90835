# tactilectl's driver libraries: gpio-check, calibrate and self-test open the board through
# the system's libgpiod, calibrate and self-test also through libserialport, read
# tactiled's own config (its parser is shared) and speak with espeak-ng. self-test opens
# the board exactly as tactiled does, through tactiled's board links (script, GPIO, serial).
target_sources(tactilectl PRIVATE ${PROJECT_SOURCE_DIR}/daemon/tactiled/config.cpp
                                  ${PROJECT_SOURCE_DIR}/daemon/tactiled/board_link.cpp
                                  ${PROJECT_SOURCE_DIR}/daemon/tactiled/script_link.cpp
                                  ${PROJECT_SOURCE_DIR}/daemon/tactiled/braille_keys.cpp)
target_link_libraries(tactilectl PRIVATE tactiled_gpio_libgpiod tactiled_gpio tactiled_serial
                                         tactiled_speech tactiled_drivers_script)
