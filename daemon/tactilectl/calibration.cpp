// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactilectl/calibration.h"

#include <poll.h>

#include <bit>
#include <chrono>
#include <ostream>
#include <utility>

#include "core/chess/uci.h"
#include "core/record/move_phrase.h"

namespace tactile::ctl {
namespace {

using record::Language;

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// What calibrate says, in the game's languages; {} is replaced by the square's words.
struct Phrases {
  const char* lift;
  const char* put;
  const char* two;
  const char* taken;
  const char* went_in;
  const char* came_out;
  const char* nothing;
  const char* back_in;
  const char* back_out;
  const char* set_up;
  const char* done;
};

const Phrases& phrases(Language l) {
  static const Phrases de{
      "Heben Sie die Figur von {}.",
      "Setzen Sie eine Figur auf {}.",
      "Zwei Felder haben sich zugleich geändert. Stellen Sie alles zurück, wie es war.",
      "Dieses Loch ist schon {}. Stellen Sie alles zurück, wie es war.",
      "Eine Figur wurde eingesetzt, nicht gehoben. Stellen Sie alles zurück, wie es war.",
      "Eine Figur wurde gehoben, nicht eingesetzt. Stellen Sie alles zurück, wie es war.",
      "Nichts hat sich geändert.",
      "Einen Schritt zurück: setzen Sie die Figur wieder auf {}.",
      "Einen Schritt zurück: nehmen Sie die Figur wieder von {}.",
      "Stellen Sie die Figuren in die Grundstellung: 32 Figuren.",
      "Kalibrierung fertig."};
  static const Phrases en{"Lift the piece from {}.",
                          "Put a piece into {}.",
                          "Two holes changed at once. Put everything back as it was.",
                          "That hole is already {}. Put everything back as it was.",
                          "A piece went in, not out. Put everything back as it was.",
                          "A piece came out, not in. Put everything back as it was.",
                          "Nothing changed.",
                          "Back one step: put the piece back into {}.",
                          "Back one step: take the piece out of {} again.",
                          "Set the pieces up in their start position: 32 pieces.",
                          "Calibration done."};
  static const Phrases ru{"Поднимите фигуру с поля {}.",
                          "Поставьте фигуру на поле {}.",
                          "Изменились сразу два поля. Верните всё, как было.",
                          "Это гнездо уже {}. Верните всё, как было.",
                          "Фигуру поставили, а не подняли. Верните всё, как было.",
                          "Фигуру подняли, а не поставили. Верните всё, как было.",
                          "Ничего не изменилось.",
                          "Шаг назад: поставьте фигуру обратно на поле {}.",
                          "Шаг назад: снова снимите фигуру с поля {}.",
                          "Расставьте фигуры в начальную позицию: 32 фигуры.",
                          "Калибровка закончена."};
  return record::in_language(l, de, en, ru);
}

using record::with_square;

std::uint64_t bit(int i) {
  return std::uint64_t{1} << i;
}

}  // namespace

std::vector<CalibrationStep> calibration_steps() {
  std::vector<CalibrationStep> steps;
  for (int rank : {0, 1, 6, 7})
    for (int file = 0; file < 8; ++file) steps.push_back({chess::make_square(file, rank), true});
  for (int rank = 2; rank <= 5; ++rank)
    for (int file = 0; file < 8; ++file) steps.push_back({chess::make_square(file, rank), false});
  return steps;
}

Calibration::Calibration(RawBoard& board, speech::Speaker* speaker, int keys_fd, std::ostream& out,
                         CalibrationOptions options)
    : board_(board), speaker_(speaker), keys_(keys_fd), out_(out), options_(options) {}

void Calibration::tell(const std::string& tag, const std::string& text) {
  out_ << tag << ": " << text << std::endl;
  if (speaker_) {
    speaker_->cancel();  // the newest instruction is the one that counts
    speaker_->say(text);
  }
}

void Calibration::service() {
  std::vector<std::string> notes;
  board_.service(buttons_, notes);
  for (const std::string& n : notes) out_ << n << std::endl;
}

Calibration::Input Calibration::wait(std::uint64_t before, std::int64_t deadline_ms) {
  for (;;) {
    if (board_.ready() && board_.switches() != before) return Input::Switches;
    // Taken out before they are read: the first press that means something counts, the
    // rest were pressed with it.
    for (const board::Button b : std::exchange(buttons_, {})) {
      if (b == board::Button::Repeat) return Input::Repeat;
      if (b == board::Button::Correct) return Input::Back;
    }
    if (const std::optional<std::string> line = keys_.line()) {
      if (line->empty() || *line == "r") return Input::Repeat;
      if (*line == "b") return Input::Back;
      if (*line == "q") return Input::Quit;
      out_ << "Keys: Enter or r repeats the step, b goes back one step, q stops." << std::endl;
      continue;
    }
    const std::int64_t now = now_ms();
    if (now >= deadline_ms) return Input::Timeout;
    std::int64_t wait = deadline_ms - now;
    if (board_.timeout_ms() >= 0 && board_.timeout_ms() < wait) wait = board_.timeout_ms();
    keys_.wait(board_.fd(), wait);
    service();
  }
}

void Calibration::pause(std::int64_t until_ms) {
  for (std::int64_t now = now_ms(); now < until_ms; now = now_ms()) {
    pollfd p{board_.fd(), POLLIN, 0};
    std::int64_t wait = until_ms - now;
    if (board_.timeout_ms() >= 0 && board_.timeout_ms() < wait) wait = board_.timeout_ms();
    ::poll(&p, p.fd >= 0 ? 1 : 0, int(wait));
    service();
  }
}

bool Calibration::wait_for(std::uint64_t wanted, const std::string& tag, const std::string& text) {
  std::int64_t deadline = now_ms() + options_.timeout_ms;
  while (!board_.ready() || board_.switches() != wanted) {
    switch (wait(board_.ready() ? board_.switches() : 0, deadline)) {
      case Input::Quit:
        return false;
      case Input::Timeout:
      case Input::Repeat:
        tell(tag, text);
        deadline = now_ms() + options_.timeout_ms;
        break;
      default:
        break;
    }
  }
  return true;
}

std::optional<board::SwitchMap> Calibration::run() {
  const Phrases& say = phrases(options_.language);
  const Language lang = options_.language;
  const record::SquareWording squares = options_.squares;
  const std::vector<CalibrationStep> steps = calibration_steps();
  const int count = int(steps.size());
  while (!board_.ready()) {
    if (wait(0, now_ms() + options_.timeout_ms) == Input::Quit) return std::nullopt;
  }
  if (std::popcount(board_.switches()) != 32) {
    tell("Start", say.set_up);
    std::int64_t deadline = now_ms() + options_.timeout_ms;
    while (std::popcount(board_.switches()) != 32) {
      const Input in = wait(board_.switches(), deadline);
      if (in == Input::Quit) return std::nullopt;
      if (in == Input::Timeout || in == Input::Repeat) {
        tell("Start", say.set_up);
        deadline = now_ms() + options_.timeout_ms;
      }
    }
  }
  out_ << "Board found: 32 holes occupied. Follow the steps (keys: Enter or r repeats, b goes "
          "back, q stops)."
       << std::endl;

  std::vector<std::uint64_t> before(std::size_t(count) + 1, 0);
  std::vector<int> switch_of(std::size_t(count), -1);
  board::SwitchMap map;
  map.fill(chess::NoSquare);
  before[0] = board_.switches();
  for (int k = 0; k < count;) {
    const CalibrationStep step = steps[std::size_t(k)];
    const std::string name = chess::square_name(step.square);
    const std::string tag =
        "Step " + std::to_string(k + 1) + " of " + std::to_string(count) + ", " + name;
    const std::string ask = with_square(step.lift ? say.lift : say.put, step.square, lang, squares);
    tell(tag, ask);
    bool again = false;
    while (!again) {
      const Input in = wait(before[std::size_t(k)], now_ms() + options_.timeout_ms);
      if (in == Input::Quit) return std::nullopt;
      if (in == Input::Repeat) {
        again = true;
      } else if (in == Input::Timeout) {
        tell("Timeout, " + name, say.nothing);
        again = true;
      } else if (in == Input::Back) {
        if (k == 0) {
          again = true;
          continue;
        }
        const CalibrationStep last = steps[std::size_t(k - 1)];
        map[std::size_t(switch_of[std::size_t(k - 1)])] = chess::NoSquare;
        --k;
        const std::string back_tag =
            "Back to step " + std::to_string(k + 1) + ", " + chess::square_name(last.square);
        const std::string text =
            with_square(last.lift ? say.back_in : say.back_out, last.square, lang, squares);
        tell(back_tag, text);
        if (!wait_for(before[std::size_t(k)], back_tag, text)) return std::nullopt;
        again = true;
      } else if (in == Input::Switches) {
        // Whatever else changes within the settle time belongs to this step.
        pause(now_ms() + options_.settle_ms);
        const std::uint64_t now = board_.switches(), diff = now ^ before[std::size_t(k)];
        if (diff == 0) continue;  // out and back in (or in and out): still this step
        std::string refusal;
        const int s = std::countr_zero(diff);
        if (std::popcount(diff) > 1)
          refusal = say.two;
        else if (map[std::size_t(s)] != chess::NoSquare)
          refusal = with_square(say.taken, map[std::size_t(s)], lang, squares);
        else if (step.lift != !(now & bit(s)))
          refusal = step.lift ? say.went_in : say.came_out;
        if (!refusal.empty()) {
          tell("Refused, " + name, refusal);
          if (!wait_for(before[std::size_t(k)], "Refused, " + name, refusal)) return std::nullopt;
          again = true;
          continue;
        }
        map[std::size_t(s)] = step.square;
        switch_of[std::size_t(k)] = s;
        before[std::size_t(k) + 1] = now;
        out_ << "  " << name << " is switch " << s << std::endl;
        ++k;
        break;
      }
    }
  }
  tell("Done", say.done);
  return map;
}

}  // namespace tactile::ctl
