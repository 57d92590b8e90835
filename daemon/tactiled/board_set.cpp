// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/board_set.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "core/chess/uci.h"
#include "core/game/board_letter.h"
#include "core/game/seatings.h"
#include "core/record/messages.h"
#include "core/record/move_phrase.h"
#include "daemon/tactiled/board_loan.h"
#include "daemon/tactiled/board_transport.h"
#include "daemon/tactiled/journal.h"

namespace tactile::daemon {
namespace {

game::LogEntry status_entry(const board::BoardStatus& s) {
  game::LogEntry j;
  j["t"] = s.ms;
  j["type"] = "board";
  j["status"] = s.status == board::LinkStatus::Found  ? "found"
                : s.status == board::LinkStatus::Lost ? "lost"
                                                      : "warning";
  j["message"] = s.message;
  return j;
}

}  // namespace

// A board's driver opened from its setup; `expected`: the holes the game expects there.
std::unique_ptr<BoardLink> open_board(const BoardSetup& setup, int board, bool needs_buttons,
                                      std::int64_t origin_us, chess::Bitboard expected) {
  return open_board_link(setup, {.board = board,
                                 .origin_us = origin_us,
                                 .expected = expected,
                                 .needs_buttons = needs_buttons});
}

std::string driver_name(const BoardSetup& setup, const std::string& serial_status) {
  return board_driver_name(setup, serial_status);
}

// Two boards: everything a link reports is its board's (0 = A, 1 = B).
class BoardSet::Sink : public BoardLink::Sink {
 public:
  Sink(BoardSet& boards, int board) : boards_(boards), board_(board) {}
  void hole(const board::HoleEvent& e, bool resync) override { boards_.hole(board_, e, resync); }
  void button(const board::ButtonEvent& e) override { boards_.owner_.button(board_, e); }
  void status(const board::BoardStatus& s) override { boards_.status(board_, s); }

