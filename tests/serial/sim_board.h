// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated board for the serial driver's tests: a board microcontroller on the
// master side of a pseudo-terminal, speaking the protocol of docs/serial-protocol.md, with
// faults on demand (noise, frames split into pieces, corrupted frames, hang-up). The driver
// opens the slave side through the real libserialport, helped by the pty shim.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "drivers/serial/frame.h"
#include "drivers/serial/messages.h"

namespace tactile::serial::test {

// A fake /sys/class/tty tree for the pty shim (TACTILED_FAKE_SYSFS): each pty the test
// registers looks like a USB CDC-ACM device with the given ids.
class FakeSysfs {
 public:
  FakeSysfs();
  ~FakeSysfs();
  FakeSysfs(const FakeSysfs&) = delete;
  FakeSysfs& operator=(const FakeSysfs&) = delete;
  // `tty` is the name under /dev, e.g. "pts/3".
  void add_usb(const std::string& tty, std::uint16_t vid, std::uint16_t pid,
               const std::string& serial);
  void remove(const std::string& tty);
  const std::string& root() const { return root_; }

 private:
  std::string root_;
  int next_device_ = 1;
};

// A new pseudo-terminal in raw mode: returns the master (non-blocking) and sets `device` to
// the slave's path (/dev/pts/N).
int open_pty(std::string& device);

// How one outgoing frame travels.
struct Wire {
  int pieces = 1;                // written in this many separate writes
  bool corrupt = false;          // one byte flipped: the CRC must catch it
  std::size_t noise_before = 0;  // random bytes sent first
};

class SimBoard {
 public:
  struct Options {
    bool raw = false;  // report raw switch edges (the host debounces)
    std::uint8_t major = kProtocolMajor;
    std::uint16_t heartbeat_ms = 500;
    std::string firmware = "sim-board 1.0";
    std::uint16_t vid = 0x16c0, pid = 0x05e1;
    std::string serial = "TB0001";
    bool keeps_history = true;  // answers Resend from its last 32 frames (else Nak)
    bool buttons = false;       // a board of protocol 1.1 with buttons (else 1.0, none)
  };

  // `sysfs` (may be null) gets the pty registered as a USB device while plugged; `link`
  // (may be empty) is a symlink pointed at the pty while plugged, like a udev rule's.
  SimBoard(Options options, std::uint64_t occupancy, FakeSysfs* sysfs, std::string link);
  ~SimBoard();
  SimBoard(const SimBoard&) = delete;
  SimBoard& operator=(const SimBoard&) = delete;

  void plug();    // a new pty, registered; the board waits for the host's hello
  void unplug();  // closes the master (the host sees a hang-up); unsent bytes are lost
  bool plugged() const { return master_ >= 0; }
  int master_fd() const { return master_; }
  const std::string& device() const { return device_; }

  // The board's clock (ms); heartbeats go out every heartbeat_ms of it.
  void set_time(std::uint32_t board_ms) { board_ms_ = board_ms; }
  std::uint32_t time() const { return board_ms_; }
  std::uint64_t occupancy() const { return occupancy_; }

  // A peg goes in or out: the occupancy changes and, when the host is greeted, a change
  // frame is queued (a raw edge in raw mode; the same frame format).
  void change(std::uint8_t square, bool occupied, const Wire& wire = {});
  // Changes the occupancy without any frame (while unplugged, or a lost edge).
  void set_square(std::uint8_t square, bool occupied);
  // A debounced button press (a board with buttons, greeted).
  void press(ButtonCode button);
  void send(const Message& m, const Wire& wire = {});
  // A frame of any type and payload, numbered like the others (to send a bad one).
  void send_payload(std::uint8_t type, std::vector<std::uint8_t> payload);
  void send_frame(const Frame& f, const Wire& wire = {});
  void send_bytes(std::vector<std::uint8_t> bytes);

  // One round: answers what the host sent, queues a heartbeat when due, writes the next
  // queued piece.
  struct Pumped {
    bool read = false;   // the host had sent something
    bool wrote = false;  // a piece went out
  };
  Pumped pump();
  bool queue_empty() const { return queue_.empty(); }
  bool greeted() const { return greeted_; }

  // What the host sent (decoded), and the host's frames that failed to decode.
  std::vector<Message> received;
  int bad_host_frames = 0;

 private:
  void queue_wire(std::vector<std::uint8_t> bytes, const Wire& wire);

  Options options_;
  std::uint64_t occupancy_;
  FakeSysfs* sysfs_;
  std::string link_;
  int master_ = -1;
  std::string device_;
  std::uint32_t board_ms_ = 0;
  std::uint32_t last_heartbeat_ = 0;
  std::uint8_t seq_ = 0;
  bool greeted_ = false;
  FrameDecoder decoder_;
  std::deque<std::vector<std::uint8_t>> queue_;
  std::deque<Frame> history_;  // the last frames sent, for Resend
  std::mt19937 rng_{20261122};
};

}  // namespace tactile::serial::test
