// SPDX-License-Identifier: GPL-3.0-or-later
// The tactile board's firmware for an ATmega328P at 16 MHz with a USB-serial bridge
// (Arduino Nano class), built with avr-g++ and avr-libc (hw/firmware/CMakeLists.txt). This
// file is only the chip: matrix scan, UART, timers, LED shift registers and beeper. The
// protocol and the debounce are board_core.cpp, the same file the host tests run.
//
// Pins (hw/README.md has the schematic):
//   PD0/PD1   UART RX/TX to the USB-serial bridge
//   PD2..PD7  columns a..f, PB0/PB1 columns g, h: inputs with pull-ups; a closed reed
//             switch (or a pressed button) pulls its column low through its diode
//   PC0..PC2  rank address of the 74HC138 that drives rows 1..8 (its outputs are low when
//             selected, high otherwise); PC3 its /G2A enable (high: no rank selected)
//   PC4       row of the eight player buttons (announce, time, correct, repeat, Q, R, B, N
//             on columns a..h), low when selected
//   PC5       row of the sighted opponent's clock button (column a), the player's
//             record and check buttons (columns b, c) and his training buttons hint,
//             takeback, stronger, weaker (columns d..g), low when selected
//   PB2/PB4/PB5  data, clock, latch of two 74HC595 driving 8 file LEDs and 8 rank LEDs
//   PB3       beeper (OC2A: timer 2 toggles it at the tone's frequency)
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <util/delay.h>

#include "board_core.h"
#include "file_rank_leds.h"

extern "C" void __cxa_pure_virtual() {
  for (;;) {
  }
}

namespace {

// The board's millisecond clock: timer 0 in CTC mode, 16 MHz / 64 / 250 = 1 kHz.
volatile uint32_t g_ms = 0;

uint32_t millis() {
  uint8_t s = SREG;
  cli();
  uint32_t v = g_ms;
  SREG = s;
  return v;
}

// UART buffers: the receive interrupt never loses a byte while the matrix is scanned, and
// frames go out in the background.
constexpr uint8_t kRxSize = 128, kTxSize = 128;  // powers of two
volatile uint8_t g_rx[kRxSize];
volatile uint8_t g_rx_head = 0, g_rx_tail = 0;
volatile uint8_t g_tx[kTxSize];
volatile uint8_t g_tx_head = 0, g_tx_tail = 0;

constexpr uint8_t kColumnsD = 0xFC;  // PD2..PD7
constexpr uint8_t kColumnsB = 0x03;  // PB0, PB1
constexpr uint8_t kRankEnable = _BV(PC3), kButtonRow = _BV(PC4), kClockRow = _BV(PC5);
constexpr uint8_t kLedData = _BV(PB2), kBeeper = _BV(PB3), kLedClock = _BV(PB4),
                  kLedLatch = _BV(PB5);
constexpr uint8_t kRowsIdle = kRankEnable | kButtonRow | kClockRow;

uint16_t g_beep_left_ms = 0;

// The eight columns, bit c = column c closed (read low).
uint8_t read_columns() {
  uint8_t low = uint8_t(~PIND) & kColumnsD;
  uint8_t lowb = uint8_t(~PINB) & kColumnsB;
  return uint8_t(low >> 2 | lowb << 6);
}

// Selects one row (PORTC written whole: the harness and the 74HC138 see one change) and
// reads the columns once the lines have settled.
uint8_t read_row(uint8_t portc) {
  PORTC = portc;
  _delay_us(4);  // a row's fall and the pull-ups' rise through the wiring
  uint8_t cols = read_columns();
  PORTC = kRowsIdle;
  return cols;
}

uint64_t scan_squares() {
  uint64_t occupied = 0;
  for (uint8_t rank = 0; rank < 8; ++rank) {
    occupied |= uint64_t(read_row(uint8_t(kRowsIdle & ~kRankEnable) | rank)) << (8 * rank);
  }
  return occupied;
}

uint32_t scan_buttons() {
  uint32_t held = read_row(uint8_t(kRowsIdle & ~kButtonRow));
  // Clock (8), record (9), check (10) on columns a..c of the clock row; hint (13),
  // takeback (14), stronger (15), weaker (16) on its columns d..g.
  const uint8_t clock_row = read_row(uint8_t(kRowsIdle & ~kClockRow));
  held |= uint32_t(clock_row & 0x07) << 8;
  held |= uint32_t(clock_row >> 3 & 0x0F) << 13;
  return held;
}

// 16 bits into the two 74HC595: ranks' register first, so files end in the first chip.
void shift_leds(uint16_t bits) {
  for (int8_t i = 15; i >= 0; --i) {
    if (bits >> i & 1)
      PORTB |= kLedData;
    else
      PORTB &= uint8_t(~kLedData);
    PORTB |= kLedClock;
    PORTB &= uint8_t(~kLedClock);
  }
  PORTB |= kLedLatch;
  PORTB &= uint8_t(~kLedLatch);
}

void beeper_off() {
  TCCR2A = 0;
  TCCR2B = 0;
  PORTB &= uint8_t(~kBeeper);
}

class AvrIo : public tactile_fw::Io {
 public:
  void write(const uint8_t* bytes, size_t n) override {
    for (size_t i = 0; i < n; ++i) {
      uint8_t next = uint8_t((g_tx_head + 1) & (kTxSize - 1));
      while (next == g_tx_tail) {
        // Full: the UART empties it at 11.5 bytes per ms whether or not a host listens.
      }
      g_tx[g_tx_head] = bytes[i];
      g_tx_head = next;
      UCSR0B |= _BV(UDRIE0);
    }
  }
  void set_leds(uint64_t on, uint64_t blink) override {
    leds_on = on;
    leds_blink = blink;
  }
  void beep(uint16_t hz, uint16_t ms) override {
    if (hz < 31 || ms == 0) {
      beeper_off();
      return;
    }
    // CTC, toggle OC2A on match: f = 16 MHz / (2 * prescaler * (1 + OCR2A)).
    static const uint16_t kPrescalers[] = {1, 8, 32, 64, 128, 256, 1024};
    for (uint8_t i = 0; i < 7; ++i) {
      uint32_t top = F_CPU / (2UL * kPrescalers[i] * hz);
      if (top == 0 || top > 256) continue;
      OCR2A = uint8_t(top - 1);
      TCCR2A = _BV(COM2A0) | _BV(WGM21);
      TCCR2B = uint8_t(i + 1);
      g_beep_left_ms = ms;
      return;
    }
  }
  uint64_t leds_on = 0, leds_blink = 0;
};

AvrIo g_io;
// LEDs per file and rank, beeper, buttons; debounce 20 ms, heartbeat every 500 ms.
tactile_fw::BoardCore g_core(g_io, "tactile-board avr 1.1",
                             0x02 /*leds*/ | 0x04 /*beeper*/ | 0x08 /*buttons*/ |
                                 0x10 /*file+rank*/);

void setup() {
  // Columns: inputs with pull-ups. Rows: outputs, none selected.
  DDRD = 0;
  PORTD = kColumnsD;
  DDRB = kLedData | kBeeper | kLedClock | kLedLatch;
  PORTB = kColumnsB;
  DDRC = 0x3F;
  PORTC = kRowsIdle;
  shift_leds(0);
  // Timer 0: 1 kHz tick.
  TCCR0A = _BV(WGM01);
  OCR0A = 249;
  TIMSK0 = _BV(OCIE0A);
  TCCR0B = _BV(CS01) | _BV(CS00);
  // UART: 115200 8N1 with double speed (UBRR 16: 2.1 % off, as every Nano).
  UCSR0A = _BV(U2X0);
  UBRR0 = 16;
  UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
  UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
  set_sleep_mode(SLEEP_MODE_IDLE);
  sei();
}

}  // namespace

