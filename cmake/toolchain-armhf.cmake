# SPDX-License-Identifier: GPL-3.0-or-later
# 32-bit Debian armhf, ARMv7 with a hardware FPU (Pi 2, 3, 4 on a 32-bit system).
# cmake/cross-toolchain.cmake.
set(TACTILED_DEB_ARCH armhf)
set(TACTILED_CROSS_TRIPLET arm-linux-gnueabihf)
set(TACTILED_QEMU qemu-arm-static)
set(CMAKE_SYSTEM_PROCESSOR armv7l)
# GCC notes on 32-bit ARM that the calling convention of structures holding 64-bit members
# passed by value changed in GCC 7.1 (-Wpsabi). It concerns only mixing code built by GCC
# older than 7.1 with newer, which a Debian 12 build never does; the notes (hundreds, from
# libstdc++'s own templates) would bury real warnings.
set(CMAKE_CXX_FLAGS_INIT -Wno-psabi)
include(${CMAKE_CURRENT_LIST_DIR}/cross-toolchain.cmake)
