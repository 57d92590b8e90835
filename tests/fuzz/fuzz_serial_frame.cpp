// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the serial board protocol (drivers/serial): arbitrary bytes in arbitrary
// chunkings never crash the frame decoder, a valid frame sent after any garbage is always
// recovered, every accepted message re-encodes to the same frame, the sequencer hands out
// frames in order, and the occupancy tracker always ends equal to the last full occupancy
// it was given.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdlib>

#include "drivers/serial/frame.h"
#include "drivers/serial/messages.h"
#include "drivers/serial/sequencer.h"
#include "drivers/serial/tracker.h"

using namespace tactile::serial;

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void feed_chunked(FrameDecoder& d, FuzzedDataProvider& in, const std::vector<std::uint8_t>& bytes,
                  std::vector<Decoded>& out) {
  std::size_t at = 0;
  while (at < bytes.size()) {
    std::size_t n = in.ConsumeIntegralInRange<std::size_t>(1, bytes.size() - at);
    d.feed(std::span(bytes).subspan(at, n), out);
    at += n;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  Frame sent;
  sent.type = in.ConsumeIntegral<std::uint8_t>();
  sent.seq = in.ConsumeIntegral<std::uint8_t>();
  sent.payload =
      in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(0, kMaxPayload));
  std::vector<std::uint8_t> garbage =
      in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(0, 600));

  FrameDecoder decoder;
  std::vector<Decoded> out;
  feed_chunked(decoder, in, garbage, out);
  feed_chunked(decoder, in, encode_frame(sent), out);
  check(!out.empty());
  check(out.back().error == FrameError::None && out.back().frame == sent);

  // The frames that decoded, through the sequencer (any order, gaps, duplicates): each
  // number comes out at most once, in increasing order from the start.
  Sequencer sequencer;
  sequencer.start(in.ConsumeIntegral<std::uint8_t>());
  std::vector<Frame> ordered;
  std::uint8_t next = sequencer.expected();
  for (const Decoded& d : out) {
    if (d.error == FrameError::None) sequencer.push(d.frame, ordered);
  }
  sequencer.give_up(ordered);
  check(!sequencer.waiting());
  for (const Frame& f : ordered) {
    check(std::uint8_t(f.seq - next) < 128);
    next = std::uint8_t(f.seq + 1);
  }

  Tracker tracker;
  std::int64_t ms = 0;
  for (const Decoded& d : out) {
    if (d.error != FrameError::None) continue;
    std::string error;
    std::optional<Message> m = from_frame(d.frame, error);
    if (!m) {
      check(!error.empty());
      continue;
    }
    check(to_frame(*m, d.frame.seq) == d.frame);
    std::vector<TrackedChange> events;
    if (const Change* c = std::get_if<Change>(&*m))
      tracker.change(c->square, c->occupied, ++ms, events);
    std::optional<std::uint64_t> mask;
    if (const Occupancy* o = std::get_if<Occupancy>(&*m)) mask = o->mask;
    if (const Heartbeat* h = std::get_if<Heartbeat>(&*m)) mask = h->mask;
    if (mask) {
      tracker.occupancy(*mask, ++ms, events);
      check(tracker.state() == *mask && !tracker.awaiting());
    }
    // Every event changes its hole: replaying them must never repeat a state.
    for (std::size_t i = 1; i < events.size(); ++i) {
      if (events[i].square == events[i - 1].square) {
        check(events[i].occupied != events[i - 1].occupied);
      }
    }
  }
  return 0;
}