ISR(TIMER0_COMPA_vect) {
  ++g_ms;
}

ISR(USART_RX_vect) {
  uint8_t status = UCSR0A;
  uint8_t b = UDR0;
  if (status & (_BV(FE0) | _BV(DOR0))) return;  // a broken byte: the CRC would catch it
  uint8_t next = uint8_t((g_rx_head + 1) & (kRxSize - 1));
  if (next != g_rx_tail) {  // full: dropped; the host's resend or retry covers it
    g_rx[g_rx_head] = b;
    g_rx_head = next;
  }
}

ISR(USART_UDRE_vect) {
  if (g_tx_head == g_tx_tail) {
    UCSR0B &= uint8_t(~_BV(UDRIE0));
    return;
  }
  UDR0 = g_tx[g_tx_tail];
  g_tx_tail = uint8_t((g_tx_tail + 1) & (kTxSize - 1));
}

int main() {
  setup();
  g_core.scan(scan_squares(), millis());  // power-up: the board as it is
  g_core.start(millis());
  uint32_t last_scan = millis();
  uint16_t shown = 0;
  for (;;) {
    uint32_t now = millis();
    if (now != last_scan) {  // one full scan of squares and buttons per millisecond
      if (g_beep_left_ms > 0) {
        uint32_t passed = now - last_scan;
        g_beep_left_ms = passed >= g_beep_left_ms ? 0 : uint16_t(g_beep_left_ms - passed);
        if (g_beep_left_ms == 0) beeper_off();
      }
      last_scan = now;
      g_core.scan(scan_squares(), now);
      g_core.buttons(scan_buttons(), now);
      uint16_t leds = tactile_fw::file_rank_leds(g_io.leds_on, g_io.leds_blink, now);
      if (leds != shown) shift_leds(shown = leds);
    }
    uint8_t buf[16];
    uint8_t n = 0;
    while (n < sizeof buf && g_rx_tail != g_rx_head) {
      buf[n++] = g_rx[g_rx_tail];
      g_rx_tail = uint8_t((g_rx_tail + 1) & (kRxSize - 1));
    }
    if (n > 0) g_core.receive(buf, n, now);
    g_core.tick(now);
    // Idle until the next tick or byte. Interrupts are on, so a byte that came in since
    // the check above wakes the chip at once.
    cli();
    if (g_rx_tail == g_rx_head && millis() == now) {
      sleep_enable();
      sei();
      sleep_cpu();
      sleep_disable();
    }
    sei();
  }
}
