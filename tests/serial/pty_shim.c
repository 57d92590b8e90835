// SPDX-License-Identifier: GPL-3.0-or-later
// Test-only LD_PRELOAD shim: lets the real libserialport open a pseudo-terminal as if it
// were a USB serial board. It supplies the two things a pty lacks:
//  - sysfs: libserialport looks a port up under /sys/class/tty/<name> (lstat, readlink,
//    opendir/readdir_r to list ports, fopen of the USB attributes; on 32-bit systems their
//    64-bit file-offset names). When the environment variable TACTILED_FAKE_SYSFS names a
//    directory, those paths are read below it instead; the test builds a fake USB device
//    there. A pty is named "pts/N", which cannot be one directory entry, so the fake entry
//    is "pts!N", as sysfs itself spells a '/' in a name.
//  - modem lines: TIOCMGET/TIOCMSET/TIOCMBIS/TIOCMBIC fail on a pty (sp_open calls
//    TIOCMGET); when the real call fails they are answered from a per-descriptor register.
// Nothing else is touched, so every other libserialport code path runs for real.
// The shim defines lstat and lstat64 (readdir_r and readdir64_r) side by side, as the
// C library exports them; with 64-bit file offsets the headers would make the first of
// each pair a second definition of the other.
#undef _FILE_OFFSET_BITS
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

static const char kTtyClass[] = "/sys/class/tty";

// Rewrites a /sys/class/tty path into the fake tree; returns `path` itself otherwise.
static const char* redirect(const char* path, char* buf, size_t size) {
  const char* root = getenv("TACTILED_FAKE_SYSFS");
  size_t n = sizeof kTtyClass - 1;
  if (!root || !path || strncmp(path, kTtyClass, n) != 0 || (path[n] != '/' && path[n] != 0)) {
    return path;
  }
  int len = snprintf(buf, size, "%s%s", root, path);
  if (len < 0 || (size_t)len >= size) return path;
  char* rest = buf + strlen(root) + n;  // "/pts/3/device/..." or ""
  if (strncmp(rest, "/pts/", 5) == 0) rest[4] = '!';
  return buf;
}

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

ssize_t readlink(const char* path, char* out, size_t size) {
  char buf[4096];
  return NEXT(readlink)(redirect(path, buf, sizeof buf), out, size);
}

int lstat(const char* path, struct stat* st) {
  char buf[4096];
  return NEXT(lstat)(redirect(path, buf, sizeof buf), st);
}

// glibc before 2.33 exported lstat only as __lxstat; libserialport 0.1.1 on Debian 12 still
// links against it.
int __lxstat(int ver, const char* path, struct stat* st);
int __lxstat(int ver, const char* path, struct stat* st) {
  char buf[4096];
  return NEXT(__lxstat)(ver, redirect(path, buf, sizeof buf), st);
}

// The 64-bit file-offset names: a 32-bit libserialport (armhf: Debian 12's calls __lxstat64
// and readdir64_r, `nm -D`) or one built with _FILE_OFFSET_BITS=64 calls these instead of
// the names above, so without them the fake device is never found there. On 64-bit systems
// they are the same functions under a second name.
int __lxstat64(int ver, const char* path, struct stat64* st);
int __lxstat64(int ver, const char* path, struct stat64* st) {
  char buf[4096];
  return NEXT(__lxstat64)(ver, redirect(path, buf, sizeof buf), st);
}

int lstat64(const char* path, struct stat64* st) {
  char buf[4096];
  return NEXT(lstat64)(redirect(path, buf, sizeof buf), st);
}

FILE* fopen(const char* path, const char* mode) {
  char buf[4096];
  return NEXT(fopen)(redirect(path, buf, sizeof buf), mode);
}

FILE* fopen64(const char* path, const char* mode) {
  char buf[4096];
  return NEXT(fopen64)(redirect(path, buf, sizeof buf), mode);
}

// Directories opened through the fake tree, whose entry names need "!" turned into "/".
static pthread_mutex_t dirs_lock = PTHREAD_MUTEX_INITIALIZER;
static DIR* fake_dirs[16];

DIR* opendir(const char* path) {
  char buf[4096];
  const char* real = redirect(path, buf, sizeof buf);
  DIR* d = NEXT(opendir)(real);
  if (d && real != path) {
    pthread_mutex_lock(&dirs_lock);
    for (int i = 0; i < 16; ++i) {
      if (!fake_dirs[i]) {
        fake_dirs[i] = d;
        break;
      }
    }
    pthread_mutex_unlock(&dirs_lock);
  }
  return d;
}

static int is_fake(DIR* d) {
  int found = 0;
  pthread_mutex_lock(&dirs_lock);
  for (int i = 0; i < 16; ++i) found |= fake_dirs[i] == d;
  pthread_mutex_unlock(&dirs_lock);
  return found;
}

int closedir(DIR* d) {
  pthread_mutex_lock(&dirs_lock);
  for (int i = 0; i < 16; ++i) {
    if (fake_dirs[i] == d) fake_dirs[i] = NULL;
  }
  pthread_mutex_unlock(&dirs_lock);
  return NEXT(closedir)(d);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
int readdir_r(DIR* d, struct dirent* entry, struct dirent** result) {
  int rc = NEXT(readdir_r)(d, entry, result);
  if (rc == 0 && *result && is_fake(d)) {
    for (char* c = (*result)->d_name; *c; ++c) {
      if (*c == '!') *c = '/';
    }
  }
  return rc;
}

int readdir64_r(DIR* d, struct dirent64* entry, struct dirent64** result) {
  int rc = NEXT(readdir64_r)(d, entry, result);
  if (rc == 0 && *result && is_fake(d)) {
    for (char* c = (*result)->d_name; *c; ++c) {
      if (*c == '!') *c = '/';
    }
  }
  return rc;
}
#pragma GCC diagnostic pop

// Modem-line register per descriptor; a pty has no modem lines, so DTR/RTS set by the host
// read back as set and the board side (DSR, CTS, DCD) reads as present.
static int modem_bits[4096];
static pthread_mutex_t modem_lock = PTHREAD_MUTEX_INITIALIZER;

int ioctl(int fd, unsigned long request, ...) {
  va_list ap;
  va_start(ap, request);
  void* arg = va_arg(ap, void*);
  va_end(ap);
  int rc = NEXT(ioctl)(fd, request, arg);
  int is_modem =
      request == TIOCMGET || request == TIOCMSET || request == TIOCMBIS || request == TIOCMBIC;
  if (rc == 0 || !is_modem || fd < 0 || fd >= 4096 || (errno != ENOTTY && errno != EINVAL)) {
    return rc;
  }
  int* bits = (int*)arg;
  pthread_mutex_lock(&modem_lock);
  int* reg = &modem_bits[fd];
  if (*reg == 0) *reg = TIOCM_DSR | TIOCM_CTS | TIOCM_CAR;
  if (request == TIOCMGET) *bits = *reg;
  if (request == TIOCMSET) *reg = *bits | TIOCM_DSR | TIOCM_CTS | TIOCM_CAR;
  if (request == TIOCMBIS) *reg |= *bits;
  if (request == TIOCMBIC) *reg &= ~*bits;
  pthread_mutex_unlock(&modem_lock);
  errno = 0;
  return 0;
}

// Lets the test program see that it runs with the shim (tests/serial/preload.cpp).
__attribute__((visibility("default"))) int tactiled_pty_shim_loaded = 1;
