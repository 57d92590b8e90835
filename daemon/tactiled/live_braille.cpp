// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled/live_braille.h"

#include <algorithm>

#include "core/game/board_letter.h"
#include "core/record/braille_status.h"
#include "daemon/tactiled/braille_view.h"

namespace tactile::daemon {
namespace {

// How long the record stays on the display after a press or a pan (the status line then);
// the player's channel pages back on a press within 5 s as well.
constexpr std::int64_t kRecordMs = 5000;

}  // namespace

LiveBraille::LiveBraille(const LiveConfig& config, std::ostream& journal)
    : config_(config), journal_(journal) {
  for (int b = 0; b < 2; ++b) {
    const BoardSetup* setup = b == 0 ? &config : config.board_b ? &*config.board_b : nullptr;
    if (setup && setup->braille)
      displays_[std::size_t(b)] =
          std::make_unique<braille::BrlapiDisplay>(setup->braille_host, setup->braille_key_file);
  }
}

void LiveBraille::add_fds(std::vector<pollfd>& fds) const {
  for (const auto& d : displays_)
    if (d && d->fd() >= 0) fds.push_back({d->fd(), POLLIN, 0});
}

std::int64_t LiveBraille::timeout_ms(std::int64_t now) const {
  std::int64_t wait = -1;
  for (const auto& d : displays_) {
    if (!d) continue;
    std::int64_t t = d->timeout_ms(now);
    // The clocks on the line change each second (shown H:MM:SS).
    if (d->cells() > 0) t = t < 0 ? 1000 - now % 1000 : std::min(t, 1000 - now % 1000);
    if (t >= 0) wait = wait < 0 ? t : std::min(wait, t);
  }
  return wait;
}

void LiveBraille::step(std::int64_t now, const game::Session& session, const Press& press) {
  for (int b = 0; b < 2; ++b) {
    braille::BrlapiDisplay* d = displays_[std::size_t(b)].get();
    if (!d) continue;
    for (const braille::Key& key : d->step(now)) {
      const std::string name = braille_key_name(key.command, key.arg);
      if (const auto it = config_.braille_keys.find(name); it != config_.braille_keys.end()) {
        end_brief_alert(b);  // read: the key's own answer shows next
        press(b, it->second);
      } else if (name == "FWINRT" || name == "FWINLT") {
        RecordView& r = record_[std::size_t(b)];
        if (r.until >= 0 && now < r.until) {  // the record shown: the next or former pair
          r.back += name == "FWINLT" ? 1 : -1;
          r.until = now + kRecordMs;
        } else {  // the line wider than the display: its next or former page
          page_[std::size_t(b)] += name == "FWINRT" ? 1 : -1;
        }
      }
    }
    show(b, session, now);
    // The journal hears of a display found, lost or not reached (once per change).
    const std::string state =
        d->connected() ? "connected, " + std::to_string(d->cells()) + " cells" : d->fault();
    if (state != state_[std::size_t(b)]) {
      state_[std::size_t(b)] = state;
      journal_ << "tactiled: braille display " << game::board_letter(b) << ": " << state
               << std::endl;
    }
  }
}

void LiveBraille::show(int board, const game::Session& session, std::int64_t now) {
  braille::BrlapiDisplay& d = *displays_[std::size_t(board)];
  const std::string& alert = brief_[std::size_t(board)].empty() ? lasting_[std::size_t(board)]
                                                                : brief_[std::size_t(board)];
  RecordView& r = record_[std::size_t(board)];
  if (r.until >= 0 && now >= r.until) r = {};
  std::string text;
  if (r.until >= 0) {  // the record asked for, a move pair a page, over any alert
    const std::vector<std::string> pairs = braille_record(session, board);
    r.back = std::clamp(r.back, 0, std::max(0, int(pairs.size()) - 1));
    text = pairs.empty() ? "-" : pairs[pairs.size() - 1 - std::size_t(r.back)];
  } else if (!alert.empty()) {
    text = alert;
  } else {
    text = braille_line(session, board, now);
  }
  if (d.cells() == 0) return;
  // Wider than the display: pages of its width (FWINRT, FWINLT move through them).
  const std::vector<std::string> pages = record::braille_pages(text, int(d.cells()));
  int& page = page_[std::size_t(board)];
  page = std::clamp(page, 0, std::max(0, int(pages.size()) - 1));
  d.show(pages.empty() ? std::string() : pages[std::size_t(page)], now);
}

void LiveBraille::alert(int board, const std::string& text, Stays stays) {
  if (board < 0 || board > 1 || !displays_[std::size_t(board)]) return;
  (stays == Stays::UntilCleared ? lasting_ : brief_)[std::size_t(board)] = text;
  // A lasting alert (the game's end, a board that differs) replaces a brief one at once:
  // the warning or refusal before it is stale and never comes back.
  if (stays == Stays::UntilCleared) brief_[std::size_t(board)].clear();
  page_[std::size_t(board)] = 0;
  record_[std::size_t(board)] = {};  // the alert is newer than the record asked for
}

void LiveBraille::record(int board, std::int64_t now) {
  if (board < 0 || board > 1 || !displays_[std::size_t(board)]) return;
  RecordView& r = record_[std::size_t(board)];
  r.back = r.until >= 0 && now < r.until ? r.back + 1 : 0;
  r.until = now + kRecordMs;
  page_[std::size_t(board)] = 0;
}

void LiveBraille::end_brief_alert(int board) {
  if (board >= 0 && board <= 1) brief_[std::size_t(board)].clear();
}

void LiveBraille::clear_alert(int board) {
  if (board < 0 || board > 1) return;
  brief_[std::size_t(board)].clear();
  lasting_[std::size_t(board)].clear();
}

std::vector<std::string> LiveBraille::faults() const {
  std::vector<std::string> f;
  for (int b = 0; b < 2; ++b)
    if (const auto& d = displays_[std::size_t(b)]; d && !d->connected() && !d->fault().empty())
      f.push_back(std::string(b == 0 ? "braille: " : "braille-b: ") + d->fault());
  return f;
}

}  // namespace tactile::daemon
