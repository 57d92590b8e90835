// SPDX-License-Identifier: GPL-3.0-or-later
// Makes the test program run with the pty shim preloaded: when the shim is not loaded yet,
// the program starts itself again with LD_PRELOAD set, before main and before any test
// (so plain runs, ctest and gtest discovery all work the same). Under AddressSanitizer a
// preloaded library that is not ASan's own runtime trips the link-order check, which the
// shim does not need: it is switched off for the restarted program only.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

struct Preload {
  Preload() {
    if (dlsym(RTLD_DEFAULT, "tactiled_pty_shim_loaded")) return;
    if (std::getenv("TACTILED_PTY_SHIM_RESTARTED")) {
      std::fprintf(stderr, "the pty shim %s did not load\n", TACTILED_PTY_SHIM);
      std::abort();
    }
    std::string preload = TACTILED_PTY_SHIM;
    if (const char* old = std::getenv("LD_PRELOAD"); old && *old) preload += std::string(":") + old;
    std::string asan = "verify_asan_link_order=0";
    if (const char* old = std::getenv("ASAN_OPTIONS"); old && *old)
      asan = std::string(old) + ":" + asan;
    setenv("LD_PRELOAD", preload.c_str(), 1);
    setenv("ASAN_OPTIONS", asan.c_str(), 1);
    setenv("TACTILED_PTY_SHIM_RESTARTED", "1", 1);

    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> args;
    for (std::size_t at = 0; at < all.size();) {
      std::size_t end = all.find('\0', at);
      if (end == std::string::npos) end = all.size();
      args.push_back(all.substr(at, end - at));
      at = end + 1;
    }
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv("/proc/self/exe", argv.data());
    std::perror("execv /proc/self/exe");
    std::abort();
  }
};

const Preload preload;

}  // namespace
