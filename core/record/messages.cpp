// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/record/messages.h"

#include <array>
#include <cstddef>

namespace tactile::record {
namespace {

constexpr std::size_t kCount = static_cast<std::size_t>(Message::Count);

// [message] = {German, English, Russian}, in the order of the enum.
constexpr std::array<std::array<std::string_view, 3>, kCount> kTexts = {{
    {"Unzulaessiger Zug", "Illegal move", "Невозможный ход"},
    {"Die Bretter stimmen nicht ueberein", "The boards differ", "Позиции на досках различаются"},
    {"Zug nicht eindeutig, bitte pruefen", "Ambiguous move, please check",
     "Ход неоднозначен, проверьте"},
    {"Bitte die Stellung wiederherstellen", "Please restore the position", "Восстановите позицию"},
    {"Korrigiert", "Corrected", "Исправлено"},
    {"Weiss hat die Zeit ueberschritten", "White's flag has fallen", "У белых упал флажок"},
    {"Schwarz hat die Zeit ueberschritten", "Black's flag has fallen", "У чёрных упал флажок"},
    {"Beide Zeiten abgelaufen", "Both flags have fallen", "Упали оба флажка"},
    {"Uhr angehalten", "Clock stopped", "Часы остановлены"},
    {"Uhr laeuft weiter", "Clock running again", "Часы снова идут"},
    {"Partie unterbrochen, Zug abgegeben", "Game adjourned, move sealed",
     "Партия отложена, ход записан"},
    {"Partie wird fortgesetzt", "Game resumed", "Партия возобновлена"},
    {"Weiss gewinnt", "White wins", "Белые выиграли"},
    {"Schwarz gewinnt", "Black wins", "Чёрные выиграли"},
    {"Remis", "Draw", "Ничья"},
    {"Schachmatt", "Checkmate", "Мат"},
    {"Patt", "Stalemate", "Пат"},
    {"Tote Stellung, Remis", "Dead position, draw", "Мёртвая позиция, ничья"},
    {"Richtig?", "Correct?", "Верно?"},
    {"Brett getrennt", "Board disconnected", "Доска отключена"},
    {"Brett verbunden", "Board connected", "Доска подключена"},
    {"Partie fortgesetzt", "Game continued", "Партия продолжена"},
    {"Stoerung, bitte den Schiedsrichter rufen", "Fault, please call the arbiter",
     "Сбой, позовите арбитра"},
    {"Partieformular kann nicht gespeichert werden, bitte den Schiedsrichter rufen",
     "The game record cannot be saved, please call the arbiter",
     "Запись партии не сохраняется, позовите арбитра"},
    {"Partieformular wieder gespeichert", "The game record is saved again",
     "Запись партии снова сохраняется"},
    {"Brett falsch", "Board wrong", "Доска неверна"},
    {"leer", "empty", "пусто"},
    {"besetzt", "occupied", "занято"},
    {"Zuerst den Zug des Gegners ausfuehren", "First make the opponent's move on your board",
     "Сначала сделайте ход соперника на своей доске"},
    {"Gegner", "Opponent", "Соперник"},
    {"Uhr nicht gestartet", "Clock not started", "Часы не запущены"},
    {"Bitte pruefen", "Check", "Проверьте"},
    {"Zug von aussen abgelehnt", "Move from outside refused", "Ход извне отклонён"},
    {"Sprachausgabe wieder da, Ansagen fehlten", "Speech is back, announcements were missed",
     "Речь восстановлена, сообщения были пропущены"},
    {"Brett richtig", "Board right", "Доска верна"},
}};

constexpr bool all_filled() {
  for (const auto& row : kTexts)
    for (std::string_view t : row)
      if (t.empty()) return false;
  return true;
}
static_assert(all_filled(), "every message needs a text in every language");

}  // namespace

std::string_view message_text(Message m, Language lang) {
  auto i = static_cast<std::size_t>(m);
  if (i >= kCount) return {};
  return kTexts[i][static_cast<std::size_t>(lang)];
}

}  // namespace tactile::record
