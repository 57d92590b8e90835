// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactilectl/self_test_phrases.h"

#include "core/record/move_phrase.h"

namespace tactile::ctl {

const SelfTestPhrases& self_test_phrases(record::Language l) {
  static const SelfTestPhrases de{"Stellen Sie die Figuren in die Grundstellung.",
                                  "Heben Sie die Figur von {} und setzen Sie sie zurück.",
                                  "Nehmen Sie die Figur von {} in die Hand.",
                                  "Setzen Sie die Figur auf {} und nehmen Sie sie wieder heraus.",
                                  "Setzen Sie die Figur zurück auf {}.",
                                  "Auf {} hat sich nichts geändert.",
                                  "Auf {} hat ein anderes Feld geantwortet.",
                                  "Die Grundstellung stimmt nicht. Es geht weiter.",
                                  "Selbsttest bestanden.",
                                  "Selbsttest nicht bestanden. Bitte den Schiedsrichter rufen.",
                                  "Wenn Sie das hoeren, druecken Sie Ansage. Zeit ueberspringt."};
  static const SelfTestPhrases en{"Set the pieces up in their start position.",
                                  "Lift the piece from {} and put it back.",
                                  "Take the piece from {} in your hand.",
                                  "Put the piece into {} and take it out again.",
                                  "Put the piece back into {}.",
                                  "Nothing changed at {}.",
                                  "Another hole answered for {}.",
                                  "The start position reads wrong. Going on.",
                                  "Self-test passed.",
                                  "Self-test failed. Please call the arbiter.",
                                  "If you hear this, press announce. Time skips."};
  static const SelfTestPhrases ru{"Расставьте фигуры в начальную позицию.",
                                  "Поднимите фигуру с поля {} и поставьте обратно.",
                                  "Возьмите фигуру с поля {} в руку.",
                                  "Поставьте фигуру на поле {} и снимите снова.",
                                  "Поставьте фигуру обратно на поле {}.",
                                  "На поле {} ничего не изменилось.",
                                  "За поле {} ответило другое поле.",
                                  "Начальная позиция читается неверно. Продолжаем.",
                                  "Самотест пройден.",
                                  "Самотест не пройден. Позовите арбитра.",
                                  "Если вы это слышите, нажмите объявление. Время пропускает."};
  return record::in_language(l, de, en, ru);
}

}  // namespace tactile::ctl
