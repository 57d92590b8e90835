// SPDX-License-Identifier: GPL-3.0-or-later
// One braille display through brltty's BrlAPI: a thin adapter, driven by the daemon's
// event loop (fd() polled with the others, step() when it is readable or timeout_ms() is
// due; no thread). brltty's text table makes the dots (brlapi_writeText): this class only
// ever sends text.
//
// A display absent, unplugged or not yet sized never stops the game: nothing here throws
// after construction, a failed connection is tried again every few seconds, BrlAPI's
// exception handler (whose default aborts the process) is replaced by one that drops the
// connection, and nothing is written while the display reports no cells.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tactile::braille {

// A key the display reported, as BrlAPI names it: a command ("ROUTE" with the cell's
// number in `arg`, "LNDN", "FWINRT", ...) or a typed character ("LATIN1", `arg` its code:
// dots passed through brltty's text table arrive so).
struct Key {
  std::string command;
  unsigned arg = 0;
};

class BrlapiDisplay {
 public:
  // `host`: BrlAPI's host ("" = its default, brltty's local socket; "127.0.0.1:1" = TCP
  // port 4101). `key_file`: auth=keyfile (""= BrlAPI's default authentication).
  BrlapiDisplay(std::string host, std::string key_file);
  ~BrlapiDisplay();
  BrlapiDisplay(const BrlapiDisplay&) = delete;
  BrlapiDisplay& operator=(const BrlapiDisplay&) = delete;

  // The descriptor to poll, -1 while not connected.
  int fd() const { return fd_; }
  // How long the loop may wait before step() has work (a retry, a size check); -1 none.
  std::int64_t timeout_ms(std::int64_t now) const;
  // Connects when due, reads the keys that came, writes the text if it changed. `now`:
  // any monotonic milliseconds.
  std::vector<Key> step(std::int64_t now);
  // The text to show: sent now (or once connected and sized), and only when it changed.
  void show(const std::string& text, std::int64_t now);

  // The display's width in cells, 0 while not connected (a display of no cells is not
  // connected to: it is asked again shortly).
  unsigned cells() const { return cells_; }
  bool connected() const { return fd_ >= 0; }
  // What went wrong last ("" = nothing), e.g. "cannot connect to 127.0.0.1:1: ...".
  const std::string& fault() const { return fault_; }

 private:
  void connect(std::int64_t now);
  void disconnect(const std::string& why, std::int64_t now);
  void write_text(std::int64_t now);  // the text, if it changed since it was sent

  std::string host_, key_file_;
  std::unique_ptr<unsigned char[]> handle_;  // brlapi_handle_t, of brlapi_getHandleSize()
  int fd_ = -1;
  unsigned cells_ = 0;
  std::int64_t retry_at_ = 0;   // next connection attempt, or size check when connected
  std::string text_, written_;  // wanted, and last sent
  bool written_valid_ = false;
  std::string fault_;
};

}  // namespace tactile::braille
