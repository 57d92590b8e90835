// SPDX-License-Identifier: GPL-3.0-or-later
// The tactile board in simavr: loads the firmware's .elf into an emulated ATmega328P at
// 16 MHz, bridges its UART to a pseudo-terminal and plays the board's hardware around it:
// the 74HC138 row decoder, the reed switches and buttons with their diodes (a closed switch
// in the selected row pulls its column low), and the two 74HC595 of the LEDs. The test
// drives it with line commands on stdin and reads answers on stdout:
//
//   (at start)     -> "pty /dev/pts/N"
//   set SQ 0|1     a peg out of / into square SQ (0..63)            -> "ok"
//   hold B 0|1     button B (0..16, protocol numbering) released/held -> "ok"
//   noise N        N random bytes into the chip's UART (a noisy line) -> "ok"
//   leds           -> "leds HHHH" (the 595 outputs: files bits 0-7, ranks 8-15)
//   beeps          -> "beeps N" (tones started on the beeper pin so far)
//   stats          -> "stats scans_per_s=S latency_cycles=MEDIAN max=MAX n=N cycles=C"
//   quit
//
// Emulated time is held to the wall clock (the chip sleeps between its 1 ms ticks), so the
// host's timeouts mean what they mean on a real board. Latency is measured in emulated
// cycles from a switch change to the last byte of its Change frame on the UART.
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <avr_ioport.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_irq.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <deque>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "drivers/serial/frame.h"

namespace {

constexpr std::uint32_t kHz = 16000000;
constexpr std::uint8_t kChangeType = 0x03;

std::int64_t wall_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return std::int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}

struct Board {
  avr_t* avr = nullptr;
  int master = -1;
  int slave = -1;  // kept open: the master never hangs up while no host has the port
  std::uint64_t switches = 0;
  std::uint32_t buttons = 0;
  std::uint8_t port_c = 0xFF;
  std::uint8_t port_b = 0;
  std::uint16_t shift = 0, leds = 0;
  int beeps = 0;
  bool beeping = false;
  std::deque<std::uint8_t> to_chip;
  bool xon = true;
  // Measurements.
  std::uint64_t scans = 0, first_scan = 0, last_scan = 0;
  std::array<std::optional<avr_cycle_count_t>, 64> changed_at{};
  std::vector<avr_cycle_count_t> latencies;
  tactile::serial::FrameDecoder decoder;
  std::vector<tactile::serial::Decoded> frames;
  std::int64_t wall_start = 0;
  std::uint64_t rng = 0x9E3779B97F4A7C15ull;
  bool quit = false;
  std::string line;
};

Board g;

// Rows driven low by the chip right now: 0..7 ranks, 8 the button row, 9 the clock row.
std::uint16_t selected_rows() {
  std::uint16_t rows = 0;
  if (!(g.port_c & 0x08)) rows |= std::uint16_t(1u << (g.port_c & 0x07));
  if (!(g.port_c & 0x10)) rows |= 1u << 8;
  if (!(g.port_c & 0x20)) rows |= 1u << 9;
  return rows;
}

// The columns as the chip reads them: low where a closed switch joins a selected row.
void update_columns() {
  const std::uint16_t rows = selected_rows();
  std::uint8_t low = 0;
  for (int r = 0; r < 8; ++r)
    if (rows >> r & 1) low |= std::uint8_t(g.switches >> (8 * r));
  if (rows >> 8 & 1) low |= std::uint8_t(g.buttons);
  if (rows >> 9 & 1) {
    low |= std::uint8_t(g.buttons >> 8 & 0x07);          // clock, record, check: a..c
    low |= std::uint8_t((g.buttons >> 13 & 0x0F) << 3);  // hint .. weaker: d..g
  }
  const std::uint8_t high = std::uint8_t(~low);
  // Columns a..f on PD2..PD7, g and h on PB0, PB1. Set as the pins' external level, so
  // that the chip's own port writes (pull-ups) do not override them, and raised now.
  avr_ioport_external_t d{};
  d.name = 'D';
  d.mask = 0xFC;
  d.value = std::uint8_t(high << 2) & 0xFCu;
  avr_ioctl(g.avr, AVR_IOCTL_IOPORT_SET_EXTERNAL('D'), &d);
  avr_ioport_external_t b{};
  b.name = 'B';
  b.mask = 0x03;
  b.value = std::uint8_t(high >> 6) & 0x03u;
  avr_ioctl(g.avr, AVR_IOCTL_IOPORT_SET_EXTERNAL('B'), &b);
  for (int c = 0; c < 8; ++c) {
    const bool level = high >> c & 1;
    if (c < 6)
      avr_raise_irq(avr_io_getirq(g.avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 2 + c), level);
    else
      avr_raise_irq(avr_io_getirq(g.avr, AVR_IOCTL_IOPORT_GETIRQ('B'), c - 6), level);
  }
}

