# tactilectl's driver libraries: gpio-check and calibrate open the board through the
# system's libgpiod, calibrate also through libserialport, reads tactiled's own config
# (its parser is shared) and speaks with espeak-ng.
target_sources(tactilectl PRIVATE ${PROJECT_SOURCE_DIR}/daemon/tactiled/config.cpp
                                  ${PROJECT_SOURCE_DIR}/daemon/tactiled/braille_keys.cpp)
target_link_libraries(tactilectl PRIVATE tactiled_gpio_libgpiod tactiled_gpio tactiled_serial
                                         tactiled_speech)
