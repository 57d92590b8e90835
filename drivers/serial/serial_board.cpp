// SPDX-License-Identifier: GPL-3.0-or-later
#include "drivers/serial/serial_board.h"

#include <poll.h>

#include <algorithm>

namespace tactile::serial {
namespace {

std::string seq_text(std::uint8_t v) {
  return std::to_string(int(v));
}

// The board's button numbers as the game knows its buttons: by their names (the player's
// channel's, the engine seating's and the sighted opponent's clock, D.2.5, are declared by
// their owners: core/board/events.h).
board::Button game_button(ButtonCode code) {
  switch (code) {
    case ButtonCode::Announce:
      return board::Button::Announce;
    case ButtonCode::Time:
      return board::Button::Time;
    case ButtonCode::Correct:
      return board::Button::Correct;
    case ButtonCode::Repeat:
      return board::Button::Repeat;
    case ButtonCode::PromoteQueen:
      return board::Button::PromoteQueen;
    case ButtonCode::PromoteRook:
      return board::Button::PromoteRook;
    case ButtonCode::PromoteBishop:
      return board::Button::PromoteBishop;
    case ButtonCode::PromoteKnight:
      return board::Button::PromoteKnight;
    case ButtonCode::Record:
      return board::Button::named("record");
    case ButtonCode::Check:
      return board::Button::named("check");
    case ButtonCode::Faster:
      return board::Button::named("faster");
    case ButtonCode::Slower:
      return board::Button::named("slower");
    case ButtonCode::Hint:
      return board::Button::named("hint");
    case ButtonCode::Takeback:
      return board::Button::named("takeback");
    case ButtonCode::Stronger:
      return board::Button::named("stronger");
    case ButtonCode::Weaker:
      return board::Button::named("weaker");
    case ButtonCode::Clock:
      break;
  }
  return board::Button::named("clock");
}

// How long a frame may take from the board's clock to our read (raw boards only).
constexpr std::int64_t kTransitMarginMs = 5;
// Bytes wait for the port: step() tries them again this soon even with no POLLOUT asked.
constexpr std::int64_t kPendingRetryMs = 10;

}  // namespace

SerialBoard::SerialBoard(SerialBoardConfig config)
    : config_(std::move(config)), tracker_(config_.baseline), debouncer_(config_.debounce_ms) {}

SerialBoard::~SerialBoard() = default;

int SerialBoard::fd() const {
  return port_ ? port_->fd() : -1;
}

short SerialBoard::poll_events() const {
  return short(POLLIN | (port_ && port_->pending() ? POLLOUT : 0));
}

std::int64_t SerialBoard::timeout_ms(std::int64_t now) const {
  std::int64_t due = INT64_MAX;
  switch (state_) {
    case State::Closed:
      due = next_attempt_ms_;
      break;
    case State::Handshake:
      due = handshake_deadline_;
      break;
    case State::Connected: {
      due = last_frame_ms_ + std::int64_t(config_.missed_heartbeats) * heartbeat_ms_;
      if (tracker_.awaiting())
        due = std::min(due, occupancy_asked_ms_ + config_.occupancy_retry_ms);
      if (sequencer_.waiting()) due = std::min(due, resend_asked_ms_ + config_.occupancy_retry_ms);
      std::uint32_t board_due = 0;
      if (raw_ && session_synced_ && debouncer_.next_deadline(board_due)) {
        std::int64_t host_due =
            last_board_host_ms_ + std::int32_t(board_due - last_board_ms_) + kTransitMarginMs;
        due = std::min(due, host_due);
      }
      break;
    }
  }
  // A loop that polls for input alone (tactilectl's) still sends what waits, soon.
  if (port_ && port_->pending()) due = std::min(due, now + kPendingRetryMs);
  if (due <= now) return 0;
  if (now < 0 && due > INT64_MAX + now) return INT64_MAX;  // no overflow
  return due - now;
}

void SerialBoard::warn(std::int64_t now, std::string message, std::vector<SerialOutput>& out) {
  out.push_back(StatusOutput{now, LinkStatus::Warning, std::move(message), 0});
}

void SerialBoard::emit(const std::vector<TrackedChange>& changes, std::vector<SerialOutput>& out) {
  for (const TrackedChange& c : changes) {
    board::HoleEvent e{c.ms, chess::Square(c.square),
                       c.occupied ? board::Hole::Down : board::Hole::Up};
    out.push_back(HoleOutput{e, c.resync});
  }
}

bool SerialBoard::send(const Message& message, std::int64_t now, std::vector<SerialOutput>& out) {
  if (!port_) return false;
  std::vector<std::uint8_t> wire = encode_frame(to_frame(message, tx_seq_++));
  std::string why;
  if (!port_->send(wire, why)) {
    lose(now, why, out);
    return false;
  }
  return true;
}

void SerialBoard::try_connect(std::int64_t now, std::vector<SerialOutput>& out) {
  next_attempt_ms_ = now + config_.reconnect_ms;
  std::string why;
  std::optional<std::string> device = find_port(config_.port, why);
  if (device) port_ = Port::open(*device, config_.port.baud, why);
  if (!port_) {
    // Said once per distinct failure, not every 2 s.
    if (why != last_open_error_) warn(now, "serial board: " + why, out);
    last_open_error_ = why;
    return;
  }
  decoder_.reset();
  state_ = State::Handshake;
  handshake_deadline_ = now + config_.handshake_ms;
  send(HostHello{}, now, out);
}

void SerialBoard::lose(std::int64_t now, const std::string& why, std::vector<SerialOutput>& out) {
  port_.reset();
  state_ = State::Closed;
  session_synced_ = false;
  next_attempt_ms_ = now + config_.reconnect_ms;
  // Changes held for reconciliation stay held, and so do the changes that waited behind a
  // gap: the occupancy after the reconnect settles them, so nothing the board reported is
  // dropped.
  tracker_.await_occupancy();
  std::vector<Frame> waiting;
  sequencer_.give_up(waiting);
  for (const Frame& f : waiting) {
    std::string error;
    std::optional<Message> m = from_frame(f, error);
    if (m) to_squares(*m);
    const Change* c = m ? std::get_if<Change>(&*m) : nullptr;
    std::vector<TrackedChange> none;  // held: nothing comes out while awaiting
    if (c && !raw_) tracker_.change(c->square, c->occupied, now, none);
  }
  if (announced_) {
    announced_ = false;
    out.push_back(StatusOutput{now, LinkStatus::Lost, "serial board lost: " + why, 0});
  } else if (why != last_open_error_) {
    // A port that never answers is retried every 2 s: said once, not every time.
    warn(now, "serial board: " + why, out);
  }
  last_open_error_ = why;
}

void SerialBoard::request_occupancy(std::int64_t now, std::vector<SerialOutput>& out) {
  occupancy_asked_ms_ = now;
  send(RequestOccupancy{}, now, out);
}

void SerialBoard::settle(std::int64_t now, std::vector<SerialOutput>& out) {
  if (!raw_ || !session_synced_ || state_ != State::Connected) return;
  // The board's clock now: exact right after a frame; between frames estimated from ours,
  // held back by the transit margin so that an edge still on its way is not overtaken.
  std::int64_t elapsed = std::max<std::int64_t>(0, now - last_board_host_ms_ - kTransitMarginMs);
  std::uint32_t board_now = last_board_ms_ + std::uint32_t(elapsed);
  std::vector<StableChange> stable;
  debouncer_.settle(board_now, stable);
  std::vector<TrackedChange> changes;
  for (const StableChange& s : stable) {
    std::int64_t ms =
        last_board_host_ms_ + elapsed - std::int64_t(std::uint32_t(board_now - s.board_ms));
    tracker_.change(s.square, s.occupied, ms, changes);
    if (s.inferred && !changes.empty()) changes.back().resync = true;
  }
  emit(changes, out);
}

void SerialBoard::on_occupancy(std::uint64_t mask, std::uint32_t board_ms, bool heartbeat,
                               std::int64_t now, std::vector<SerialOutput>& out) {
  std::vector<TrackedChange> changes;
  if (!session_synced_) {
    session_synced_ = true;
    tracker_.occupancy(mask, now, changes);
    if (raw_) debouncer_.reset(tracker_.state());
    std::string text = "serial board found on " + port_->device();
    if (!firmware_.empty()) text += " (" + firmware_ + ")";
    if (announced_) {
      warn(now, "serial board restarted by itself; " + text, out);  // a hello mid-session
    } else {
      out.push_back(StatusOutput{now, LinkStatus::Found, text, mask});
    }
    announced_ = true;
    last_open_error_.clear();
    emit(changes, out);
    if (leds_on_ || leds_blink_) send(SetLeds{leds_on_, leds_blink_}, now, out);
    return;
  }
  if (raw_) {
    debouncer_.sample(mask, board_ms);
    return;  // settle() runs after every frame
  }
  bool expected = tracker_.awaiting();
  tracker_.occupancy(mask, now, changes);
  if (!changes.empty() && !expected) {
    warn(now,
         std::string("serial board: ") + (heartbeat ? "heartbeat" : "occupancy") +
             " differs from the reported changes on " + std::to_string(changes.size()) +
             " hole(s); reconciled",
         out);
  }
  emit(changes, out);
}

void SerialBoard::ask_resend(std::int64_t now, std::vector<SerialOutput>& out) {
  resend_asked_ms_ = now;
  send(Resend{sequencer_.expected()}, now, out);
}

void SerialBoard::fall_back(std::int64_t now, std::vector<SerialOutput>& out) {
  warn(now,
       "serial board: frames from " + seq_text(sequencer_.expected()) +
           " cannot be sent again; reconciling with the full board",
       out);
  // The waiting frames still count, but only the full occupancy can tell what was lost.
  if (!raw_) tracker_.await_occupancy();
  std::vector<Frame> ready;
  sequencer_.give_up(ready);
  for (const Frame& f : ready) {
    if (state_ == State::Connected) process(f, now, out);
  }
  if (state_ == State::Connected) request_occupancy(now, out);
}

void SerialBoard::hello(const Frame& frame, std::int64_t now, std::vector<SerialOutput>& out) {
  std::string error;
  std::optional<Message> msg = from_frame(frame, error);
  if (msg) to_squares(*msg);
  if (!msg) {
    warn(now, "serial board: bad hello: " + error, out);
    return;
  }
  const Hello& h = std::get<Hello>(*msg);
  if ((h.flags & kFlagStartup) && h.major == kProtocolMajor) {
    // The board (re)started by itself, e.g. reset by the port's opening (an Arduino's
    // auto-reset): our HostHello may have gone to its boot loader. Greet it (again); its
    // answer is the hello that starts the session.
    state_ = State::Handshake;
    handshake_deadline_ = now + config_.handshake_ms;
    send(HostHello{}, now, out);
    return;
  }
  if (h.major != kProtocolMajor) {
    lose(now,
         "protocol version " + std::to_string(h.major) + "." + std::to_string(h.minor) +
             " not supported (host speaks " + std::to_string(kProtocolMajor) + ".x)",
         out);
    return;
  }
  state_ = State::Connected;
  raw_ = (h.flags & kFlagRaw) != 0;
  flags_ = h.flags;
  if (config_.needs_buttons && !(h.flags & kFlagButtons))
    warn(now,
         "serial board: it has no buttons (firmware of protocol " + std::to_string(h.major) + "." +
             std::to_string(h.minor) +
             "), so no move can be completed in button mode: use completion = auto or update "
             "its firmware",
         out);
  heartbeat_ms_ = h.heartbeat_ms;
  firmware_ = h.firmware;
  session_synced_ = false;
  tracker_.await_occupancy();
  sequencer_.start(frame.seq);
  last_frame_ms_ = now;
  request_occupancy(now, out);
}

void SerialBoard::handle(const Frame& frame, std::int64_t now, std::vector<SerialOutput>& out) {
  if (frame.type == kHello) {  // a new session restarts the sequence numbers
    hello(frame, now, out);
    return;
  }
  if (state_ != State::Connected) return;  // stale frames before the hello
  last_frame_ms_ = now;
  ++frames_;
  std::vector<Frame> ready;
  bool gap = sequencer_.push(frame, ready);
  for (const Frame& f : ready) {
    if (state_ == State::Connected) process(f, now, out);
  }
  // The board cannot fill the gap: its answer must not wait behind the gap itself.
  bool cannot_resend = frame.type == kNak && frame.payload.size() == 2 &&
                       frame.payload[1] == std::uint8_t(NakReason::CannotResend);
  if (cannot_resend) {
    if (state_ == State::Connected && sequencer_.waiting()) fall_back(now, out);
  } else if (gap && state_ == State::Connected) {
    warn(now,
         "serial board: frame " + seq_text(sequencer_.expected()) +
             " missing; asking the board to send it again",
         out);
    ask_resend(now, out);
  }
}

void SerialBoard::to_squares(Message& message) const {
  const board::SwitchMap& map = config_.switch_map;
  auto mask_of = [&map](std::uint64_t raw) {
    std::uint64_t squares = 0;
    for (int i = 0; i < 64; ++i)
      if ((raw >> i & 1) && map[i] != chess::NoSquare) squares |= std::uint64_t{1} << map[i];
    return squares;
  };
  std::visit(
      [&](auto& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, Occupancy> || std::is_same_v<T, Heartbeat>)
          m.mask = mask_of(m.mask);
        else if constexpr (std::is_same_v<T, Change>)
          if (m.square < 64) m.square = map[m.square];
      },
      message);
}

