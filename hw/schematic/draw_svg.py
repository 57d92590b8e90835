#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Draws hw/schematic/board.svg from hw/schematic/netlist.txt (format: hw/README.md).

Net-label style: each chip is a box whose pins carry the name of their net; the reed
matrix and the button rows are drawn as wires, with a switch and its diode at every
crossing that the netlist connects. Usage: draw_svg.py netlist.txt > board.svg
"""
import re
import sys
from xml.sax.saxutils import escape


def read_netlist(path):
    """Returns (parts {ref: description}, nets {name: [(ref, pin)]}), in file order."""
    parts, nets = {}, {}
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            if words[0] == "part":
                if len(words) < 3:
                    raise ValueError(f"{path}:{number}: part needs a reference and a description")
                parts[words[1]] = " ".join(words[2:])
                continue
            pins = []
            for w in words[1:]:
                if not re.fullmatch(r"[A-Za-z0-9_]+\.[A-Za-z0-9+]+", w):
                    raise ValueError(f"{path}:{number}: '{w}' is not REF.PIN")
                pins.append(tuple(w.split(".", 1)))
            if words[0] in nets:
                raise ValueError(f"{path}:{number}: net {words[0]} defined twice")
            nets[words[0]] = pins
    return parts, nets


def pin_nets(nets):
    """{(ref, pin): net}."""
    return {p: name for name, pins in nets.items() for p in pins}


# The datasheet names of the logic chips' pins, printed beside their numbers.
PIN_NAMES = {
    "74HC138": "A0 A1 A2 /G2A /G2B G1 Y7 GND Y6 Y5 Y4 Y3 Y2 Y1 Y0 VCC".split(),
    "74HC595": "QB QC QD QE QF QG QH GND QH' /SRCLR SRCLK RCLK /OE SER QA VCC".split(),
}


def chip(out, x, y, ref, title, pins, where):
    """A box with one pin per line; the net's name beside each pin."""
    names = PIN_NAMES.get(title.split()[0])
    h = 18 * len(pins) + 10
    out.append(f'<rect x="{x}" y="{y}" width="90" height="{h}" class="part"/>')
    out.append(f'<text x="{x}" y="{y - 6}" class="title">{escape(ref)}: {escape(title)}</text>')
    for i, pin in enumerate(pins):
        py = y + 18 + 18 * i
        label = f"{pin} {names[int(pin) - 1]}" if names else pin
        out.append(f'<text x="{x + 6}" y="{py + 4}">{escape(label)}</text>')
        out.append(f'<line x1="{x + 90}" y1="{py}" x2="{x + 120}" y2="{py}"/>')
        net = where.get((ref, pin), "n.c.")
        out.append(f'<text x="{x + 124}" y="{py + 4}" class="net">{escape(net)}</text>')
    return y + h


def switch(out, cx, cy, label):
    """A tap on the column at (cx, cy - 30), a normally open contact, a diode down to the row."""
    x = cx + 16
    out.append(f'<circle cx="{cx}" cy="{cy - 30}" r="2.5"/>')
    out.append(f'<path d="M{cx} {cy - 30} H{x} V{cy - 25} M{x - 6} {cy - 25} L{x + 6} {cy - 14} '
               f'M{x} {cy - 16} V{cy - 11}"/>')
    out.append(f'<path d="M{x - 5} {cy - 11} H{x + 5} L{x} {cy - 4} Z" class="diode"/>')
    out.append(f'<path d="M{x - 5} {cy - 4} H{x + 5} M{x} {cy - 4} V{cy}"/>')
    out.append(f'<circle cx="{x}" cy="{cy}" r="2.5"/>')
    out.append(f'<text x="{x + 7}" y="{cy - 14}" class="small">{escape(label)}</text>')


