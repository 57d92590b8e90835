// SPDX-License-Identifier: GPL-3.0-or-later
// board = dgt: a DGT e-board read over its serial line (DGT's board protocol, docs/dgt.md,
// "A DGT board as a board"), and its entry in the table of board transports. The board
// knows every piece: its full dump (0x42, on opening it and after every reconnect) and its
// field updates (0x44 update mode) are turned into the hole events every board gives (a
// square emptied, a square filled), and a pawn that becomes a piece on the last rank into
// the promotion button of that piece, so the game reads its moves as it reads any board's:
// the legal move the changes show. A clock's messages, if a clock is attached, are
// ignored (the game runs its own FIDE clock). Unplugged, the board is lost and opened again
// with a growing pause; its dump then says what changed while it was away (resync events).
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <any>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "core/board/recognizer.h"
#include "core/chess/uci.h"
#include "core/dgt/command_reader.h"
#include "core/dgt/message_reader.h"
#include "core/dgt/messages.h"
#include "daemon/tactiled/board_link.h"
#include "daemon/tactiled/board_transport.h"

namespace tactile::daemon {
namespace {

// What board = dgt reads of its keys (BoardSetup::transport_settings).
struct DgtBoardSettings {
  std::string device;  // dgt-device: the board's serial device
};

constexpr std::int64_t kFirstRetryMs = 250;  // the pause before opening it again, doubled
constexpr std::int64_t kLastRetryMs = 4000;  // ... up to this
constexpr std::int64_t kDumpWaitMs = 2000;   // a dump asked for and not come: asked again

class DgtLink : public BoardLink {
 public:
  DgtLink(std::string device, chess::Bitboard expected)
      : device_(std::move(device)), holes_(expected) {}
  ~DgtLink() override { close_board(); }

  int fd() const override { return fd_; }
  std::int64_t timeout_ms(std::int64_t now) const override {
    if (fd_ < 0) return std::max<std::int64_t>(0, next_open_ms_ - now);
    if (awaiting_dump_) return std::max<std::int64_t>(0, dump_asked_ms_ + kDumpWaitMs - now);
    return -1;
  }
  // The board scans its squares and sends at 9600 baud: a change is here within tens of ms.
  std::int64_t report_delay_ms() const override { return 50; }
  LinkHealth health() const override {
    LinkHealth h;
    h.last_read_ms = last_read_ms_;
    h.reads = reads_;
    h.reads_itself = true;
    return h;
  }

  void step(std::int64_t now, Sink& sink) override {
    if (fd_ < 0) {
      if (now < next_open_ms_ || !open_board(now, sink)) return;
    }
    std::uint8_t buf[512];
    for (;;) {
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n > 0) {
        std::vector<dgt::BoardMessage> messages;
        std::vector<std::string> errors;
        reader_.feed(std::span(buf, std::size_t(n)), messages, errors);
        for (const std::string& e : errors) warn(now, "DGT board: " + e, sink);
        for (const dgt::BoardMessage& m : messages) take(m, now, sink);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      lose(now, n == 0 ? "the device closed" : std::strerror(errno), sink);
      return;
    }
    if (awaiting_dump_ && now >= dump_asked_ms_ + kDumpWaitMs) ask_dump(now, sink);
  }

  void clock_switched(std::int64_t) override {}  // the game's clock is tactiled's own
  void alarm(std::int64_t) override {}           // a DGT board has no beeper
  void light(chess::Bitboard, std::int64_t) override {}

