// SPDX-License-Identifier: GPL-3.0-or-later
// Test code: the holes a hand empties and fills to make a move, worked out from the rules
// (not from the code under test), and every order of them a hand can do, for the tests of
// a reproduction read in any physical order (board_check_test, mirror_order_test).
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "core/board/events.h"
#include "core/chess/position.h"

namespace tactile::game::testing {

struct HandStep {
  chess::Square square;
  board::Hole change;
};

// Each piece out of its hole (a castling's king and rook, unless already on their castling
// squares; the captured piece, en passant's too), then each into its destination: the
// travellers' lifts first, in order, and their destinations last, in the same order.
inline std::vector<HandStep> hand_steps(const chess::Position& p, chess::Move m) {
  std::vector<HandStep> up, down;
  if (m.kind() == chess::Move::Castling) {
    const chess::Color us = p.side_to_move();
    const auto side =
        chess::file_of(m.to()) > chess::file_of(m.from()) ? chess::KingSide : chess::QueenSide;
    const chess::Square king_to = chess::Position::castle_king_to(us, side);
    const chess::Square rook_to = chess::Position::castle_rook_to(us, side);
    if (m.from() != king_to) up.push_back({m.from(), board::Hole::Up});
    if (m.to() != rook_to) up.push_back({m.to(), board::Hole::Up});
    if (m.from() != king_to) down.push_back({king_to, board::Hole::Down});
    if (m.to() != rook_to) down.push_back({rook_to, board::Hole::Down});
  } else {
    up.push_back({m.from(), board::Hole::Up});
    if (m.kind() == chess::Move::EnPassant)
      up.push_back(
          {chess::make_square(chess::file_of(m.to()), chess::rank_of(m.from())), board::Hole::Up});
    else if (p.piece_on(m.to()) != chess::NoPiece)
      up.push_back({m.to(), board::Hole::Up});
    down.push_back({m.to(), board::Hole::Down});
  }
  up.insert(up.end(), down.begin(), down.end());
  return up;
}

// A peg goes only into an empty hole, only a peg in the hand, and each piece into its
// destination only after it left its hole (else the king and the rook of a castling end
// up in each other's holes: the switches cannot tell, the board is wrong all the same).
inline bool hand_can_do(const chess::Position& p, chess::Move m,
                        const std::vector<HandStep>& order) {
  const std::vector<HandStep> steps = hand_steps(p, m);
  const std::size_t travellers = std::count_if(
      steps.begin(), steps.end(), [](const HandStep& s) { return s.change == board::Hole::Down; });
  const auto at = [&](const HandStep& want) {
    for (std::size_t i = 0; i < order.size(); ++i)
      if (order[i].square == want.square && order[i].change == want.change) return i;
    return order.size();
  };
  for (std::size_t i = 0; i < travellers; ++i) {
    const HandStep& down = steps[steps.size() - travellers + i];
    const HandStep& up = steps[m.kind() == chess::Move::Castling ? i : 0];
    if (at(up) > at(down)) return false;
  }
  chess::Bitboard holes = p.occupied();
  int in_hand = 0;
  for (const HandStep& s : order) {
    const chess::Bitboard bit = chess::square_bb(s.square);
    if (s.change == board::Hole::Up) {
      if (!(holes & bit)) return false;
      holes &= ~bit;
      ++in_hand;
    } else {
      if ((holes & bit) || in_hand == 0) return false;
      holes |= bit;
      --in_hand;
    }
  }
  return true;
}

// Calls `each` with every order of `m`'s steps a hand can do; returns how many there were.
inline int for_every_hand_order(const chess::Position& p, chess::Move m,
                                const std::function<void(const std::vector<HandStep>&)>& each) {
  const auto before = [](const HandStep& a, const HandStep& b) {
    return std::pair(a.square, a.change) < std::pair(b.square, b.change);
  };
  std::vector<HandStep> order = hand_steps(p, m);
  std::sort(order.begin(), order.end(), before);
  int orders = 0;
  do {
    if (!hand_can_do(p, m, order)) continue;
    ++orders;
    each(order);
  } while (std::next_permutation(order.begin(), order.end(), before));
  return orders;
}

}  // namespace tactile::game::testing
