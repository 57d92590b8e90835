// SPDX-License-Identifier: GPL-3.0-or-later
// Zobrist hashing keys, generated at compile time by a fixed-seed SplitMix64 sequence
// (deterministic across builds and machines; not copied from any engine).
#pragma once

#include <cstdint>

#include "core/chess/types.h"

namespace tactile::chess::zobrist {

struct Keys {
  std::uint64_t piece_square[16][64];  // indexed by Piece
  std::uint64_t castle[64];            // by the square of a rook that carries a right
  std::uint64_t ep_file[8];
  std::uint64_t side;  // xor-ed in when Black is to move
};

constexpr Keys make_keys() {
  Keys k{};
  std::uint64_t state = 0x74616374696C6564ULL;  // "tactiled"
  auto next = [&state]() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  for (auto& row : k.piece_square)
    for (auto& v : row) v = next();
  for (auto& v : k.castle) v = next();
  for (auto& v : k.ep_file) v = next();
  k.side = next();
  return k;
}

inline constexpr Keys kKeys = make_keys();

}  // namespace tactile::chess::zobrist