void SerialBoard::process(const Frame& frame, std::int64_t now, std::vector<SerialOutput>& out) {
  std::string error;
  std::optional<Message> msg = from_frame(frame, error);
  if (msg) to_squares(*msg);
  if (!msg) {
    // Its content is lost (sending it again gives the same): reconcile.
    warn(now, "serial board: bad frame content: " + error, out);
    if (!raw_) tracker_.await_occupancy();
    request_occupancy(now, out);
    return;
  }
  std::visit(
      [&](const auto& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, Occupancy> || std::is_same_v<T, Heartbeat>) {
          last_board_ms_ = m.board_ms;
          last_board_host_ms_ = now;
          on_occupancy(m.mask, m.board_ms, std::is_same_v<T, Heartbeat>, now, out);
        } else if constexpr (std::is_same_v<T, Change>) {
          last_board_ms_ = m.board_ms;
          last_board_host_ms_ = now;
          if (raw_) {
            if (session_synced_) debouncer_.edge(m.square, m.occupied, m.board_ms);
          } else {
            std::vector<TrackedChange> changes;
            tracker_.change(m.square, m.occupied, now, changes);
            emit(changes, out);
          }
        } else if constexpr (std::is_same_v<T, ButtonPress>) {
          // Stamped on arrival, like a debounced board's hole changes.
          out.push_back(ButtonOutput{board::ButtonEvent{now, game_button(m.button)}});
        } else if constexpr (std::is_same_v<T, Nak>) {
          if (m.reason != NakReason::CannotResend) {  // that one is handled on arrival
            warn(now,
                 "serial board rejected our frame " + seq_text(m.seq) + " (reason " +
                     std::to_string(int(m.reason)) + ")",
                 out);
          }
        } else {
          warn(now,
               "serial board sent an unexpected frame (type " + std::to_string(int(frame.type)) +
                   ")",
               out);
        }
      },
      *msg);
  settle(now, out);
}

