# tactiled's own libraries: the scripted board (replay), speech, both board drivers, the
# braille display (BrlAPI), the UCI engine client and libsystemd (sd_notify) for live mode.
pkg_check_modules(LIBSYSTEMD REQUIRED IMPORTED_TARGET libsystemd)
target_link_libraries(tactiled PRIVATE tactiled_drivers_script tactiled_speech tactiled_serial
                                       tactiled_gpio_libgpiod tactiled_braille tactiled_engine
                                       PkgConfig::LIBSYSTEMD)
include(${CMAKE_CURRENT_LIST_DIR}/install.cmake)
