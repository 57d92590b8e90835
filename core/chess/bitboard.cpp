// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/bitboard.h"

#include <initializer_list>
#include <mutex>

namespace tactile::chess::bb {

Tables tables;

namespace {

// Shared storage for every square's slider table (fancy magics: one slot per
// relevant-occupancy subset, 102400 rook and 5248 bishop entries in all).
Bitboard rook_storage[0x19000];
Bitboard bishop_storage[0x1480];

// xorshift64*: a fixed seed makes the magic search (and so the tables) deterministic.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 2685821657736338717ULL;
  }
  // Few set bits make good magic candidates.
  std::uint64_t sparse() { return next() & next() & next(); }

 private:
  std::uint64_t s_;
};

// Walks the rays of a slider one step at a time; slow, used only to build tables.
Bitboard slide(Square s, Bitboard occupied, const int (*dirs)[2]) {
  Bitboard result = 0;
  for (int d = 0; d < 4; ++d) {
    int f = file_of(s) + dirs[d][0];
    int r = rank_of(s) + dirs[d][1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      const Bitboard b = square_bb(make_square(f, r));
      result |= b;
      if (occupied & b) break;
      f += dirs[d][0];
      r += dirs[d][1];
    }
  }
  return result;
}

constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

Bitboard step_attacks(Square s, const int (*steps)[2], int n) {
  Bitboard result = 0;
  for (int i = 0; i < n; ++i) {
    const int f = file_of(s) + steps[i][0];
    const int r = rank_of(s) + steps[i][1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) result |= square_bb(make_square(f, r));
  }
  return result;
}

// Magic numbers that this file's own search (below, with the seeds in build()) found once;
// recording them saves that search (a quarter of a second) at every start. init_magics
// checks each against every occupancy and searches again should one ever fail.
constexpr Bitboard kRookMagics[64] = {
    0x2080002040001080ULL, 0x0040200010004000ULL, 0x0100104100200008ULL, 0x0100090004100020ULL,
    0x4200041020020008ULL, 0x0200020030440128ULL, 0x8880260004801900ULL, 0x0200008044011022ULL,
    0x0078802080004000ULL, 0x8000400050002000ULL, 0x0001001220024900ULL, 0x0082002040100A00ULL,
    0x7042000804102200ULL, 0x5206001004220008ULL, 0x2004000402100188ULL, 0x1120802880004100ULL,
    0x0008288004400082ULL, 0x88A0118020400080ULL, 0x4810008010200884ULL, 0x0220210010010008ULL,
    0x8408010005001009ULL, 0x2402010100080400ULL, 0x00002C0010010A08ULL, 0x0800020000810044ULL,
    0x024A400080248000ULL, 0x0200802200420100ULL, 0x4120082080100080ULL, 0x9058008080100008ULL,
    0x0100040080080080ULL, 0x0205040080020080ULL, 0x0080020400010810ULL, 0x8060010200208844ULL,
    0x0280204000800088ULL, 0x0300201000404000ULL, 0x0000801000802004ULL, 0x1028001000800880ULL,
    0x0010040080800800ULL, 0x8000800400800200ULL, 0x032028900400031AULL, 0x2001000041000892ULL,
    0x4030304000818008ULL, 0x0000210200820041ULL, 0x0008162001010040ULL, 0xC408020100101000ULL,
    0xC4C1000800110004ULL, 0x0812000204008080ULL, 0x9000080102040010ULL, 0x000B0C0040820009ULL,
    0x1840208000400080ULL, 0x0000400020009280ULL, 0x8116100020028080ULL, 0x0040428810A20200ULL,
    0x4048000490890100ULL, 0x0C04810200040080ULL, 0x0002286201500400ULL, 0x0100084104108200ULL,
    0x5010104200810022ULL, 0x0040001020410681ULL, 0x2000882000110341ULL, 0x0000209001450009ULL,
    0x0042000420100802ULL, 0x4002005708102406ULL, 0x2000011008026084ULL, 0x040208440030810AULL,
};
constexpr Bitboard kBishopMagics[64] = {
    0x2220811001110024ULL, 0x001001010C208009ULL, 0x02180181021C0448ULL, 0x0004040086440500ULL,
    0x0802021000004000ULL, 0x0048922020021808ULL, 0x0401091802400A00ULL, 0x2242808090100201ULL,
    0x8408208510008100ULL, 0x2007200222020822ULL, 0x0080501502242000ULL, 0x004C040402984001ULL,
    0x2200011140008902ULL, 0x0001410420842040ULL, 0xA240488401201241ULL, 0x00A200C400949014ULL,
    0x11202045E430021BULL, 0x0132500888450400ULL, 0x2009009202020200ULL, 0x800C005804248980ULL,
    0x0012008401213000ULL, 0x000880080A012024ULL, 0xC400410101082040ULL, 0x0102041482008200ULL,
    0x0C20508008100120ULL, 0x5010442010018200ULL, 0x00053200C4040400ULL, 0x4000802002020200ULL,
    0x80A0840048802010ULL, 0x4010110400804100ULL, 0x0001040115140110ULL, 0x60240244208200C1ULL,
    0x0204020802212108ULL, 0x1022304471820810ULL, 0x0801980400080140ULL, 0x00000A0080080380ULL,
    0x8814200200442080ULL, 0x204D044100220500ULL, 0x000204A60C040601ULL, 0x850800A500002100ULL,
    0x1802080446014080ULL, 0x000A01044201201AULL, 0x0041008041001004ULL, 0x000CA22024210800ULL,
    0x000014410A000400ULL, 0x0460808100410202ULL, 0x41A0040110402200ULL, 0x0208408080880200ULL,
    0x0264014130104000ULL, 0x0007044A42200804ULL, 0x1040419248080000ULL, 0x0400041504090030ULL,
    0x00A2004048221008ULL, 0x000A602401220082ULL, 0x2041100202204020ULL, 0x92F0541100420080ULL,
    0x1000202A08204800ULL, 0x0002020120823000ULL, 0x0220000704014418ULL, 0x4080000000840400ULL,
    0x0200400004208200ULL, 0x8040022220520080ULL, 0x2040429002308100ULL, 0x6010014200840100ULL,
};