void SerialBoard::step(std::int64_t now, std::vector<SerialOutput>& out) {
  if (state_ == State::Closed && now >= next_attempt_ms_) try_connect(now, out);
  if (port_ && port_->pending()) {
    std::string why;
    if (!port_->flush(why)) lose(now, why, out);
  }
  if (port_) {
    std::vector<std::uint8_t> bytes;
    std::string why;
    bool alive = port_->read_available(bytes, why);
    std::vector<Decoded> frames;
    decoder_.feed(bytes, frames);
    for (const Decoded& d : frames) {
      if (!port_) break;
      if (d.error != FrameError::None) {
        warn(now,
             "serial board: malformed frame dropped: " + std::string(frame_error_name(d.error)) +
                 " (" + std::to_string(d.bytes) + " bytes)",
             out);
        // It may have been a change: ask for everything from the first frame not handled.
        if (state_ == State::Connected) ask_resend(now, out);
        continue;
      }
      handle(d.frame, now, out);
    }
    if (!alive && port_) lose(now, why, out);
  }
  if (state_ == State::Handshake && now >= handshake_deadline_) {
    lose(now, "no hello from the board within " + std::to_string(config_.handshake_ms) + " ms",
         out);
  } else if (state_ == State::Connected) {
    if (now - last_frame_ms_ >= std::int64_t(config_.missed_heartbeats) * heartbeat_ms_) {
      lose(now, "no heartbeat for " + std::to_string(now - last_frame_ms_) + " ms", out);
    } else if (sequencer_.waiting() && now - resend_asked_ms_ >= config_.occupancy_retry_ms) {
      fall_back(now, out);
    } else if (tracker_.awaiting() && !raw_ &&
               now - occupancy_asked_ms_ >= config_.occupancy_retry_ms) {
      request_occupancy(now, out);
    } else {
      settle(now, out);
    }
  }
}

void SerialBoard::set_leds(std::uint64_t on, std::uint64_t blink, std::int64_t now,
                           std::vector<SerialOutput>& out) {
  leds_on_ = on;
  leds_blink_ = blink & on;
  if (state_ == State::Connected) send(SetLeds{leds_on_, leds_blink_}, now, out);
}

void SerialBoard::beep(std::uint16_t hz, std::uint16_t ms, std::int64_t now,
                       std::vector<SerialOutput>& out) {
  if (state_ == State::Connected) send(Beep{hz, ms}, now, out);
}

}  // namespace tactile::serial
