// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/replay/game_script.h"
#include "core/game/sighted.h"

#include <algorithm>
#include <bit>

#include "core/chess/game_state.h"

namespace tactile::testing {
namespace {
using chess::Bitboard;
using chess::Move;
using chess::Position;
using chess::Square;
using chess::square_bb;

// One peg the hand deals with in a move: lifted from `from`, inserted into `to`
// (NoSquare: a captured piece, put aside).
struct Peg {
  Square from = chess::NoSquare;
  Square to = chess::NoSquare;
  bool lifted = false;
  bool placed = false;
};

class Writer {
 public:
  Writer(std::uint32_t seed, const ScriptStyle& style, const SeatedStyle& seated = {})
      : rng_(seed), style_(style), seated_(seated) {}

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(int percent) { return pick(100) < percent; }
  // Within a move: always below the settle time. After at_once(), the next event comes
  // with no pause.
  void pause() {
    if (at_once_) {
      at_once_ = false;
      return;
    }
    ms_ += 80 + pick(520);
  }
  void at_once() { at_once_ = true; }
  void wait(std::int64_t ms) { ms_ += ms; }
  // Seated scripts: the next events go to `board`, from `ms` on (sorted at the end).
  void at(int board, std::int64_t ms) {
    board_ = board;
    ms_ = ms;
  }

  void hole(Square s, board::Hole change) {
    pause();
    script::ScriptEvent e;
    e.ms = ms_;
    e.board = board_;
    e.kind = script::ScriptEvent::Kind::Hole;
    e.hole = board::HoleEvent{ms_, s, change};
    events_.push_back(e);
  }
  void press(board::Button b) {
    pause();
    script::ScriptEvent e;
    e.ms = ms_;
    e.board = board_;
    e.kind = script::ScriptEvent::Kind::Button;
    e.button = board::ButtonEvent{ms_, b};
    events_.push_back(e);
  }
  void adjust(Square s) {
    hole(s, board::Hole::Up);
    hole(s, board::Hole::Down);
  }
  Square random_square_of(Bitboard b) {
    const int n = std::popcount(b);
    int k = pick(n);
    for (; b; b &= b - 1)
      if (k-- == 0) return Square(std::countr_zero(b));
    return chess::NoSquare;
  }

  // Moves the events from `index` on by `delta` ms (and the pen with them).
  void shift_since(std::size_t index, std::int64_t delta) {
    for (std::size_t i = index; i < events_.size(); ++i) {
      events_[i].ms += delta;
      events_[i].hole.ms += delta;
      events_[i].button.ms += delta;
    }
    ms_ += delta;
  }
  std::vector<script::ScriptEvent>& events() { return events_; }
  const ScriptStyle& style() const { return style_; }
  const SeatedStyle& seated() const { return seated_; }
  std::int64_t now() const { return ms_; }

