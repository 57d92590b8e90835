// Reference firmware for the tactile board (Arduino framework, a board with native USB:
// Arduino Pro Micro / Leonardo (ATmega32U4) or Raspberry Pi Pico (arduino-pico core)).
// The protocol and debounce live in board_core.cpp; this file only scans the switch
// matrix and moves bytes. Wiring and build: README.md in this folder.

#include "board_core.h"

// Matrix: rows are driven low one at a time, columns read with pull-ups; one diode per
// switch (anode on the column side) so that any number of pegs can be read at once.
// Row r is rank r + 1 (row 0 = rank 1), column c is file c (column 0 = file a).
static const uint8_t kRowPins[8] = {2, 3, 4, 5, 6, 7, 8, 9};
static const uint8_t kColPins[8] = {10, 16, 14, 15, 18, 19, 20, 21};
static const uint8_t kBeeperPin = 1;
static const unsigned kSettleMicros = 30;  // after selecting a row, before reading

class ArduinoIo : public tactile_fw::Io {
 public:
  void write(const uint8_t* bytes, size_t n) override { Serial.write(bytes, n); }
  void set_leds(uint64_t on, uint64_t blink) override {
    // Hook: drive the square LEDs here (e.g. a WS2812 chain or shift registers).
    leds_on = on;
    leds_blink = blink;
  }
  void beep(uint16_t hz, uint16_t ms) override { tone(kBeeperPin, hz, ms); }
  uint64_t leds_on = 0, leds_blink = 0;
};

static ArduinoIo io;
static tactile_fw::BoardCore core(io, "tactile-board reference 1.0");

static uint64_t scan_matrix() {
  uint64_t occupied = 0;
  for (uint8_t r = 0; r < 8; ++r) {
    pinMode(kRowPins[r], OUTPUT);
    digitalWrite(kRowPins[r], LOW);
    delayMicroseconds(kSettleMicros);
    for (uint8_t c = 0; c < 8; ++c) {
      // A closed reed switch (peg in the hole) pulls the column low through its diode.
      if (digitalRead(kColPins[c]) == LOW) occupied |= uint64_t(1) << (r * 8 + c);
    }
    pinMode(kRowPins[r], INPUT);  // released rows float: no current through other rows
  }
  return occupied;
}

void setup() {
  for (uint8_t r = 0; r < 8; ++r) pinMode(kRowPins[r], INPUT);
  for (uint8_t c = 0; c < 8; ++c) pinMode(kColPins[c], INPUT_PULLUP);
  pinMode(kBeeperPin, OUTPUT);
  Serial.begin(115200);
}

void loop() {
  static uint32_t last_scan = 0;
  uint32_t now = millis();
  if (now != last_scan) {  // one full scan per millisecond
    last_scan = now;
    core.scan(scan_matrix(), now);
  }
  uint8_t buf[32];
  size_t n = 0;
  while (Serial.available() > 0 && n < sizeof buf) buf[n++] = uint8_t(Serial.read());
  if (n > 0) core.receive(buf, n, now);
  core.tick(now);
}
