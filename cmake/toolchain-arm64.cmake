# SPDX-License-Identifier: GPL-3.0-or-later
# 64-bit Raspberry Pi OS / Debian arm64 (Pi 3, 4, 5, Zero 2 W). cmake/cross-toolchain.cmake.
set(TACTILED_DEB_ARCH arm64)
set(TACTILED_CROSS_TRIPLET aarch64-linux-gnu)
set(TACTILED_QEMU qemu-aarch64-static)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/cross-toolchain.cmake)
