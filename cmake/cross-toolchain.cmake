# SPDX-License-Identifier: GPL-3.0-or-later
# Cross-compiling for a Raspberry Pi's Debian from an x86-64 Debian 12 (script/cross):
# Debian's cross compiler (crossbuild-essential-ARCH) against a sysroot of the target's
# own -dev packages, which script/cross makes with mmdebstrap in build/cross/ARCH/sysroot.
# Included by cmake/toolchain-arm64.cmake and cmake/toolchain-armhf.cmake, which set
# TACTILED_DEB_ARCH (Debian's name), TACTILED_CROSS_TRIPLET and CMAKE_SYSTEM_PROCESSOR.
set(CMAKE_SYSTEM_NAME Linux)
set(TACTILED_SYSROOT ${CMAKE_CURRENT_LIST_DIR}/../build/cross/${TACTILED_DEB_ARCH}/sysroot)
cmake_path(NORMAL_PATH TACTILED_SYSROOT)
if(NOT EXISTS ${TACTILED_SYSROOT}/usr/include)
  message(FATAL_ERROR "no sysroot at ${TACTILED_SYSROOT}: script/cross ${TACTILED_DEB_ARCH} makes it")
endif()

set(CMAKE_C_COMPILER ${TACTILED_CROSS_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${TACTILED_CROSS_TRIPLET}-g++)
set(CMAKE_SYSROOT ${TACTILED_SYSROOT})
# Libraries, headers and CMake packages from the sysroot only; programs the build runs
# (python3, rsvg-convert, pkg-config) from this machine.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${TACTILED_SYSROOT})
set(ENV{PKG_CONFIG_LIBDIR}
    "${TACTILED_SYSROOT}/usr/lib/${TACTILED_CROSS_TRIPLET}/pkgconfig:${TACTILED_SYSROOT}/usr/share/pkgconfig")
# The libgpiod 2.x headers, unpacked from bookworm-backports for this architecture.
set(TACTILED_GPIOD2_PREFIX ${TACTILED_SYSROOT}/opt/tactiled/libgpiod2 CACHE PATH "" FORCE)

# Test programs (gtest discovery, ctest) run under qemu-user with the sysroot's libraries.
# What they start themselves (tactiled, /proc/self/exe) goes through binfmt_misc, which
# script/cross registers, with QEMU_LD_PREFIX naming the sysroot.
set(CMAKE_CROSSCOMPILING_EMULATOR ${TACTILED_QEMU};-L;${TACTILED_SYSROOT})