 private:
  BoardSet& boards_;
  int board_;
};

BoardSet::BoardSet(const LiveConfig& config, std::int64_t origin_us, GameRunner& runner,
                   Owner& owner, std::ostream& journal)
    : config_(config),
      origin_us_(origin_us),
      runner_(runner),
      owner_(owner),
      journal_(journal),
      self_tests_(config.self_test_log) {}

BoardSet::~BoardSet() = default;

void BoardSet::open(const std::function<chess::Bitboard(int board)>& expected) {
  const bool needs_buttons = config_.session.recognizer.completion == board::Completion::Button;
  for (int b = 0; b < (config_.board_b ? 2 : 1); ++b) {
    const BoardSetup& setup = b == 0 ? config_ : *config_.board_b;
    // Opened again the same way after it was lent to the self-test.
    links_.push_back(std::make_unique<LendableLink>(
        open_board(setup, b, needs_buttons, origin_us_, expected(b)),
        [this, &setup, b, needs_buttons](chess::Bitboard now_expected) {
          return open_board(setup, b, needs_buttons, origin_us_, now_expected);
        }));
    sinks_.push_back(std::make_unique<Sink>(*this, b));
    health_.emplace_back(config_.health_suspect_ms);
  }
}

std::int64_t BoardSet::report_delay_ms() const {
  std::int64_t delay = 0;
  for (const auto& link : links_) delay = std::max(delay, link->report_delay_ms());
  return delay;
}

void BoardSet::add_fds(std::vector<pollfd>& fds) const {
  for (const auto& link : links_)
    if (link->fd() >= 0) fds.push_back({link->fd(), link->poll_events(), 0});
}

std::int64_t BoardSet::timeout_ms(std::int64_t now) const {
  std::int64_t wait = -1;
  auto sooner = [&](std::int64_t ms) { wait = wait < 0 ? ms : std::min(wait, ms); };
  for (const auto& link : links_)
    if (const std::int64_t board = link->timeout_ms(now); board >= 0) sooner(board);
  if (health_pending_) sooner(std::max<std::int64_t>(0, next_health_ms_ - now));
  return wait;
}

void BoardSet::step(std::int64_t now) {
  for (std::size_t b = 0; b < links_.size(); ++b) links_[b]->step(now, *sinks_[b]);
}

void BoardSet::hole(int board, const board::HoleEvent& found, bool resync) {
  health_[std::size_t(board)].hole(found.square);
  if (owner_.waiting()) return;  // no game yet
  board::HoleEvent e = found;
  e.resync = resync;  // judged as one simultaneous change with its neighbours
  if (resync) {
    // Found by comparing the whole board after a reconnect, not reported as it happened.
    game::LogEntry j;
    j["t"] = e.ms;
    j["type"] = "resync";
    j["square"] = chess::square_name(e.square);
    if (board_b_open()) j["board"] = game::board_letter(board);
    runner_.note(j);
  }
  runner_.hole(board, e);
}

void BoardSet::status(int board, const board::BoardStatus& s) {
  if (s.status != board::LinkStatus::Warning)
    board_status_[board] = s.status == board::LinkStatus::Found ? "found" : "lost";
  board::BoardStatus at = s;
  // Not past the time a hole event may still come in stamped (the report delay).
  at.ms = std::max(s.ms - links_[std::size_t(board)]->report_delay_ms(), runner_.last_ms());
  game::LogEntry j = status_entry(at);
  if (board_b_open()) j["board"] = game::board_letter(board);
  runner_.note(j);
  journal_ << time_label(at.ms) << "  " << board_column(config_.session.seating, board)
           << "board        " << s.message << std::endl;
  // Said on that board: its player is the one who must know (the other board plays on).
  const record::Language language = game::board_language(config_.session, board);
  if (s.status == board::LinkStatus::Found)
    say(board, at.ms, std::string(record::message_text(record::Message::BoardFound, language)));
  else if (s.status == board::LinkStatus::Lost)
    say(board, at.ms, std::string(record::message_text(record::Message::BoardLost, language)));
}

void BoardSet::say(int board, std::int64_t ms, std::string text) {
  runner_.say(ms, std::move(text), board);
}

bool BoardSet::player_clock_runs(int board) const {
  const game::Session& s = runner_.session();
  if (!s.clock_started() || s.over() || s.paused() || s.adjourned()) return false;
  // A board still to reproduce the opponent's move, or in discrepancy, differs for a
  // reason of its own, with its own alarm (D.2.9): no sign of a broken switch.
  if (s.to_reproduce(board) || s.discrepancy(board) != 0) return false;
  if (!s.clock()) return true;
  if (!s.clock()->running_any()) return false;
  return !board_b_open() || s.clock()->running() == s.owner(board);
}

chess::Bitboard BoardSet::holes_differing(int board) const {
  const board::Recognizer& r = runner_.session().recognizer(board);
  return r.occupancy() ^ r.position().occupied();
}

void BoardSet::watch_health(std::int64_t t) {
  // Four times a second is enough for a minute's limit, and keeps the idle wake-ups of a
  // GPIO board (docs/gpio.md, "Measured") free of it.
  if (t < next_health_ms_) return;
  next_health_ms_ = t + kHealthEveryMs;
  health_pending_ = false;
  for (std::size_t b = 0; b < links_.size(); ++b) {
    if (!links_[b]->reading()) continue;  // lent: what it does is the self-test's
    const LinkHealth h = links_[b]->health();
    HoleHealth& health = health_[b];
    health.link(h.chatter, h.last_read_ms, h.reads, h.reads_itself, t);
    if (owner_.waiting()) continue;
    const chess::Bitboard differing = holes_differing(int(b));
    const chess::Bitboard became = health.watch(differing, player_clock_runs(int(b)), t);
    // A hole that differs and is not suspect yet may become so without any event.
    if (differing & ~health.suspect()) health_pending_ = true;
    if (!health.take_log_news(t)) continue;
    game::LogEntry j = health.to_json();
    j["t"] = runner_.last_ms();
    j["type"] = "health";
    j["board"] = game::board_letter(int(b));
    runner_.note(j);
    const chess::Bitboard say_now = became & ~spoken_[b];
    if (say_now == 0) continue;
    spoken_[b] |= say_now;  // once per hole and game: the player is not nagged
    const record::Language language = game::board_language(config_.session, int(b));
    std::string text(record::message_text(record::Message::CheckHole, language));
    for (chess::Bitboard rest = say_now; rest != 0; rest &= rest - 1)
      text += (rest == say_now ? " " : ", ") +
              record::square_words(chess::Square(std::countr_zero(rest)), language,
                                   game::board_squares(config_.session, int(b)));
    say(int(b), runner_.last_ms(), text);
  }
}

void BoardSet::new_game() {
  for (HoleHealth& h : health_) h.new_game();
  spoken_[0] = spoken_[1] = 0;
}

nlohmann::json BoardSet::lend(const nlohmann::json& r, uid_t borrower,
                              std::function<void()>& on_release, std::int64_t t) {
  const std::string name = r.contains("board") && r["board"].is_string()
                               ? r["board"].get<std::string>()
                               : std::string("(none)");
  const int board = name == "A" ? 0 : name == "B" ? 1 : -1;
  if (board < 0) return {{"ok", false}, {"error", "board: '" + name + "' is not A or B"}};
  if (std::size_t(board) >= links_.size())
    return {{"ok", false},
            {"error", "board: this seating (" + std::string(config_.session.seating->name()) +
                          ") has no board B"}};
  LendableLink& link = *links_[std::size_t(board)];
  if (link.lent())
    return {{"ok", false},
            {"error", "board " + name + " is lent already (uid " +
                          std::to_string(lent_to_[std::size_t(board)].value_or(0)) + ")"}};
  // The borrower opens the board from its own config: lent only if that is where this
  // tactiled reads it (another config would open another board, or none).
  const std::string source = board_source(board == 0 ? config_ : *config_.board_b);
  if (r.contains("source") && r["source"].is_string() && r["source"] != source)
    return {{"ok", false},
            {"error", "board " + name + " is read from " + source + ", not from " +
                          r["source"].get<std::string>() +
                          ": give the self-test tactiled's own config (--config)"}};
  if (const std::string why = link.why_not_lendable(); !why.empty())
    return {{"ok", false}, {"error", "board " + name + " cannot be lent: " + why}};
  const bool waiting = owner_.waiting();
  if (!waiting)
    if (const std::string why = why_no_loan(runner_.session()); !why.empty())
      return {{"ok", false}, {"error", why}};
  link.lend();
  lent_to_[std::size_t(board)] = borrower;
  if (!waiting) runner_.note(board_lent_entry(t, board, borrower));
  journal_ << time_label(t) << "  arbiter      board " << name << " lent to the self-test (uid "
           << borrower << ")" << std::endl;
  on_release = [this, board] { take_back(board); };
  return {{"ok", true}, {"lent", name}, {"source", source}};
}

void BoardSet::take_back(int board) {
  const std::int64_t t = std::max(owner_.now(), runner_.last_ms());
  runner_.advance(t);
  const bool waiting = owner_.waiting();
  const chess::Bitboard expected =
      waiting ? config_.session.start.occupied() : runner_.session().recognizer(board).occupancy();
  if (!waiting) runner_.note(board_returned_entry(t, board));
  lent_to_[std::size_t(board)].reset();
  board_status_[board] = "not found yet";  // a serial board is looked for again
  links_[std::size_t(board)]->take_back(expected);
  journal_ << time_label(t) << "  arbiter      board " << game::board_letter(board)
           << " returned by the self-test: read anew" << std::endl;
}

nlohmann::json BoardSet::lent() const {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t b = 0; b < links_.size(); ++b) j[game::board_letter(int(b))] = links_[b]->lent();
  return j;
}

bool BoardSet::any_lent() const {
  return std::any_of(links_.begin(), links_.end(), [](const auto& l) { return l->lent(); });
}

std::string BoardSet::lent_note() const {
  std::string note;
  for (std::size_t b = 0; b < links_.size(); ++b)
    if (links_[b]->lent())
      note += std::string("; board ") + game::board_letter(int(b)) + " is lent to the self-test";
  return note;
}

void BoardSet::describe(GameFiles& f) const {
  f.board_lent = lent();
  f.board = driver_name(config_, board_status_[0]);
  if (config_.board_b)
    f.board = "A: " + f.board + "; B: " + driver_name(*config_.board_b, board_status_[1]);
  for (std::size_t b = 0; b < health_.size(); ++b) {
    const char* board = game::board_letter(int(b));
    f.health[board] = health_[b].to_json();
    f.health[board]["self_test"] = self_tests_.last(board);  // tactilectl self-test's
  }
}

}  // namespace tactile::daemon
