// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/player_channel.h"

#include <algorithm>

#include "core/record/player_phrases.h"

namespace tactile::daemon {
namespace {
const board::ButtonDeclaration kDeclared{kRecordButton, kCheckButton, kFasterButton, kSlowerButton};
}  // namespace

PlayerChannel::PlayerChannel(const game::BoardPlayers& players) {
  for (int b = 0; b < 2; ++b) set(b, players[index(b)]);
}

void PlayerChannel::set(int board, const game::PlayerSettings& s) {
  const std::size_t i = index(board);
  if (players_[i].time_warnings != s.time_warnings || warnings_[i].thresholds() != s.time_warnings)
    warnings_[i].set_thresholds(s.time_warnings);
  players_[i] = s;
}

bool PlayerChannel::takes(const game::Session& s, int board, board::Button b) const {
  if (board < 0 || board >= s.board_count()) return false;
  return b == kRecordButton || b == kCheckButton || b == kFasterButton || b == kSlowerButton;
}

void PlayerChannel::say(int board, std::int64_t ms, std::string text, std::string what,
                        std::vector<Said>& out, bool urgent) {
  out.push_back(Said{ms, board, std::move(text), urgent, std::move(what),
                     urgent ? game::SpeechRank::Warning : game::SpeechRank::Answer});
}

bool PlayerChannel::press(const game::Session& s, int board, const board::ButtonEvent& e,
                          std::vector<Said>& out) {
  const std::size_t i = index(board);
  const record::Language lang = game::board_language(s.config(), board);
  const record::SquareWording squares = game::board_squares(s.config(), board);
  if (e.button == kRecordButton) {
    const chess::PgnGame& game = s.record();
    const int pairs = record::pair_count(game);
    if (pairs == 0) {
      say(board, e.ms, record::no_moves_phrase(lang), "record", out);
      page_[i] = -1;
      return false;
    }
    // Pressed again soon: the pair before; else the last pair.
    const bool paging = page_[i] >= 0 && e.ms - paged_at_[i] <= kPagingMs && page_[i] < pairs;
    paged_at_[i] = e.ms;
    if (paging && page_[i] == 0) {
      say(board, e.ms, record::record_start_phrase(lang), "record", out);
      page_[i] = -1;  // the next press begins at the end again
      return false;
    }
    page_[i] = paging ? page_[i] - 1 : pairs - 1;
    say(board, e.ms, record::pair_phrase(game, page_[i], lang, squares), "record", out);
    return false;
  }
  if (e.button == kCheckButton) {
    const board::Recognizer& r = s.recognizer(board);
    const chess::Bitboard holes = r.occupancy(), pieces = r.position().occupied();
    say(board, e.ms,
        record::check_phrase(holes & ~pieces, pieces & ~holes, lang, kCheckNamed, squares), "check",
        out);
    return false;
  }
  if (e.button == kFasterButton || e.button == kSlowerButton) {
    const bool faster = e.button == kFasterButton;
    game::PlayerSettings& p = players_[i];
    const int rate = std::clamp(p.speech_rate + (faster ? 1 : -1) * game::kSpeechRateStep,
                                game::kMinSpeechRate, game::kMaxSpeechRate);
    const bool changed = rate != p.speech_rate;
    p.speech_rate = rate;
    say(board, e.ms, record::rate_phrase(faster, !changed, lang), "speech-rate", out);
    return changed;
  }
  return false;
}

bool PlayerChannel::hears(const game::Session& s, int board, chess::Color c) {
  return s.clock_of(board, c);  // (sighted: the sighted player sees his own clock)
}

void PlayerChannel::warn(const game::Session& s, std::int64_t now, std::vector<Said>& out) {
  if (!s.clock() || s.over()) return;
  const clock::ChessClock& c = *s.clock();
  for (int b = 0; b < s.board_count(); ++b) {
    if (!c.running() || !hears(s, b, *c.running())) continue;
    if (const auto due = warnings_[index(b)].check(c, now)) {
      // A board that hears both clocks (one board: both players hear it) names the side;
      // a player's own board says it is his time.
      const bool both = hears(s, b, chess::White) && hears(s, b, chess::Black);
      say(b, now,
          record::warning_phrase(due->threshold_ms,
                                 both ? std::optional<chess::Color>(due->color) : std::nullopt,
                                 game::board_language(s.config(), b)),
          "time-warning", out, true);
    }
  }
}

std::int64_t PlayerChannel::deadline(const game::Session& s, std::int64_t now) const {
  if (!s.clock() || s.over()) return board::kNoDeadline;
  const clock::ChessClock& c = *s.clock();
  std::int64_t due = board::kNoDeadline;
  for (int b = 0; b < s.board_count(); ++b) {
    if (!c.running() || !hears(s, b, *c.running())) continue;
    const std::int64_t t = warnings_[index(b)].deadline(c, now);
    if (t != clock::kNever) due = std::min(due, t);
  }
  return due;
}

}  // namespace tactile::daemon
