#include "tests/replay/game_script.h"

#include <algorithm>
#include <bit>

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
  void pause() { ms_ += 80 + pick(520); }  // within a move: always below the settle time
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

// The mover's hand makes `m` on the board and completes it as the style wants; returns the
// time of the announce press that makes it (announce mode).
std::int64_t make_move(const Position& pos, Move m, Writer& w) {
  std::int64_t made = 0;
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
      if (m.promotion() == chess::Queen && w.chance(50)) {
        default_queen = true;
      } else {
        press_at = w.pick(int(pegs.size()) * 2 + 1);
      }
    }
    play_pegs(pegs, pos.occupied(), w, press_at, promote_button(m.promotion()));

    if (style.noise && w.chance(15)) {  // the moved piece straightened in its new hole
      const Peg& last = pegs.back();
      w.adjust(last.to);
    }

    if (style.completion == board::Completion::Button) {
      w.press(board::Button::Announce);
      if (default_queen) w.press(board::Button::Announce);  // "... Dame": confirmed
      made = w.now();
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
      w.wait(still + (default_queen ? kLongestQuestionMs + style.settle_ms : 0));
    }
  }
  return made;
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

// The opponent's move reproduced on `board` from `start` on (the first event a pause
// later), sometimes (`inject`: begun after the move was made) with an injected discrepancy;
// returns when the reproduction is done.
std::int64_t reproduce(const Position& pos, Move m, int board, std::int64_t start, bool inject,
                       Writer& w, SeatedScript& s) {
  w.at(board, start);
  const std::int64_t settle = w.style().settle_ms;
  if (inject && plain(pos, m) && w.chance(4)) {
    // A wrong hole: the piece put one hole off and left to settle, then put right.
    Bitboard free = ~pos.occupied() & ~square_bb(m.to()) & ~square_bb(m.from());
    if (!w.seated().wrong_hole_anywhere) {
      // Not a hole of any move the reproducing player (on move next) could make.
      Position after = pos;
      after.play(m);
      chess::MoveList legal;
      chess::generate_legal(after, legal);
      for (const Move own : legal) {
        free &= ~square_bb(own.from()) & ~square_bb(own.to());
        if (own.kind() == Move::Castling)
          for (const chess::CastleSide side : {chess::KingSide, chess::QueenSide})
            free &= ~square_bb(Position::castle_king_to(after.side_to_move(), side)) &
                    ~square_bb(Position::castle_rook_to(after.side_to_move(), side));
      }
      if (!free) free = ~pos.occupied() & ~square_bb(m.to()) & ~square_bb(m.from());
    }
    if (w.seated().sighted) {
      // The sighted player's move is not known to the tactile board: a piece put into a
      // hole it could legally go to is that move there (it is announced, and putting it
      // right is the arbiter's matter), never a discrepancy. Only other holes are wrong.
      chess::MoveList legal;
      chess::generate_legal(pos, legal);
      for (const Move other : legal)
        if (other.from() == m.from()) free &= ~square_bb(other.to());
      if (!free) {
        play_pegs(pegs_of(pos, m, w), pos.occupied(), w, -1, board::Button::PromoteQueen);
        return w.now();
      }
    }
    const Square wrong = w.random_square_of(free);
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
}  // namespace

SeatedScript game_to_seated_script(const chess::PgnGame& game, std::uint32_t seed,
                                   const SeatedStyle& seated) {
  ScriptStyle style;
  style.completion = board::Completion::Button;
  style.settle_ms = seated.settle_ms;
  Writer w(seed, style, seated);
  SeatedScript s;
  Position pos = game.start;
  std::int64_t t = 500;  // when the next move may begin
  for (const chess::PgnMove& pm : game.moves) {
    const Move m = pm.move;
    const chess::Color us = pos.side_to_move();
    std::int64_t made = 0, done = 0;
    if (seated.sighted && us != seated.colour) {
      // The sighted player's move: his clock press, and the move put on the tactile board
      // before the press, begun before and finished after it, or after it.
      const std::int64_t press = t + 500 + w.pick(3500);
      const int when = seated.reproduce_early ? w.pick(3) : 2;
      if (when == 0) {
        done = reproduce(pos, m, 0, t, false, w, s);
        // Only what follows the press can be a discrepancy (nothing is expected before).
        made = std::max(press, done + 100 + w.pick(1500));
      } else {
        made = press;
        done = when == 1 ? reproduce(pos, m, 0, press - 300, false, w, s)
                         : reproduce(pos, m, 0, press + w.pick(3000), true, w, s);
      }
      // Nothing says when his move is complete on the board: it is read a settle time
      // after its last hole (a king put on its castling square with that castling legal:
      // the longer stillness that says it is no castling), and the blind player, who
      // hears it confirmed, goes on after that.
      done += king_on_castling_square(pos, m) ? board::kCastlingWaitSettles * style.settle_ms
                                              : style.settle_ms;
      w.at(0, made);
      script::ScriptEvent e;
      e.ms = made;
      e.board = 0;
      e.kind = script::ScriptEvent::Kind::Button;
      e.button = board::ButtonEvent{made, board::Button::Clock};
      w.events().push_back(e);
    } else {
      const int mover = seated.sighted ? 0 : (us == seated.colour ? 0 : 1);
      w.at(mover, t);
      made = make_move(pos, m, w);
      done = w.now();
      if (!seated.sighted) {
        // On the other board, begun a little before the announce or some time after it.
        const bool early = seated.reproduce_early && w.chance(30);
        done = reproduce(pos, m, 1 - mover, early ? made - 400 : made + w.pick(3000), !early, w, s);
        if (w.chance(4)) {
          // A piece knocked over on the mover's board after his move, and put back.
          w.at(mover, made + 200);
          Position after = pos;
          after.play(m);
          const Square sq = w.random_square_of(after.occupied());
          w.hole(sq, board::Hole::Up);
          s.discrepancies.push_back({mover, w.now() + style.settle_ms, square_bb(sq), 0});
          w.wait(style.settle_ms + 300);
          w.hole(sq, board::Hole::Down);
          s.resolved.push_back({mover, w.now()});
          done = std::max(done, w.now());
        }
      }
    }
    s.made_at.push_back(made);
    t = std::max(made, done) + 100 + w.pick(2000);
    pos.play(m);
  }
  s.events = std::move(w.events());
  std::stable_sort(
      s.events.begin(), s.events.end(),
      [](const script::ScriptEvent& a, const script::ScriptEvent& b) { return a.ms < b.ms; });
  return s;
}

}  // namespace tactile::testing