void on_port_c(avr_irq_t*, std::uint32_t value, void*) {
  const std::uint8_t before = g.port_c;
  g.port_c = std::uint8_t(value);
  // A scan starts with rank 1 selected.
  if ((before & 0x0F) != 0 && (g.port_c & 0x0F) == 0) {
    if (g.scans++ == 0) g.first_scan = g.avr->cycle;
    g.last_scan = g.avr->cycle;
  }
  update_columns();
}

// The two 74HC595: data PB2 shifted in on the rising edge of PB4, latched on PB5's.
void on_port_b(avr_irq_t*, std::uint32_t value, void*) {
  const std::uint8_t v = std::uint8_t(value), before = g.port_b;
  g.port_b = v;
  if ((v & 0x10) && !(before & 0x10)) g.shift = std::uint16_t(g.shift << 1 | (v >> 2 & 1));
  if ((v & 0x20) && !(before & 0x20)) g.leds = g.shift;
}

// Timer 2 toggling OC2A: a tone is on while the pin keeps changing.
void on_beeper(avr_irq_t*, std::uint32_t, void*) {
  if (!g.beeping) ++g.beeps;
  g.beeping = true;
}

void on_uart_out(avr_irq_t*, std::uint32_t value, void*) {
  const std::uint8_t byte = std::uint8_t(value);
  // No host on the port: the byte is lost, as from a USB-serial bridge nobody reads.
  if (::write(g.master, &byte, 1) < 0) {
  }
  g.frames.clear();
  g.decoder.feed(std::span(&byte, 1), g.frames);
  for (const tactile::serial::Decoded& d : g.frames) {
    if (d.error != tactile::serial::FrameError::None || d.frame.type != kChangeType ||
        d.frame.payload.size() != 6)
      continue;
    const std::uint8_t sq = d.frame.payload[4];
    if (sq < 64 && g.changed_at[sq]) {
      g.latencies.push_back(g.avr->cycle - *g.changed_at[sq]);
      g.changed_at[sq].reset();
    }
  }
}

void on_xon(avr_irq_t*, std::uint32_t, void*) {
  g.xon = true;
}
void on_xoff(avr_irq_t*, std::uint32_t, void*) {
  g.xon = false;
}

void reply(const std::string& text) {
  std::string out = text + "\n";
  if (::write(STDOUT_FILENO, out.data(), out.size()) < 0) g.quit = true;
}

std::string stats() {
  std::ostringstream s;
  double seconds = double(g.last_scan - g.first_scan) / kHz;
  double rate = g.scans > 1 && seconds > 0 ? double(g.scans - 1) / seconds : 0;
  std::vector<avr_cycle_count_t> l = g.latencies;
  std::sort(l.begin(), l.end());
  s << "stats scans_per_s=" << rate << " latency_cycles=" << (l.empty() ? 0 : l[l.size() / 2])
    << " max=" << (l.empty() ? 0 : l.back()) << " n=" << l.size() << " cycles=" << g.avr->cycle;
  return s.str();
}

void command(const std::string& text) {
  std::istringstream in(text);
  std::string word;
  in >> word;
  if (word == "set") {
    int sq = -1, v = -1;
    in >> sq >> v;
    if (sq < 0 || sq > 63 || (v != 0 && v != 1)) return reply("error: set SQ 0|1");
    const std::uint64_t bit = std::uint64_t{1} << sq;
    if (bool(g.switches & bit) != bool(v)) g.changed_at[std::size_t(sq)] = g.avr->cycle;
    g.switches = v ? g.switches | bit : g.switches & ~bit;
    update_columns();
    reply("ok");
  } else if (word == "hold") {
    int b = -1, v = -1;
    in >> b >> v;
    if (b < 0 || b > 16 || (v != 0 && v != 1)) return reply("error: hold B 0|1");
    const auto bit = std::uint32_t(1) << b;
    g.buttons = v ? g.buttons | bit : g.buttons & ~bit;
    update_columns();
    reply("ok");
  } else if (word == "noise") {
    int n = 0;
    in >> n;
    for (int i = 0; i < n; ++i) {
      g.rng ^= g.rng << 13;
      g.rng ^= g.rng >> 7;
      g.rng ^= g.rng << 17;
      g.to_chip.push_back(std::uint8_t(g.rng));
    }
    reply("ok");
  } else if (word == "leds") {
    char hex[8];
    std::snprintf(hex, sizeof hex, "%04x", unsigned(g.leds));
    reply(std::string("leds ") + hex);
  } else if (word == "beeps") {
    reply("beeps " + std::to_string(g.beeps));
  } else if (word == "stats") {
    reply(stats());
  } else if (word == "quit") {
    g.quit = true;
  } else {
    reply("error: unknown command '" + word + "'");
  }
}