 private:
  // Opens the device raw at 9600 8N1 and asks for the board, then its updates.
  bool open_board(std::int64_t now, Sink& sink) {
    fd_ = ::open(device_.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    termios t{};
    if (fd_ >= 0 && ::tcgetattr(fd_, &t) == 0) {
      ::cfmakeraw(&t);
      ::cfsetispeed(&t, B9600);
      ::cfsetospeed(&t, B9600);
      t.c_cflag |= CLOCAL | CREAD;
      t.c_cflag &= ~tcflag_t(CSTOPB | CRTSCTS);
      ::tcsetattr(fd_, TCSANOW, &t);
    } else if (fd_ >= 0) {
      lose(now, std::string(device_) + " is not a serial device", sink);
      return false;
    }
    if (fd_ < 0) {
      lose(now, device_ + ": " + std::strerror(errno), sink);
      return false;
    }
    reader_.reset();
    send(dgt::kReset, now, sink);
    ask_dump(now, sink);
    if (fd_ >= 0) send(dgt::kUpdateBoard, now, sink);
    return fd_ >= 0;
  }

  void ask_dump(std::int64_t now, Sink& sink) {
    awaiting_dump_ = true;
    dump_asked_ms_ = now;
    send(dgt::kSendBoard, now, sink);
  }

  void send(std::uint8_t command, std::int64_t now, Sink& sink) {
    if (fd_ < 0) return;
    if (::write(fd_, &command, 1) != 1 && errno != EAGAIN)
      lose(now, std::string("writing: ") + std::strerror(errno), sink);
  }

  void take(const dgt::BoardMessage& m, std::int64_t now, Sink& sink) {
    ++reads_;
    last_read_ms_ = now;
    dgt::Fields dump;
    std::vector<dgt::OddPiece> odd;
    std::uint8_t field = 0, code = 0, odd_code = 0;
    if (dgt::read_dump(m, dump, odd)) {
      for (const dgt::OddPiece& p : odd) warn_odd(p, now, sink);
      reconcile(dump, now, sink);
    } else if (dgt::read_field_update(m, field, code, odd_code)) {
      if (odd_code) warn_odd({field, odd_code}, now, sink);
      if (!awaiting_dump_) update(field, code, now, sink);  // the dump to come holds it
    } else if (m.id == dgt::kMsgBoardDump || m.id == dgt::kMsgFieldUpdate) {
      warn(now, "DGT board: malformed message " + dgt::hex_byte(m.id) + ": ignored", sink);
    }
    // Anything else (a clock's 0x8d, a serial number...) is not the board's squares.
  }

  // A full dump: found (after opening), the holes that differ from those the game was
  // told of as resync events (lifts first).
  void reconcile(const dgt::Fields& dump, std::int64_t now, Sink& sink) {
    chess::Bitboard occupied = 0;
    for (std::uint8_t f = 0; f < 64; ++f)
      if (dump[f]) occupied |= chess::square_bb(dgt::square_of_field(f));
    const bool first = awaiting_dump_ && !found_;
    awaiting_dump_ = false;
    if (first) {
      found_ = true;
      retry_ms_ = kFirstRetryMs;
      last_error_.clear();
      sink.status({now, board::LinkStatus::Found, "DGT board found on " + device_, occupied});
    }
    const chess::Bitboard differs = occupied ^ holes_;
    for (const board::Hole change : {board::Hole::Up, board::Hole::Down})
      for (int s = 0; s < 64; ++s) {
        const chess::Bitboard b = chess::square_bb(chess::Square(s));
        if (!(differs & b) || ((occupied & b) != 0) != (change == board::Hole::Down)) continue;
        sink.hole({now, chess::Square(s), change, true}, true);
      }
    holes_ = occupied;
    fields_ = dump;
    pawn_lifted_ = 0;  // what a hand held before the dump is not known
  }

  // One field's new code: a square emptied or filled is a hole event; a pawn lifted and a
  // piece of its colour put on its last rank, the promotion to that piece.
  void update(std::uint8_t field, std::uint8_t code, std::int64_t now, Sink& sink) {
    const std::uint8_t before = fields_[field];
    fields_[field] = code;
    const chess::Square s = dgt::square_of_field(field);
    const chess::Bitboard b = chess::square_bb(s);
    // A pawn lifted from the rank before its last is in the hand until a pawn is put down
    // again, whatever else is lifted meanwhile (a capture-promotion may lift the pawn
    // first, then the piece it takes).
    if (code == 0 &&
        ((before == 1 && field >= 8 && field < 16) || (before == 7 && field >= 48 && field < 56)))
      pawn_lifted_ = before;
    if (code == 1 || code == 7) pawn_lifted_ = 0;
    if (((holes_ & b) != 0) == (code != 0)) return;  // the same occupancy: no hole changed
    holes_ ^= b;
    const bool white_promotes =
        code && pawn_lifted_ == 1 && field < 8 && code >= 2 && code <= 6 && code != 5;
    const bool black_promotes =
        code && pawn_lifted_ == 7 && field >= 56 && code >= 8 && code <= 12 && code != 11;
    if (white_promotes || black_promotes) {
      // The piece is named before it is down: a board reproducing the opponent's promotion
      // takes the press as part of it, before the hole completes the reproduction.
      pawn_lifted_ = 0;
      const int type = code > 6 ? code - 6 : code;  // 2 R, 3 N, 4 B, 6 Q
      sink.button({now, type == 2   ? board::Button::PromoteRook
                        : type == 3 ? board::Button::PromoteKnight
                        : type == 4 ? board::Button::PromoteBishop
                                    : board::Button::PromoteQueen});
    }
    sink.hole({now, s, code ? board::Hole::Down : board::Hole::Up, false}, false);
  }

  // The board closed or could not be opened: lost (once found), opened again later.
  void lose(std::int64_t now, const std::string& why, Sink& sink) {
    close_board();
    next_open_ms_ = now + retry_ms_;
    retry_ms_ = std::min(retry_ms_ * 2, kLastRetryMs);
    if (found_) {
      found_ = false;
      sink.status({now, board::LinkStatus::Lost, "DGT board lost: " + why, 0});
    } else if (why != last_error_) {
      warn(now, "DGT board: " + why, sink);  // said once, not at every try
    }
    last_error_ = why;
  }

  void close_board() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    awaiting_dump_ = false;
  }