void init_magics(Magic* magics, Bitboard* storage, const int (*dirs)[2], const Bitboard* known,
                 std::uint64_t seed) {
  static Bitboard occupancy[4096];
  static Bitboard reference[4096];
  static int epoch[4096];  // slot filled during attempt number epoch[slot]
  static int attempt = 0;  // counts on across calls so stale slots never look filled
  Rng rng(seed);
  Bitboard* table = storage;
  for (int i = 0; i < 64; ++i) {
    const Square s = Square(i);
    const Bitboard edges =
        ((kRank1 | kRank8) & ~rank_bb(rank_of(s))) | ((kFileA | kFileH) & ~file_bb(file_of(s)));
    Magic& m = magics[i];
    m.mask = slide(s, 0, dirs) & ~edges;
    m.shift = unsigned(64 - popcount(m.mask));
    m.attacks = table;
    // Enumerate every subset of the mask (carry-rippler trick).
    int size = 0;
    Bitboard b = 0;
    do {
      occupancy[size] = b;
      reference[size] = slide(s, b, dirs);
      ++size;
      b = (b - m.mask) & m.mask;
    } while (b);
    // Try the recorded number, then sparse random ones, until one maps the subsets
    // without harmful collisions (two occupancies with different attacks on one slot).
    for (bool first = true;; first = false) {
      if (first) {
        m.magic = known[i];
      } else {
        do {
          m.magic = rng.sparse();
        } while (popcount((m.mask * m.magic) >> 56) < 6);
      }
      ++attempt;
      bool ok = true;
      for (int k = 0; k < size && ok; ++k) {
        const unsigned idx = m.index(occupancy[k]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          table[idx] = reference[k];
        } else if (table[idx] != reference[k]) {
          ok = false;
        }
      }
      if (ok) break;
    }
    table += size;
  }
}

void build() {
  constexpr int kKnight[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                 {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  constexpr int kKing[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                               {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  constexpr int kWhitePawn[2][2] = {{-1, 1}, {1, 1}};
  constexpr int kBlackPawn[2][2] = {{-1, -1}, {1, -1}};
  for (int i = 0; i < 64; ++i) {
    const Square s = Square(i);
    tables.knight[s] = step_attacks(s, kKnight, 8);
    tables.king[s] = step_attacks(s, kKing, 8);
    tables.pawn[White][s] = step_attacks(s, kWhitePawn, 2);
    tables.pawn[Black][s] = step_attacks(s, kBlackPawn, 2);
  }
  init_magics(tables.rook, rook_storage, kRookDirs, kRookMagics, 0x7AC71E0C0FFEEULL);
  init_magics(tables.bishop, bishop_storage, kBishopDirs, kBishopMagics, 0xB15B0A2D5EEDULL);
  for (int a = 0; a < 64; ++a) {
    for (int b = 0; b < 64; ++b) {
      const Square sa = Square(a), sb = Square(b);
      tables.between[a][b] = tables.line[a][b] = 0;
      if (a == b) continue;
      for (const auto* dirs : {kRookDirs, kBishopDirs}) {
        if (slide(sa, 0, dirs) & square_bb(sb)) {
          tables.line[a][b] =
              (slide(sa, 0, dirs) & slide(sb, 0, dirs)) | square_bb(sa) | square_bb(sb);
          tables.between[a][b] = slide(sa, square_bb(sb), dirs) & slide(sb, square_bb(sa), dirs);
        }
      }
    }
  }
}

}  // namespace

void init() {
  static std::once_flag once;
  std::call_once(once, build);
}

Bitboard attacks(PieceType t, Square s, Bitboard occupied) {
  switch (t) {
    case Knight:
      return knight_attacks(s);
    case Bishop:
      return bishop_attacks(s, occupied);
    case Rook:
      return rook_attacks(s, occupied);
    case Queen:
      return queen_attacks(s, occupied);
    case King:
      return king_attacks(s);
    default:
      return 0;
  }
}

}  // namespace tactile::chess::bb