// Moves bytes: the host's into the chip (at most what 115200 baud carries in the time
// since the last call), the test's commands in. Waits up to `wait_ns` for input.
void service(std::int64_t wait_ns) {
  pollfd fds[2] = {{g.master, POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
  int ms = int(std::max<std::int64_t>(0, wait_ns / 1000000));
  if (poll(fds, 2, ms) > 0) {
    if (fds[0].revents & POLLIN) {
      std::uint8_t buf[256];
      ssize_t n = ::read(g.master, buf, sizeof buf);
      for (ssize_t i = 0; i < n; ++i) g.to_chip.push_back(buf[i]);
    }
    if (fds[1].revents & (POLLIN | POLLHUP)) {
      char buf[256];
      ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
      if (n <= 0) g.quit = true;  // the test is gone
      for (ssize_t i = 0; i < n; ++i) {
        if (buf[i] != '\n') {
          g.line += buf[i];
          continue;
        }
        command(g.line);
        g.line.clear();
      }
    }
  }
  avr_irq_t* in = avr_io_getirq(g.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
  for (int i = 0; i < 11 && g.xon && !g.to_chip.empty(); ++i) {
    avr_raise_irq(in, g.to_chip.front());
    g.to_chip.pop_front();
  }
}

std::int64_t emulated_ns(avr_cycle_count_t cycle) {
  return std::int64_t(cycle * 1000000000ull / kHz);
}

// The chip sleeps until its next interrupt: wait for the wall clock to catch up, serving
// the pty and the test meanwhile.
void paced_sleep(avr_t* avr, avr_cycle_count_t how_long) {
  const std::int64_t due = g.wall_start + emulated_ns(avr->cycle + how_long);
  for (std::int64_t now = wall_ns(); now < due && !g.quit; now = wall_ns()) service(due - now);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FIRMWARE.elf\n", argv[0]);
    return 2;
  }
  elf_firmware_t fw{};
  if (elf_read_firmware(argv[1], &fw) != 0) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  g.avr = avr_make_mcu_by_name("atmega328p");
  if (!g.avr || avr_init(g.avr) != 0) return 1;
  avr_load_firmware(g.avr, &fw);
  g.avr->frequency = kHz;
  g.avr->sleep = paced_sleep;
  g.avr->log = 0;

  g.master = posix_openpt(O_RDWR | O_NOCTTY);
  if (g.master < 0 || grantpt(g.master) != 0 || unlockpt(g.master) != 0) return 1;
  const char* slave = ptsname(g.master);
  g.slave = open(slave, O_RDWR | O_NOCTTY);
  termios t{};
  tcgetattr(g.slave, &t);
  cfmakeraw(&t);
  tcsetattr(g.slave, TCSANOW, &t);
  fcntl(g.master, F_SETFL, fcntl(g.master, F_GETFL) | O_NONBLOCK);

  std::uint32_t flags = 0;
  avr_ioctl(g.avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
  flags &= ~std::uint32_t(AVR_UART_FLAG_STDIO);
  avr_ioctl(g.avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
  avr_irq_register_notify(avr_io_getirq(g.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                          on_uart_out, nullptr);
  avr_irq_register_notify(avr_io_getirq(g.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON),
                          on_xon, nullptr);
  avr_irq_register_notify(avr_io_getirq(g.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF),
                          on_xoff, nullptr);
  avr_irq_register_notify(avr_io_getirq(g.avr, AVR_IOCTL_IOPORT_GETIRQ('C'), IOPORT_IRQ_REG_PORT),
                          on_port_c, nullptr);
  avr_irq_register_notify(avr_io_getirq(g.avr, AVR_IOCTL_IOPORT_GETIRQ('B'), IOPORT_IRQ_REG_PORT),
                          on_port_b, nullptr);
  avr_irq_register_notify(avr_io_getirq(g.avr, AVR_IOCTL_IOPORT_GETIRQ('B'), IOPORT_IRQ_PIN3),
                          on_beeper, nullptr);
  update_columns();

  reply(std::string("pty ") + slave);
  g.wall_start = wall_ns();
  avr_cycle_count_t next_service = 0;
  while (!g.quit) {
    const int state = avr_run(g.avr);
    if (state == cpu_Done || state == cpu_Crashed) {
      std::fprintf(stderr, "the emulated chip stopped (state %d)\n", state);
      return 1;
    }
    if (g.avr->cycle >= next_service) {  // a busy chip: serve the lines every 1/4 ms
      next_service = g.avr->cycle + kHz / 4000;
      const std::int64_t ahead = g.wall_start + emulated_ns(g.avr->cycle) - wall_ns();
      service(ahead > 0 ? ahead : 0);
    }
  }
  return 0;
}
