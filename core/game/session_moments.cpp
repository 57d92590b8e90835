// SPDX-License-Identifier: GPL-3.0-or-later
// The moments of a board's recognizer as the session handles them on any board (a
// reading asked, an illegal move, nothing moved, too late, an irregularity, a board that
// differs), after its seating has had its own say (its `moment` callback).
#include "core/game/session.h"

#include <string>
#include <utility>

#include "core/chess/san.h"
#include "core/chess/uci.h"
#include "core/game/seating_rules.h"
#include "core/record/brief_phrases.h"
#include "core/record/messages.h"
#include "core/record/move_phrase.h"
#include "core/record/refusal_phrases.h"

namespace tactile::game {
namespace {
using board::MomentKind;
using record::Message;

Moment moment_output(const board::Moment& m, int board) {
  return Moment{.ms = m.ms, .board = board, .moment = m};
}

// Lights the squares a moment points at (an illegal move, boards that differ).
LightSquares light_squares(const board::Moment& m, int board) {
  return LightSquares{.ms = m.ms, .board = board, .squares = m.squares};
}
}  // namespace

void Session::handle(int board, const board::Moment& m, const chess::Position& before,
                     std::vector<Output>& out) {
  Steps steps(*this);
  if (const auto own = seating_->callbacks().moment;
      own && own(*seating_, steps, board, m, before, out))
    return;
  const record::Language lang = language(board);
  Moment o = moment_output(m, board);
  switch (m.kind) {
    case MomentKind::Pending: {
      o.san = chess::to_san(before, m.move);
      o.uci = chess::to_uci(before, m.move);
      out.push_back(o);
      // A question, never the statement a made move gets: the reading asked with a
      // question mark (espeak-ng raises the voice), then why it is asked.
      std::string phrase = record::move_phrase(before, m.move, lang, squares(board)) + "?";
      if (m.reason == board::PendingReason::Ambiguous && m.reading == 0) {
        phrase += " ";
        phrase += record::message_text(Message::AmbiguousMove, lang);
      } else if (m.reason == board::PendingReason::DefaultPromotion &&
                 m.move.promotion() == chess::Queen) {
        phrase += " ";
        phrase += record::message_text(Message::PromotionQueen, lang);
      }
      // On the braille display too: a braille-only player must answer it while his clock
      // runs.
      say_move(board, m.ms, std::move(phrase), out, ++question_, Speak::Shown::UntilMoveOrKey);
      question_board_ = board;
      break;
    }
    case MomentKind::Illegal:
      // What the board shows and what to put back, at once (not only on `check`).
      out.push_back(o);
      refuse(board, m.ms,
             brief(board, m.ms)
                 ? record::brief_illegal_phrase(before, m.squares, lang, squares(board))
                 : record::illegal_phrase(before, m.squares, lang, squares(board)),
             out);
      illegal_open_[std::size_t(board_index(board))] = true;
      out.push_back(light_squares(m, board));
      break;
    case MomentKind::NoMove:
      out.push_back(o);
      // Right after a reproduction the press confirms it: nothing to refuse.
      if (!just_reproduced_[std::size_t(board_index(board))])
        refuse(board, m.ms, record::refusal_phrase(record::Refusal::NothingMoved, lang), out);
      break;
    case MomentKind::TooLate:
      out.push_back(o);
      refuse(board, m.ms,
             record::refusal_phrase(game_.plies() > 0 ? record::Refusal::TooLateToCorrect
                                                      : record::Refusal::NothingToCorrect,
                                    lang),
             out);
      break;
    case MomentKind::Irregularity:
      if (!m.move.is_none()) o.uci = chess::to_uci(before, m.move);
      out.push_back(o);
      // The other side lifted a piece while this side's promotion waits for its piece:
      // who finishes first (recorded as the irregularity, never read as a move).
      if (m.irregularity == board::Irregularity::PromotionWaits)
        refuse(board, m.ms, record::promotion_waits_phrase(before.side_to_move(), lang), out);
      break;
    case MomentKind::BoardDiffers: {
      out.push_back(o);
      out.push_back(Alarm{.ms = m.ms, .board = board});
      out.push_back(light_squares(m, board));
      // The hole's event contradicts the board: which hole, and that the board needs a look.
      if (m.square != chess::NoSquare)
        refuse(board, m.ms,
               brief(board, m.ms) ? record::brief_full_hole_phrase(m.square, lang, squares(board))
                                  : record::full_hole_phrase(m.square,
                                                             (recognizer(board).occupancy() &
                                                              chess::square_bb(m.square)) != 0,
                                                             lang, squares(board)),
               out);
      break;
    }
    default:
      if (!m.move.is_none()) o.uci = chess::to_uci(before, m.move);
      out.push_back(o);
      break;
  }
}

Moment Session::made_output(int board, const board::Moment& m,
                            const chess::Position& before) const {
  Moment o = moment_output(m, board);
  o.san = chess::to_san(before, m.move);
  o.uci = chess::to_uci(before, m.move);
  return o;
}

}  // namespace tactile::game