 private:
  std::mt19937 rng_;
  ScriptStyle style_;
  SeatedStyle seated_;
  std::int64_t ms_ = 0;
  int board_ = 0;
  bool at_once_ = false;
  std::vector<script::ScriptEvent> events_;
};

// The pegs of a move, worked out from the rules: which piece travels where, what is
// captured. Castling (king takes own rook internally) moves the king and the rook to
// their castling squares; a piece already there stays and is only lifted (by choice).
std::vector<Peg> pegs_of(const Position& pos, Move m, Writer& w) {
  std::vector<Peg> pegs;
  const Square from = m.from(), to = m.to();
  if (m.kind() == Move::Castling) {
    const chess::Color us = pos.side_to_move();
    const auto side =
        chess::file_of(to) > chess::file_of(from) ? chess::KingSide : chess::QueenSide;
    const Square king_to = Position::castle_king_to(us, side);
    const Square rook_to = Position::castle_rook_to(us, side);
    // The Chess960 recommendation (king off first) is one of the random orders; a piece
    // that does not travel is sometimes lifted and put back all the same.
    if (from != king_to || w.chance(60)) pegs.push_back({from, king_to});
    if (to != rook_to || w.chance(50)) pegs.push_back({to, rook_to});
    return pegs;
  }
  if (m.kind() == Move::EnPassant) {
    pegs.push_back({chess::make_square(chess::file_of(to), chess::rank_of(from)), chess::NoSquare});
  } else if (pos.piece_on(to) != chess::NoPiece) {
    pegs.push_back({to, chess::NoSquare});
  }
  pegs.push_back({from, to});
  return pegs;
}

// Lifts and inserts the pegs in a random order a hand can do.
void play_pegs(std::vector<Peg> pegs, Bitboard occupied, Writer& w, int press_at,
               board::Button promote) {
  int step = 0;
  for (;;) {
    if (step++ == press_at) w.press(promote);
    struct Action {
      int peg;
      bool lift;
    };
    Action actions[8];
    int n = 0;
    for (int i = 0; i < int(pegs.size()); ++i) {
      const Peg& p = pegs[i];
      if (!p.lifted && (occupied & square_bb(p.from))) actions[n++] = {i, true};
      if (p.lifted && !p.placed && p.to != chess::NoSquare && !(occupied & square_bb(p.to)))
        actions[n++] = {i, false};
    }
    if (n == 0) break;
    const Action a = actions[w.pick(n)];
    Peg& p = pegs[a.peg];
    if (a.lift) {
      p.lifted = true;
      occupied &= ~square_bb(p.from);
      w.hole(p.from, board::Hole::Up);
    } else {
      p.placed = true;
      occupied |= square_bb(p.to);
      w.hole(p.to, board::Hole::Down);
    }
  }
  if (step <= press_at) w.press(promote);
}

// A plain king move onto the square where the king would castle, with that castling a
// legal move of the position (the player could still be castling).
bool king_on_castling_square(const Position& pos, Move m) {
  const chess::Color us = pos.side_to_move();
  if (m.kind() != Move::Normal || m.from() != pos.king_square(us)) return false;
  chess::MoveList legal;
  chess::generate_legal(pos, legal);
  for (const chess::CastleSide side : {chess::KingSide, chess::QueenSide}) {
    const Square rook = pos.castling_rook(us, side);
    if (rook != chess::NoSquare && m.to() == Position::castle_king_to(us, side) &&
        legal.contains(Move::make(m.from(), rook, Move::Castling)))
      return true;
  }
  return false;
}

board::Button promote_button(chess::PieceType t) {
  switch (t) {
    case chess::Rook:
      return board::Button::PromoteRook;
    case chess::Bishop:
      return board::Button::PromoteBishop;
    case chess::Knight:
      return board::Button::PromoteKnight;
    default:
      return board::Button::PromoteQueen;
  }
}

// What the hand did for a move: when (the index of) its first event, its first lift of a
// piece of the move (what an opponent watching his board sees first of it), its last hole
// event, the index of its completion (the announce press, or the end in auto mode) and
// when the move is made (the announce press; auto mode: when the board has been still for
// the settle time).
struct MoveTimes {
  std::size_t first = 0;
  std::int64_t first_lift = 0;
  std::int64_t last_hole = 0;
  std::size_t completion = 0;
  std::int64_t made = 0;
};

// The mover's hand makes `m` on the board and completes it as the style wants.
// `seated`: in auto mode, a promotion always names its piece by its button (the spoken
// default queen is a question, and when it is heard is the replay's matter).
MoveTimes make_move(const Position& pos, Move m, Writer& w, bool seated = false) {
  MoveTimes t;
  t.first = w.events().size();
  const ScriptStyle& style = w.style();
  {
    const chess::Color us = pos.side_to_move();
    std::vector<Peg> pegs = pegs_of(pos, m, w);
    Bitboard moving = square_bb(m.from());
    if (m.kind() == Move::Castling) moving |= square_bb(m.to());

    if (style.noise && w.chance(15))  // an opponent's piece straightened
      w.adjust(w.random_square_of(pos.pieces(~us)));
    if (style.noise && w.chance(4)) {  // an own piece touched and left: touch-move, recorded
      const Bitboard others = pos.pieces(us) & ~moving;
      if (others) w.adjust(w.random_square_of(others));
    }

    // Promotion: the button at any moment of the move, or (queen only) not at all.
    int press_at = -1;
    bool default_queen = false;
    if (m.kind() == Move::Promotion) {
      const bool may_default = !(seated && style.completion == board::Completion::Auto);
      if (m.promotion() == chess::Queen && may_default && w.chance(50)) {
        default_queen = true;
      } else {
        press_at = w.pick(int(pegs.size()) * 2 + 1);
      }
    }
    const std::size_t lifts = w.events().size();
    play_pegs(pegs, pos.occupied(), w, press_at, promote_button(m.promotion()));
    for (std::size_t i = lifts; i < w.events().size(); ++i)
      if (w.events()[i].kind == script::ScriptEvent::Kind::Hole) {
        t.first_lift = w.events()[i].ms;
        break;
      }

    if (style.noise && w.chance(15)) {  // the moved piece straightened in its new hole
      const Peg& last = pegs.back();
      w.adjust(last.to);
    }
    t.last_hole = w.now();
    t.completion = w.events().size();

    if (style.completion == board::Completion::Button) {
      w.press(board::Button::Announce);
      if (default_queen) w.press(board::Button::Announce);  // "... Dame": confirmed
      t.made = w.now();
      if (style.noise && w.chance(5)) w.press(board::Button::Time);
    } else {
      // Still for the settle time, then on. The spoken default queen is a question: the
      // hand listens to its end (well under kLongestQuestionMs) and then stays still for
      // the settle time again.
      // A king put on the square where it would castle, with that castling legal, is read
      // as a castling under way: the hand waits the longer stillness that says it is not.
      const std::int64_t still = king_on_castling_square(pos, m)
                                     ? board::kCastlingWaitSettles * style.settle_ms
                                     : style.settle_ms;
      w.wait(still);
      t.made = w.now();
      if (default_queen) w.wait(kLongestQuestionMs + style.settle_ms);
    }
  }
  return t;
}
}  // namespace

std::vector<script::ScriptEvent> game_to_script(const chess::PgnGame& game, std::uint32_t seed,
                                                const ScriptStyle& style) {
  Writer w(seed, style);
  Position pos = game.start;
  w.wait(500);
  for (const chess::PgnMove& pm : game.moves) {
    make_move(pos, pm.move, w);
    pos.play(pm.move);
  }
  return std::move(w.events());
}

namespace {
// A plain move (no capture, castling, promotion or en passant): the one a wrong hole is
// injected into.
bool plain(const Position& pos, Move m) {
  return m.kind() == Move::Normal && pos.piece_on(m.to()) == chess::NoPiece;
}

// The holes a move changes, from the rules: its from and to squares, the pawn taken en
// passant, and in a castling the king's and the rook's squares before and after.
Bitboard holes_of(const Position& pos, Move m) {
  Bitboard b = square_bb(m.from()) | square_bb(m.to());
  if (m.kind() == Move::EnPassant)
    b |= square_bb(chess::make_square(chess::file_of(m.to()), chess::rank_of(m.from())));
  if (m.kind() == Move::Castling) {
    const chess::Color us = pos.side_to_move();
    const auto side =
        chess::file_of(m.to()) > chess::file_of(m.from()) ? chess::KingSide : chess::QueenSide;
    b |= square_bb(Position::castle_king_to(us, side)) |
         square_bb(Position::castle_rook_to(us, side));
  }
  return b;
}

// The holes of every legal move whose holes strictly contain those of `m` (a rook's or
// king's step that is also part of a castling): a reproduction of `m` could still go on
// into one of them, so a hand that has just finished it and lifts on one of these holes
// must first leave the board still (the settle time; a king on its castling square with
// that castling legal: kCastlingWaitSettles of them). 0 if none.
Bitboard longer_moves_holes(const Position& pos, Move m) {
  const Bitboard mine = holes_of(pos, m);
  chess::MoveList legal;
  chess::generate_legal(pos, legal);
  Bitboard longer = 0;
  for (const Move other : legal) {
    const Bitboard h = holes_of(pos, other);
    if (h != mine && (h & mine) == mine) longer |= h;
  }
  return longer;
}

// Where the moved piece (castling: the king and the rook) lands.
Bitboard landed(const Position& pos, Move m) {
  if (m.kind() != Move::Castling) return square_bb(m.to());
  const chess::Color us = pos.side_to_move();
  const auto side =
      chess::file_of(m.to()) > chess::file_of(m.from()) ? chess::KingSide : chess::QueenSide;
  return square_bb(Position::castle_king_to(us, side)) |
         square_bb(Position::castle_rook_to(us, side));
}

std::int64_t settle_after(const Position& pos, Move m, std::int64_t settle_ms) {
  return king_on_castling_square(pos, m) ? board::kCastlingWaitSettles * settle_ms : settle_ms;
}

// The opponent's move reproduced on `board` from `start` on (the first event a pause
// later), sometimes (`inject`: begun after the move was made) with an injected discrepancy;
// returns the time of its last hole event.
std::int64_t reproduce(const Position& pos, Move m, int board, std::int64_t start, bool inject,
                       Writer& w, SeatedScript& s) {
  w.at(board, start);
  const std::int64_t settle = w.style().settle_ms;
  const bool anywhere = w.seated().wrong_hole_anywhere;
  if (inject && plain(pos, m) && w.chance(anywhere ? 8 : 4)) {
    // A wrong hole: the piece put one hole off and left to settle, then put right.
    const Bitboard empty = ~pos.occupied() & ~square_bb(m.to()) & ~square_bb(m.from());
    // The holes of the moves the reproducing player (on move next) could make.
    Position after = pos;
    after.play(m);
    chess::MoveList legal;
    chess::generate_legal(after, legal);
    Bitboard own = 0;
    for (const Move next : legal) own |= holes_of(after, next);
    // Not one of those (unmistakably a discrepancy), or (anywhere) often one of them.
    Bitboard free = empty & ~own;
    if (anywhere) free = (empty & own) && w.chance(60) ? empty & own : empty;
    if (!free) free = empty;
    if (w.seated().sighted) {
      // The sighted player's move is not known to the tactile board: a piece put into a
      // hole it could legally go to is that move there (it is announced, and putting it
      // right is the arbiter's matter), never a discrepancy. Only other holes are wrong.
      chess::MoveList his;
      chess::generate_legal(pos, his);
      for (const Move other : his)
        if (other.from() == m.from()) free &= ~square_bb(other.to());
      if (!free) {
        play_pegs(pegs_of(pos, m, w), pos.occupied(), w, -1, board::Button::PromoteQueen);
        return w.now();
      }
    }
    const Square wrong = w.random_square_of(free);
    ++s.counts.wrong_holes;
    if (own & square_bb(wrong)) ++s.counts.wrong_own_holes;
    w.hole(m.from(), board::Hole::Up);
    w.hole(wrong, board::Hole::Down);
    s.discrepancies.push_back({board, w.now() + settle, 0, square_bb(wrong)});
    w.wait(settle + 500);
    w.hole(wrong, board::Hole::Up);
    s.resolved.push_back({board, w.now()});
    w.hole(m.to(), board::Hole::Down);
    return w.now();
  }
  if (inject && plain(pos, m) && w.chance(4)) {
    // Half done and left: a reproduction under way is never a discrepancy.
    ++s.counts.half_done;
    w.hole(m.from(), board::Hole::Up);
    w.wait(3 * settle);
    w.hole(m.to(), board::Hole::Down);
    return w.now();
  }
  // An underpromotion: its piece named by the promote button at some moment of it (the
  // sighted player's move is known to the tactile board only from what is done there).
  const std::vector<Peg> pegs = pegs_of(pos, m, w);
  const bool under = m.kind() == Move::Promotion && m.promotion() != chess::Queen;
  play_pegs(pegs, pos.occupied(), w, under ? w.pick(int(pegs.size()) * 2 + 1) : -1,
            promote_button(m.kind() == Move::Promotion ? m.promotion() : chess::Queen));
  return w.now();
}

// The last reproduction: the hand of the board's owner may go on from it at once.
struct Shown {
  bool any = false;
  int board = 0;
  std::int64_t at = 0;  // its last hole event
  Position before;      // the position it was reproduced in
  Move move = Move::none();
};

// The sighted player's press of his last move, still to be placed once the blind
// player's next move is known.
struct PendingPress {
  enum class When : std::uint8_t { None, BeforeNextMove, AfterNextMove } when = When::None;
  std::int64_t after = 0;  // not before this
  std::size_t ply = 0;
};

void clock_press(std::int64_t ms, chess::Color by, Writer& w, SeatedScript& s) {
  script::ScriptEvent e;
  e.ms = ms;
  e.board = 0;
  e.kind = script::ScriptEvent::Kind::Button;
  e.button = board::ButtonEvent{ms, game::kClockButton};
  w.events().push_back(e);
  s.presses.push_back({ms, by});
}

// The mover's own move on `mover`'s board, begun at `t` at the earliest, or (quick) at
// once after the reproduction `shown` on that board: its first event 50-400 ms after that
// reproduction's last hole event (`ready`: not before this). A hand whose first lift is on
// a hole of a move that would extend the reproduction waits for it to be read first.
MoveTimes own_move(const Position& pos, Move m, int mover, std::int64_t t, std::int64_t ready,
                   const Shown& shown, Writer& w, SeatedScript& s) {
  const SeatedStyle& seated = w.seated();
  const bool follows = shown.any && shown.board == mover;
  const bool takes_it = follows && (landed(shown.before, shown.move) & square_bb(m.to())) &&
                        pos.piece_on(m.to()) != chess::NoPiece;
  const bool quick = follows && seated.quick && w.chance(takes_it ? 80 : 45);
  std::int64_t start = t;
  if (quick) {
    start = std::max(ready, shown.at) + 50 + w.pick(351);
    ++s.counts.quick;
    if (takes_it) ++s.counts.quick_captures;
  }
  w.at(mover, start);
  if (quick) w.at_once();
  MoveTimes mt = make_move(pos, m, w, true);
  if (!follows) return mt;
  const Bitboard longer = longer_moves_holes(shown.before, shown.move);
  const auto& ev = w.events();
  std::size_t first = mt.first;
  while (first < ev.size() && ev[first].kind != script::ScriptEvent::Kind::Hole) ++first;
  if (!longer || first == ev.size() || !(longer & square_bb(ev[first].hole.square))) return mt;
  const std::int64_t due =
      shown.at + settle_after(shown.before, shown.move, seated.settle_ms) + 100 + w.pick(900);
  if (ev[first].ms < due) {
    const std::int64_t delta = due - ev[first].ms;
    w.shift_since(mt.first, delta);
    mt.first_lift += delta;
    mt.last_hole += delta;
    mt.made += delta;
    ++s.counts.waits;
  }
  return mt;
}

bool ends_game(const Position& before, Move m, std::vector<std::uint64_t> history) {
  Position after = before;
  history.push_back(before.key());
  after.play(m);
  return chess::game_state(after, history).over();
}
}  // namespace

SeatedScript::Counts& SeatedScript::Counts::operator+=(const Counts& o) {
  games += o.games;
  plies += o.plies;
  early += o.early;
  quick += o.quick;
  quick_captures += o.quick_captures;
  waits += o.waits;
  mates_no_press += o.mates_no_press;
  late_press += o.late_press;
  never_press += o.never_press;
  wrong_holes += o.wrong_holes;
  wrong_own_holes += o.wrong_own_holes;
  half_done += o.half_done;
  knocked += o.knocked;
  own_lifts += o.own_lifts;
  return *this;
}

std::string describe(const SeatedScript::Counts& c) {
  return "games " + std::to_string(c.games) + ", plies " + std::to_string(c.plies) + ", early " +
         std::to_string(c.early) + ", quick " + std::to_string(c.quick) + ", quick-captures " +
         std::to_string(c.quick_captures) + ", waits " + std::to_string(c.waits) +
         ", mates-no-press " + std::to_string(c.mates_no_press) + ", late-press " +
         std::to_string(c.late_press) + ", never-press " + std::to_string(c.never_press) +
         ", wrong-holes " + std::to_string(c.wrong_holes) + " (" +
         std::to_string(c.wrong_own_holes) + " on holes of the next moves), half-done " +
         std::to_string(c.half_done) + ", knocked " + std::to_string(c.knocked) + ", own-lifts " +
         std::to_string(c.own_lifts);
}

SeatedStyle gentle_style(bool sighted, bool early) {
  SeatedStyle s;
  s.sighted = sighted;
  s.reproduce_early = early;
  s.announce_long_after = false;
  s.quick = false;
  s.late_presses = false;
  s.own_lifts = false;
  return s;
}

SeatedStyle hard_style(bool sighted, board::Completion completion) {
  SeatedStyle s;
  s.sighted = sighted;
  s.completion = completion;
  s.wrong_hole_anywhere = true;
  return s;
}

SeatedScript game_to_seated_script(const chess::PgnGame& game, std::uint32_t seed,
                                   const SeatedStyle& seated) {
  ScriptStyle style;
  style.completion = seated.completion;
  style.settle_ms = seated.settle_ms;
  Writer w(seed, style, seated);
  SeatedScript s;
  s.counts.games = 1;
  Position pos = game.start;
  std::vector<std::uint64_t> history;
  std::int64_t t = 500;           // when the next move may begin (not at once after a reproduction)
  std::int64_t ready = 0;         // when the previous move was made: a quick hand goes on from here
  std::int64_t busy[2] = {0, 0};  // a board's hand is busy until then (a knocked piece)
  Shown shown;
  PendingPress pending;
  const std::size_t plies = game.moves.size();
  std::int64_t late_press = -1;  // a late press in the sighted player's coming turn
  for (std::size_t ply = 0; ply < plies; ++ply) {
    const Move m = game.moves[ply].move;
    const chess::Color us = pos.side_to_move();
    const bool ends = ends_game(pos, m, history);
    ++s.counts.plies;
    if (seated.sighted && us != seated.colour) {
      // The sighted player's move, made on his own board, reproduced on the tactile board
      // (by the blind player or an assistant) and pressed: before the reproduction, while
      // it is under way, after it (before the blind player's next move is made), late
      // (after it), or never. A game-ending move is often not pressed at all.
      using When = PendingPress::When;
      std::int64_t press = -1;  // a press placed now
      std::int64_t done = 0;
      pending = {};
      const bool last = ply + 1 == plies;
      if (seated.own_lifts && w.chance(8)) {
        // The blind player lifts one of his pieces that the sighted player could take and
        // puts it back, before the sighted move is on the tactile board.
        chess::MoveList his;
        chess::generate_legal(pos, his);
        Bitboard takeable = 0;
        for (const Move other : his)
          if (pos.piece_on(other.to()) != chess::NoPiece && other.kind() != Move::Castling)
            takeable |= square_bb(other.to());
        if (takeable) {
          w.at(0, t);
          w.adjust(w.random_square_of(takeable));
          t = w.now() + 100;
          ++s.counts.own_lifts;
        }
      }
      int kind = 0;  // 0 pressed in time, 1 late, 2 never
      if (seated.late_presses && ends && w.chance(60)) {
        kind = 2;
        ++s.counts.mates_no_press;
      } else if (seated.late_presses && !ends && !last) {
        const int r = w.pick(100);
        kind = r < 12 ? 1 : r < 20 ? 2 : 0;
      }
      if (kind == 0) {
        // A game-ending move pressed is pressed before it is on the board (a press after
        // the game ended would be no press).
        int when = seated.reproduce_early ? w.pick(3) : 2;
        if (ends && when == 0) when = 1 + w.pick(2);
        // (Gentle hands: a game-ending move shown on the board only after the press.)
        if (ends && !seated.late_presses) when = 2;
        if (when == 0) {
          done = reproduce(pos, m, 0, t, false, w, s);
          ++s.counts.early;
          if (seated.late_presses)
            pending = {When::BeforeNextMove, done, ply};
          else
            press = std::max(t + 500 + w.pick(3500), done + 100 + w.pick(1500));
        } else {
          press = t + 500 + w.pick(3500);
          done = when == 1 ? reproduce(pos, m, 0, press - 300, false, w, s)
                           : reproduce(pos, m, 0, press + w.pick(3000), true, w, s);
        }
      } else {
        done = reproduce(pos, m, 0, t + w.pick(1500), false, w, s);
        if (kind == 1) {
          pending = {When::AfterNextMove, done, ply};
        } else if (!ends) {
          ++s.counts.never_press;
        }
      }
      if (pending.when == When::BeforeNextMove && last) {
        press = done + 100 + w.pick(1500);
        pending = {};
      }
      if (press >= 0) clock_press(press, us, w, s);
      // Made when the tactile board shows it (a reproduction that a longer move could
      // extend, or a promotion whose piece may still be named: once the board has been
      // still long enough to say it is not, or the next hole event, which the next move's
      // hand only makes later) or at his press, whichever is first.
      const bool waits = longer_moves_holes(pos, m) || m.kind() == Move::Promotion;
      std::int64_t made = done + (waits ? settle_after(pos, m, style.settle_ms) : 0);
      if (press >= 0) made = std::min(made, press);
      // A late press came in this turn before the move was on the board: nothing tells
      // tactiled it was not this move's, so the move counts as made at it (whichever first).
      if (late_press >= 0) made = std::min(made, late_press);
      late_press = -1;
      s.made_at.push_back(made);
      shown = {true, 0, done, pos, m};
      ready = press >= 0 ? std::max(done, press) : done;  // (a press in time comes first)
      // A hand that does not go on at once waits for the move to be read.
      t = done + settle_after(pos, m, style.settle_ms) + 100 + w.pick(2000);
      if (press >= 0) t = std::max(t, press + 100);
    } else {
      const int mover = seated.sighted ? 0 : (us == seated.colour ? 0 : 1);
      const MoveTimes mt = own_move(pos, m, mover, std::max(t, busy[mover]), ready, shown, w, s);
      std::int64_t made = mt.made;
      std::int64_t next = made;  // the next move begins after this
      shown = {};
      if (seated.sighted) {
        // The sighted player's press of his previous move, if still to come.
        using When = PendingPress::When;
        if (pending.when == When::BeforeNextMove) {
          const std::int64_t lo = pending.after + 50, hi = std::max(lo, made - 30);
          const std::int64_t press = lo + w.pick(int(hi - lo + 1));
          clock_press(press, ~us, w, s);
          s.made_at[pending.ply] = std::min(s.made_at[pending.ply], press);
        } else if (pending.when == When::AfterNextMove && !ends) {
          const std::int64_t press = made + 100 + w.pick(1500);
          clock_press(press, ~us, w, s);
          ++s.counts.late_press;
          next = press;
          late_press = press;
        } else if (pending.when == When::AfterNextMove) {
          ++s.counts.never_press;  // the blind player's move ended the game first
        }
        pending = {};
      } else {
        // On the other board: finished before the announce (even long before it), begun
        // before it and finished after, or begun some time after it.
        const int other = 1 - mover;
        const std::size_t reproduction = w.events().size();
        int when = seated.reproduce_early ? w.pick(10) : 9;
        if (when < 3 && !seated.announce_long_after) when = 3;
        std::int64_t done = 0;
        if (when < 3) {
          done = reproduce(pos, m, other, std::max(mt.last_hole + w.pick(400), busy[other]), false,
                           w, s);
          if (style.completion == board::Completion::Button) {
            // The mover announces a while after the reproduction is done.
            const std::int64_t announce = done + 100 + w.pick(3 * int(style.settle_ms) + 500);
            if (announce > made) {
              const std::int64_t delta = announce - made;
              auto& ev = w.events();
              for (std::size_t i = mt.completion; i < reproduction; ++i) {
                ev[i].ms += delta;
                ev[i].button.ms += delta;
              }
              made += delta;
            }
          }
        } else if (when < 6) {
          // Not before the mover has begun: a quick move can take less than 400 ms, and
          // 400 ms before its announce the reproducing player may still be making his own
          // move on that board (a lift of the opponent's piece there would be part of it).
          done = reproduce(pos, m, other, std::max({made - 400, mt.first_lift, busy[other]}), false,
                           w, s);
        } else {
          done = reproduce(pos, m, other, std::max(made + w.pick(3000), busy[other]), true, w, s);
        }
        if (done < made) ++s.counts.early;
        if (w.chance(4)) {
          // A piece knocked over on the mover's board after his move, and put back.
          ++s.counts.knocked;
          w.at(mover, made + 200);
          Position after = pos;
          after.play(m);
          const Square sq = w.random_square_of(after.occupied());
          w.hole(sq, board::Hole::Up);
          s.discrepancies.push_back({mover, w.now() + style.settle_ms, square_bb(sq), 0});
          w.wait(style.settle_ms + 300);
          w.hole(sq, board::Hole::Down);
          s.resolved.push_back({mover, w.now()});
          busy[mover] = w.now() + 100;
        }
        shown = {true, other, done, pos, m};
        // The next move waits for a knocked piece to be put back (its lifted own piece
        // would be its owner's move begun early, not a discrepancy).
        next = std::max({made, done, busy[mover]});
      }
      s.presses.push_back({made, us});
      s.made_at.push_back(made);
      ready = std::max(made, busy[mover]);
      t = next + 100 + w.pick(2000);
    }
    history.push_back(pos.key());
    pos.play(m);
  }
  s.events = std::move(w.events());
  const auto by_time = [](const auto& a, const auto& b) { return a.ms < b.ms; };
  std::stable_sort(s.events.begin(), s.events.end(), by_time);
  std::stable_sort(s.presses.begin(), s.presses.end(), by_time);
  return s;
}

}  // namespace tactile::testing
