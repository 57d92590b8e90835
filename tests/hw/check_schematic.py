#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks hw/schematic against itself and against the firmware's pin map.

- the netlist parses, every pin is in one net only, every pin belongs to a declared part,
  every part is wired;
- every reed switch (S<square>) runs from its file's column through its own diode
  (anode at the switch) to its rank's row; every button likewise to a button row;
- the MCU pins of the netlist are exactly the pins main_avr.cpp defines, each on the net
  of its role (columns in the order read_columns() reads them, rank address, rows, LED
  register, beeper, UART);
- board.svg is what draw_svg.py makes of the netlist (no stale drawing), and rsvg-convert
  renders it to a PNG.
Usage: check_schematic.py SOURCE_DIR WORK_DIR
"""
import os
import re
import subprocess
import sys

source, work = sys.argv[1], sys.argv[2]
schematic = os.path.join(source, "hw", "schematic")
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, schematic)
import draw_svg  # noqa: E402

errors = []


def fail(message):
    errors.append(message)


parts, nets = draw_svg.read_netlist(os.path.join(schematic, "netlist.txt"))

# One net per pin, declared parts only, no part left unwired.
seen = {}
for name, pins in nets.items():
    for pin in pins:
        if pin in seen:
            fail(f"pin {pin[0]}.{pin[1]} is in nets {seen[pin]} and {name}")
        seen[pin] = name
        if pin[0] not in parts:
            fail(f"net {name}: part {pin[0]} is not declared")
for ref in parts:
    if not any(r == ref for (r, _) in seen):
        fail(f"part {ref} is in no net")

# Every switch through its own diode from its column to its row.
files = "abcdefgh"


def through_diode(switch, diode):
    tie = seen.get((switch, "2"))
    if tie is None or seen.get((diode, "A")) != tie or len(nets[tie]) != 2:
        fail(f"{switch}: pin 2 must meet only the anode of its diode {diode}")
    return seen.get((diode, "K"))


for f in files:
    for rank in range(1, 9):
        s, d = f"S{f}{rank}", f"D{f}{rank}"
        if s not in parts or d not in parts:
            fail(f"square {f}{rank}: reed {s} or diode {d} missing")
            continue
        if seen.get((s, "1")) != f"COL_{f.upper()}":
            fail(f"{s}: pin 1 is on {seen.get((s, '1'))}, not COL_{f.upper()}")
        row = through_diode(s, d)
        if row != f"ROW{rank}":
            fail(f"{d}: cathode on {row}, not ROW{rank}")
# SB1..SB8 on the button row, columns a..h; SB9 clock, SB10 record, SB11 check, SB12 hint,
# SB13 takeback, SB14 stronger, SB15 weaker on the clock row, columns a..g (protocol buttons
# 8, 9, 10, 13..16).
for i in range(1, 16):
    s, d = f"SB{i}", f"DB{i}"
    if s not in parts or d not in parts:
        fail(f"button {s} or its diode {d} missing")
        continue
    column = f"COL_{files[i - 9].upper()}" if i >= 9 else f"COL_{files[i - 1].upper()}"
    if seen.get((s, "1")) != column:
        fail(f"{s}: pin 1 is on {seen.get((s, '1'))}, not {column}")
    row = through_diode(s, d)
    want = "CLK_ROW" if i >= 9 else "BTN_ROW"
    if row != want:
        fail(f"{d}: cathode on {row}, not {want}")
# Rows come from the 74HC138 outputs Y0..Y7 in rank order (address = rank - 1).
for rank, pin in enumerate([15, 14, 13, 12, 11, 10, 9, 7], 1):
    if seen.get(("U2", str(pin))) != f"ROW{rank}":
        fail(f"U2.{pin} (Y{rank - 1}) is not on ROW{rank}")

# The firmware's pins, read from main_avr.cpp's definitions.
with open(os.path.join(source, "hw", "firmware", "tactile-board", "main_avr.cpp"), encoding="utf-8") as f:
    firmware = f.read()
expected = {}  # MCU pin -> net


def expect(pin, net):
    if pin in expected and expected[pin] != net:
        fail(f"main_avr.cpp gives {pin} two roles: {expected[pin]} and {net}")
    expected[pin] = net


role_of_constant = {"kRankEnable": "RANK_EN", "kButtonRow": "BTN_ROW", "kClockRow": "CLK_ROW",
                    "kLedData": "LED_DATA", "kBeeper": "BEEP", "kLedClock": "LED_CLK",
                    "kLedLatch": "LED_LATCH"}
for constant, pin in re.findall(r"\b(k\w+)\s*=\s*_BV\((P[BCD][0-7])\)", firmware):
    if constant not in role_of_constant:
        fail(f"main_avr.cpp pin {constant} = {pin} has no role in this check")
        continue
    expect(pin, role_of_constant[constant])
column_pins = []
for port in "DB":
    m = re.search(rf"\bkColumns{port}\s*=\s*(0x[0-9A-Fa-f]+)", firmware)
    if not m:
        fail(f"main_avr.cpp: kColumns{port} not found")
        continue
    column_pins += [f"P{port}{b}" for b in range(8) if int(m.group(1), 16) >> b & 1]
if not re.search(r"low >> 2 \| lowb << 6", firmware):
    fail("main_avr.cpp: read_columns() no longer reads PORTD's columns before PORTB's")
if len(column_pins) != 8:
    fail(f"main_avr.cpp defines {len(column_pins)} column pins, not 8")
for i, pin in enumerate(column_pins):
    expect(pin, f"COL_{files[i].upper()}")
m = re.search(r"\bDDRC\s*=\s*(0x[0-9A-Fa-f]+)", firmware)
outputs_c = [f"PC{b}" for b in range(8) if m and int(m.group(1), 16) >> b & 1]
address = [p for p in outputs_c if p not in expected]
if len(address) != 3:
    fail(f"main_avr.cpp: expected 3 rank-address outputs on port C, found {address}")
for i, pin in enumerate(address):
    expect(pin, f"RANK_A{i}")
if "UBRR0" in firmware:
    expect("PD0", "RXD")
    expect("PD1", "TXD")

drawn = {pin: net for (ref, pin), net in seen.items() if ref == "U1" and re.fullmatch(r"P[BCD][0-7]", pin)}
for pin in sorted(set(expected) | set(drawn)):
    if pin not in drawn:
        fail(f"firmware uses {pin} ({expected[pin]}) but the netlist does not")
    elif pin not in expected:
        fail(f"netlist wires U1.{pin} ({drawn[pin]}) but the firmware does not use it")
    elif drawn[pin] != expected[pin]:
        fail(f"U1.{pin}: firmware role {expected[pin]}, netlist net {drawn[pin]}")

# Files' LEDs on the first register of the chain (file_rank_leds.h: bits 0..7 files).
if seen.get(("U3", "14")) != "LED_DATA" or seen.get(("U3", "9")) != seen.get(("U4", "14")):
    fail("LED chain: the MCU must feed U3 (files) and U3's QH' must feed U4 (ranks)")

# The drawing is the netlist's, and a real renderer reads it.
svg_path = os.path.join(schematic, "board.svg")
drawn_now = subprocess.run([sys.executable, os.path.join(schematic, "draw_svg.py"),
                            os.path.join(schematic, "netlist.txt")],
                           check=True, capture_output=True, text=True).stdout
with open(svg_path, encoding="utf-8") as f:
    if f.read() != drawn_now:
        fail("hw/schematic/board.svg is stale: run draw_svg.py netlist.txt > board.svg")
png = os.path.join(work, "board.png")
if os.path.exists(png):
    os.remove(png)
render = subprocess.run(["rsvg-convert", "-o", png, svg_path], capture_output=True, text=True)
if render.returncode != 0:
    fail(f"rsvg-convert failed: {render.stderr.strip()}")
else:
    with open(png, "rb") as f:
        head = f.read(24)
    width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    if head[:8] != b"\x89PNG\r\n\x1a\n" or width < 800 or height < 600:
        fail(f"rsvg-convert made no usable PNG ({width}x{height})")

for e in errors:
    print("FAIL:", e)
if errors:
    sys.exit(1)
print(f"schematic ok: {len(parts)} parts, {len(nets)} nets, {len(drawn)} MCU pins, {png}")
