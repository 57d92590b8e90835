// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/braille/brlapi_display.h"

#include <signal.h>

#define BRLAPI_NO_SINGLE_SESSION 1  // handles only: no library-wide connection state
#include <brlapi.h>

#include <algorithm>

namespace tactile::braille {
namespace {

// How long after a failure the connection is tried again (and, connected, how often the
// display's size is checked), and how soon again when brltty has no display yet.
constexpr std::int64_t kRetryMs = 2000;
constexpr std::int64_t kSizeCheckMs = 500;

brlapi_handle_t* as_handle(const std::unique_ptr<unsigned char[]>& h) {
  return reinterpret_cast<brlapi_handle_t*>(h.get());
}

// The exception a handle reported, read by the call that failed (one thread).
thread_local std::string last_exception;

// Replaces BrlAPI's default, which aborts the process: the call that met the exception
// returns an error, and the display is dropped and connected again.
void on_exception(brlapi_handle_t* handle, int error, brlapi_packetType_t type, const void* packet,
                  size_t size) {
  char text[256];
  brlapi__strexception(handle, text, sizeof text, error, type, packet, size);
  last_exception = text;
}

// Why the last BrlAPI call failed: its exception, else the library's error.
std::string error_text() {
  if (!last_exception.empty()) {
    std::string e = "exception: " + last_exception;
    last_exception.clear();
    return e;
  }
  return brlapi_strerror(brlapi_error_location());
}

}  // namespace

BrlapiDisplay::BrlapiDisplay(std::string host, std::string key_file)
    : host_(std::move(host)),
      key_file_(std::move(key_file)),
      handle_(new unsigned char[brlapi_getHandleSize()]) {
  // brltty going away mid-write must not kill the daemon: a broken pipe is an error
  // return (the connection is dropped and tried again), never SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);
}

BrlapiDisplay::~BrlapiDisplay() {
  if (fd_ >= 0) brlapi__closeConnection(as_handle(handle_));
}

std::int64_t BrlapiDisplay::timeout_ms(std::int64_t now) const {
  // Keys wake the loop; a retry, or connected the display's size checked again, is due.
  return std::max<std::int64_t>(0, retry_at_ - now);
}

void BrlapiDisplay::show(const std::string& text, std::int64_t now) {
  text_ = text;
  write_text(now);
}

void BrlapiDisplay::connect(std::int64_t now) {
  brlapi_handle_t* h = as_handle(handle_);
  brlapi_connectionSettings_t settings = BRLAPI_SETTINGS_INITIALIZER;
  const std::string auth = key_file_.empty() ? "" : "keyfile:" + key_file_;
  if (!host_.empty()) settings.host = const_cast<char*>(host_.c_str());
  if (!auth.empty()) settings.auth = const_cast<char*>(auth.c_str());
  const std::string where = "brltty at " + (host_.empty() ? "its local socket" : host_);
  retry_at_ = now + kRetryMs;
  const int fd = brlapi__openConnection(h, &settings, nullptr);
  if (fd < 0) {
    fault_ = "cannot connect to " + where + ": " + error_text();
    return;
  }
  brlapi__setExceptionHandler(h, on_exception);
  // brltty answers before its display has come up (no cells): writing then is an
  // exception, and a tty entered then keeps a display of no size. Come back shortly.
  unsigned x = 0, y = 0;
  const bool asked = brlapi__getDisplaySize(h, &x, &y) >= 0;
  if (!asked || x * y == 0) {
    fault_ = asked ? where + " has no display yet (0 cells)" : where + ": " + error_text();
    brlapi__closeConnection(h);
    retry_at_ = now + kSizeCheckMs;
    return;
  }
  // No virtual terminal under a service: the root of brltty's tty tree (empty path).
  if (brlapi__enterTtyModeWithPath(h, nullptr, 0, nullptr) < 0) {
    fault_ = where + " refused the display: " + error_text();
    brlapi__closeConnection(h);
    return;
  }
  fd_ = fd;
  cells_ = x * y;
  written_valid_ = false;
  fault_.clear();
}

void BrlapiDisplay::disconnect(const std::string& why, std::int64_t now) {
  brlapi__closeConnection(as_handle(handle_));
  fd_ = -1;
  cells_ = 0;
  fault_ = why;
  retry_at_ = now + kRetryMs;
}

std::vector<Key> BrlapiDisplay::step(std::int64_t now) {
  std::vector<Key> keys;
  if (fd_ < 0) {
    if (now >= retry_at_) connect(now);
    if (fd_ < 0) return keys;
  }
  brlapi_handle_t* h = as_handle(handle_);
  for (;;) {
    brlapi_keyCode_t code = 0;
    const int r = brlapi__readKey(h, 0, &code);
    if (r < 0) {
      disconnect("brltty: " + error_text(), now);
      return keys;
    }
    if (r == 0) break;
    brlapi_describedKeyCode_t d{};
    if (brlapi_describeKeyCode(code, &d) < 0) continue;  // a key this BrlAPI cannot name
    keys.push_back({d.command ? d.command : "", d.argument});
  }
  if (now >= retry_at_) {
    // Another display on the same brltty (unplugged, another plugged in): its size
    // anew, through a new connection.
    unsigned x = 0, y = 0;
    if (brlapi__getDisplaySize(h, &x, &y) < 0) {
      disconnect("brltty: " + error_text(), now);
      return keys;
    }
    if (x * y != cells_) {
      disconnect("the display changed to " + std::to_string(x * y) + " cells", now);
      retry_at_ = now;
      return keys;
    }
    retry_at_ = now + kRetryMs;
  }
  write_text(now);
  return keys;
}

void BrlapiDisplay::write_text(std::int64_t now) {
  if (fd_ < 0 || cells_ == 0 || (written_valid_ && written_ == text_)) return;
  brlapi_handle_t* h = as_handle(handle_);
  // brlapi_writeText's arguments, with the charset named: the daemon runs in the C
  // locale, and the text is UTF-8 (the language's piece letters). The whole display is
  // written, blanks after the text (brltty keeps cells not written), a longer text cut
  // at a character's edge (the caller pages it).
  std::string text;
  unsigned characters = 0;
  for (std::size_t i = 0; i < text_.size(); ++i) {
    const bool starts = (static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80;
    if (starts && characters == cells_) break;
    if (starts) ++characters;
    text += text_[i];
  }
  text.append(cells_ - characters, ' ');
  brlapi_writeArguments_t w = BRLAPI_WRITEARGUMENTS_INITIALIZER;
  w.regionBegin = 1;
  w.regionSize = int(cells_);
  w.text = text.c_str();
  w.textSize = int(text.size());
  w.charset = "UTF-8";
  w.cursor = BRLAPI_CURSOR_OFF;
  if (brlapi__write(h, &w) < 0) {
    disconnect("brltty: " + error_text(), now);
    return;
  }
  written_ = text_;
  written_valid_ = true;
}

}  // namespace tactile::braille
