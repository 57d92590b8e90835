# tactilectl's driver library: gpio-check opens the board through the system's libgpiod.
target_link_libraries(tactilectl PRIVATE tactiled_gpio_libgpiod)