  // A piece that is no chess piece (codes 13-15, the protocol's "magic pieces") stands on
  // a square: read as empty, said (a host of a real board takes the message as well formed).
  static void warn_odd(const dgt::OddPiece& p, std::int64_t now, Sink& sink) {
    warn(now,
         "DGT board: code " + std::to_string(p.code) + " (no chess piece) on " +
             chess::square_name(dgt::square_of_field(p.field)) + ": read as empty",
         sink);
  }

  static void warn(std::int64_t now, std::string message, Sink& sink) {
    sink.status({now, board::LinkStatus::Warning, std::move(message), 0});
  }

  std::string device_;
  int fd_ = -1;
  dgt::DgtMessageReader reader_;
  chess::Bitboard holes_;         // the holes as the game was told of them
  dgt::Fields fields_{};          // the pieces as the board last said
  std::uint8_t pawn_lifted_ = 0;  // 1 or 7: a pawn in the hand that may promote
  bool found_ = false;
  bool awaiting_dump_ = false;
  std::int64_t dump_asked_ms_ = 0;
  std::int64_t next_open_ms_ = 0;
  std::int64_t retry_ms_ = kFirstRetryMs;
  std::string last_error_;
  std::int64_t last_read_ms_ = -1;
  std::uint64_t reads_ = 0;
};

constexpr TransportKey kDgtKeys[] = {
    {"dgt-device", "a DGT e-board's serial device (docs/dgt.md)",
     "board-b = dgt: board B's DGT e-board's serial device",
     "PATH (the DGT board's serial device, docs/dgt.md)", "", true},
};

const DgtBoardSettings& settings_of(const BoardSetup& c) {
  return transport_settings<DgtBoardSettings>(c);
}

void read_dgt(const BoardSettings& settings, BoardSetup& c) {
  const Setting& device = *settings.find("dgt-device");
  if (device.value.empty())
    settings.fail(device, "dgt-device", "is empty: give the DGT board's serial device");
  transport_settings<DgtBoardSettings>(c).device = device.value;
}

std::string dgt_source(const BoardSetup& c) {
  return "dgt" + absolute_source_path(settings_of(c).device);
}

std::unique_ptr<BoardLink> open_dgt(const BoardSetup& c, const LinkRequest& r) {
  return std::make_unique<DgtLink>(settings_of(c).device, r.expected);
}

void identify_dgt(const BoardSetup& c, const std::string&, nlohmann::json& identity) {
  identity["dgt_device"] = settings_of(c).device;
}

// A DGT board's only presses are the promotions its pieces name; its clock's buttons are
// not read (the game runs tactiled's own clock).
std::string dgt_button_fault(const BoardSetup&, board::Button button) {
  chess::PieceType piece{};
  if (board::promotion_of(button, piece)) return {};
  if (button == board::Button::Announce)
    return "a DGT board has no announce button, which completes a move in button mode: "
           "use completion = auto";
  if (button == board::Button::named("clock"))
    return "a DGT board has no clock button (a DGT clock's buttons are not read): the "
           "sighted opponent's DGT board is board B of a game on two boards (board-b = dgt)";
  return "a DGT board has no such button";
}

constexpr std::string_view kDgtManual =
    "        dgt-device = PATH               board = dgt: a DGT e-board's serial device\n"
    "                                        (docs/dgt.md), read with its pieces\n";

}  // namespace

extern const BoardTransport kDgtTransport{
    .name = "dgt",
    .keys = kDgtKeys,
    .finds_board = true,
    .buttons_unknown = true,
    .read = read_dgt,
    .source = dgt_source,
    .open = open_dgt,
    .identify = identify_dgt,
    .manual = kDgtManual,
    .button_fault = dgt_button_fault,
};

}  // namespace tactile::daemon
