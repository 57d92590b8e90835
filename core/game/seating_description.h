// SPDX-License-Identifier: GPL-3.0-or-later
// What a seating says of itself, in its own file (one_board.cpp, sighted.cpp,
// two_boards.cpp, engine.cpp): its name, its boards, its config keys and their checks, what its
// start record holds and how its rules are made. The config, the log entries, resume, the manual
// and the daemon ask this description, never which seating it is; the registry
// (seatings.h) is the only list of them (docs/architecture.md, "Seatings").
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/board/events.h"
#include "core/chess/types.h"
#include "core/record/language.h"

namespace tactile::game {

struct SessionConfig;
class SeatingRules;

// A seating's own settings by config key ("player", "board-a", "language-b"), each value
// as given and checked by its seating's description when it was set. Copied with the
// session's config; a key that is absent takes the seating's default.
using SeatingOptions = std::map<std::string, std::string, std::less<>>;

// One config key of a seating (the same word as a --key option on the command line).
struct SeatingKey {
  const char* key;
  const char* values;  // what it takes, for the manual's synopsis: "white|black"
  const char* help;    // one line of the options' help: "sighted: the blind player's ..."
  // (In help and manual_keys, "%T" stands for the board transports' names, "gpio, serial or
  // script", and "%|" for them as choices, "gpio | serial | script": the daemon's table,
  // which the core does not know, fills them in.)
};

// The last record of each of a seating's note types (note_records) in a log, by type, as
// resume read them: what the seating reads of its daemon side's last word on resumption.
using SeatingNotes = std::map<std::string, nlohmann::json, std::less<>>;

class SeatingDescription {
 public:
  virtual ~SeatingDescription() = default;

  // What every seating says, or more than one overrides.
  // Its value of the config key `seating`, of --seating and of the start record's field.
  virtual std::string_view name() const = 0;
  // Whether what happens is said per board (A, B) in printed lines: where the board is
  // the only one and carries both sides, it is not.
  virtual bool names_boards() const { return true; }
  // Its config keys, in the order they are checked.
  virtual std::span<const SeatingKey> keys() const { return {}; }
  // Takes `value` for `key` (one of keys()) into `options`: "" when good, else why not
  // ("'x' is not white or black"). Keys come in keys()' order, so a check may look at
  // what `options` holds already. The default takes nothing (a seating with no keys).
  virtual std::string set(SeatingOptions& options, std::string_view key,
                          const std::string& value) const;
  // Whether its key `key` (board-b) takes a board's driver only (gpio, serial...): the
  // config passes the driver named to set() instead of leaving it to the boards alone.
  virtual bool driver_key(std::string_view) const { return false; }
  // Its fields of the log's start record (after "seating"), written from `options` and
  // read back; reading throws chess::ParseError "FIELD: why".
  virtual void write_start(const SeatingOptions&, nlohmann::ordered_json&) const {}
  virtual SeatingOptions read_start(const nlohmann::json&) const { return {}; }
  // Its paragraph of the --seating option in tactiled --help, and its lines of the
  // manual's config keys (indented as there): lines ending in a newline.
  virtual std::string_view manual() const = 0;
  virtual std::string_view manual_keys() const { return {}; }
  // Its rules for a game of `config` (config.seating is this description).
  virtual std::unique_ptr<SeatingRules> make_rules(const SessionConfig& config) const = 0;

  // Whether `key` is one of its keys.
  bool has_key(std::string_view key) const;

  // What one seating alone has: asked here, answered by what it registered
  // (callbacks_, set in its constructor, as mosquitto's plugins register only the
  // callbacks they use), else by the default each line says.
  // The number of boards it plays on (board A, and board B when 2); 1.
  int boards() const { return callbacks_.boards; }
  // The form of it that seats a game of `options`, every key set (the sighted seating
  // with a board B of the sighted player's plays on two boards): the config and resume
  // take their description from here once the options are read. Itself.
  const SeatingDescription& seated(const SeatingOptions& o) const {
    return callbacks_.seated ? callbacks_.seated(o) : *this;
  }
  // Why `options`, every key given set, cannot seat a game ("" if they can): a key it
  // needs that was not given. The config names the `seating` setting with it. "".
  std::string missing(const SeatingOptions& o) const {
    return callbacks_.missing ? callbacks_.missing(o) : std::string();
  }
  // The PGN tags it gives a game of `options` (the engine's side, Event); a tag the
  // arbiter set (new-game, the players record) comes first. None.
  std::map<std::string, std::string> pgn_tags(const SeatingOptions& o) const {
    return callbacks_.pgn_tags ? callbacks_.pgn_tags(o) : std::map<std::string, std::string>();
  }
  // Whether a game of `options` is training, never a tournament game (status
  // "training"). false.
  bool training(const SeatingOptions& o) const {
    return callbacks_.training && callbacks_.training(o);
  }
  // Its own fields of the control socket's `status` answer (after "seating"). None.
  void status_fields(const SeatingOptions& o, nlohmann::json& j) const {
    if (callbacks_.status_fields) callbacks_.status_fields(o, j);
  }
  // The language of `board`'s player where the seating sets it (board B's own);
  // nullopt: the game's language.
  std::optional<record::Language> language(const SeatingOptions& o, int board) const {
    return callbacks_.language ? callbacks_.language(o, board) : std::nullopt;
  }
  // The types of the log records the daemon writes of its own for a game of this seating
  // (the engine seating's `engine` note before a hint it says): resume and the log's
  // followers take them as known, and a phrase said right after one as the daemon's own,
  // no output of the session. None.
  std::span<const std::string_view> note_records() const { return callbacks_.note_records; }
  // A button of its own its board must have (the sighted player's clock), and why, in
  // words ("the sighted player's clock button"; "" if it needs none): a GPIO board's wiring
  // without it is refused. None.
  struct ButtonNeed {
    board::Button button;
    std::string_view why;
  };
  const ButtonNeed& button_need() const { return callbacks_.button_need; }

 protected:
  // What a seating registers of the above (plain functions: a description has no state).
  struct Callbacks {
    int boards = 1;
    const SeatingDescription& (*seated)(const SeatingOptions&) = nullptr;
    std::string (*missing)(const SeatingOptions&) = nullptr;
    std::map<std::string, std::string> (*pgn_tags)(const SeatingOptions&) = nullptr;
    bool (*training)(const SeatingOptions&) = nullptr;
    void (*status_fields)(const SeatingOptions&, nlohmann::json&) = nullptr;
    std::optional<record::Language> (*language)(const SeatingOptions&, int) = nullptr;
    std::span<const std::string_view> note_records;
    ButtonNeed button_need;
  };
  Callbacks callbacks_;
};

// The checks and readings the descriptions share (seating_description.cpp).
// "" if `value` is white or black, else why not.
std::string colour_fault(const std::string& value);
// "" if `value` is a language code (de, en, ru), else why not.
std::string language_fault(const std::string& value);
// The colour `options` holds for `key` (checked when set), or `fallback`.
chess::Color colour_option(const SeatingOptions& options, std::string_view key,
                           chess::Color fallback);
// "white" or "black".
std::string colour_name(chess::Color c);
// The start record's colour field `field` (throws chess::ParseError "FIELD: why").
chess::Color colour_from_start(const nlohmann::json& start, const char* field);

}  // namespace tactile::game