def matrix(out, x0, y0, parts, nets, where):
    """Columns left to right, rows top to bottom; a switch wherever the netlist joins them."""
    columns = [n for n in nets if n.startswith("COL_")]
    rows = [n for n in nets if re.fullmatch(r"ROW\d", n)][::-1] + ["BTN_ROW", "CLK_ROW"]
    step_x, step_y = 64, 56
    width, height = step_x * len(columns), step_y * len(rows)
    out.append(f'<text x="{x0}" y="{y0 - 28}" class="title">Reed matrix (ranks 8..1 from the top), '
               f'buttons and clock button; every switch has its own 1N4148</text>')
    for i, c in enumerate(columns):
        x = x0 + 20 + step_x * i
        out.append(f'<line x1="{x}" y1="{y0}" x2="{x}" y2="{y0 + height}" class="wire"/>')
        out.append(f'<text x="{x - 14}" y="{y0 - 6}" class="net">{c}</text>')
    for j, r in enumerate(rows):
        y = y0 + step_y * (j + 1)
        out.append(f'<line x1="{x0}" y1="{y}" x2="{x0 + width}" y2="{y}" class="wire"/>')
        out.append(f'<text x="{x0 + width + 6}" y="{y + 4}" class="net">{r}</text>')
    # A switch joins column c and row r when its pin 1 is on c and its pin 2 reaches,
    # through one diode (anode to cathode), the row r.
    for ref in parts:
        if not re.fullmatch(r"S[a-h][1-8]|SB\d+", ref):
            continue
        column = where.get((ref, "1"))
        tie = where.get((ref, "2"))
        diode = next((r for (r, p) in nets.get(tie, []) if p == "A" and r.startswith("D")), None)
        row = where.get((diode, "K")) if diode else None
        if column in columns and row in rows:
            cx = x0 + 20 + step_x * columns.index(column)
            cy = y0 + step_y * (rows.index(row) + 1)
            switch(out, cx, cy, ref)
    return y0 + height


def main():
    parts, nets = read_netlist(sys.argv[1])
    where = pin_nets(nets)

    def pins_of(ref, key=None):
        found = sorted({p for (r, p) in where if r == ref}, key=key)
        return found

    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="1300" height="960" '
           'viewBox="0 0 1300 960" font-family="DejaVu Sans, sans-serif" font-size="11">',
           '<style>line,path{stroke:#000;stroke-width:1;fill:none} .wire{stroke:#036}'
           ' .part{fill:#f4f4ec;stroke:#000} .diode{fill:#000} .title{font-size:13px;font-weight:bold}'
           ' .net{fill:#036} .small{font-size:9px;fill:#555} circle{fill:#000}</style>',
           '<rect width="1300" height="960" fill="#fff"/>',
           '<text x="20" y="26" font-size="18" font-weight="bold">tactile board: schematic '
           '(generated from hw/schematic/netlist.txt by draw_svg.py)</text>']

    def port_order(pin):
        return (pin[:2] not in ("PD", "PB", "PC"), {"PD": 0, "PB": 1, "PC": 2}.get(pin[:2], 3), pin)

    y = chip(out, 30, 70, "U1", parts["U1"].split(" (")[0] + ", ATmega328P", pins_of("U1", port_order),
             where)
    y = chip(out, 30, y + 40, "U2", "74HC138 rows", pins_of("U2", int), where)
    y3 = chip(out, 300, 70, "U3", "74HC595 files", pins_of("U3", int), where)
    chip(out, 300, y3 + 40, "U4", "74HC595 ranks", pins_of("U4", int), where)
    bottom = matrix(out, 560, 100, parts, nets, where)

    # Every other part, with the nets of its pins.
    listed = re.compile(r"U\d|S[a-h][1-8]|D[a-h][1-8]|SB\d+|DB\d+")
    others = [r for r in parts if not listed.fullmatch(r)]
    out.append(f'<text x="560" y="{bottom + 40}" class="title">Other parts: pin = net '
               f'(reeds S.., diodes D.., buttons SB/DB as drawn above)</text>')
    per_column = (len(others) + 2) // 3
    for i, ref in enumerate(others):
        x = 560 + 250 * (i // per_column)
        yy = bottom + 60 + 15 * (i % per_column)
        conn = ", ".join(f"{p}={where[(ref, p)]}" for p in pins_of(ref))
        out.append(f'<text x="{x}" y="{yy}" class="small">{escape(ref)} {escape(conn)}</text>')
    out.append("</svg>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
