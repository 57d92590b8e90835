// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/game/resume.h"

#include <algorithm>
#include <optional>

#include "core/chess/error.h"
#include "core/chess/text_check.h"
#include "core/game/arbiter.h"
#include "core/game/json_integer.h"
#include "core/game/log_entries.h"
#include "core/game/player_settings.h"
#include "core/game/seatings.h"
#include "core/game/setup_rules.h"
#include "core/record/arbiter_log.h"

namespace tactile::game {
namespace {

// A last line a power cut may have cut short: it lacks its newline or is not JSON.
bool torn(std::string_view line, bool has_newline) {
  if (!has_newline) return true;
  const auto j = nlohmann::json::parse(line, nullptr, false);
  return j.is_discarded() || !j.is_object();
}

// Runs `read` and puts "line N: " before the reader's "FIELD: why".
template <typename Read>
auto at_line(std::size_t line, Read read) {
  try {
    return read();
  } catch (const chess::ParseError& e) {
    throw chess::ParseError("line " + std::to_string(line) + ": " + e.what());
  }
}

// A record the daemon writes of its own for some seating (SeatingDescription::note_records).
bool seating_note_record(std::string_view type) {
  for (const SeatingDescription* s : seatings())
    for (std::string_view note : s->note_records())
      if (note == type) return true;
  return false;
}

// The records the session makes (output_entries): one per output kind, and the clocks.
bool session_record(const std::string& type) {
  return type == "clock" || is_output_name(type);
}
// A phrase the daemon says itself, not the session: "Board connected" or "Board
// disconnected" right after the board record, "Game continued" right after the resume
// record, the record failing or saved again right after the pgn record (live mode: board_set.cpp,
// live.cpp, game_file_set.cpp), the engine's hint or its failure right after the engine
// record (engine_opponent.h), and in general right after a seating's note record;
// "speech is back" right after the fault record that clears a speech fault
// (player_outputs.cpp).
bool daemon_speech(const std::string& type, const std::string& previous_type) {
  return type == "speak" && (previous_type == "board" || previous_type == "resume" ||
                             previous_type == "pgn" || previous_type == "health" ||
                             previous_type == "fault" || seating_note_record(previous_type));
}

// What the daemon feeds the session: board events and the arbiter's commands.
bool event_record(const std::string& type) {
  return type == "hole" || type == "button" || type == "arbiter" || type == "heard" ||
         type == "outside-move";
}

// A record as it compares: what the writer makes of it, without its place in the chain.
nlohmann::json comparable(const nlohmann::ordered_json& entry) {
  return nlohmann::json::parse(
      entry.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

}  // namespace

SessionConfig config_from_start_entry(const nlohmann::json& start) {
  if (!start.is_object() || !start.contains("type") || start["type"] != "start")
    throw chess::ParseError("line 1: the first entry is not the start entry");
  return at_line(1, [&] {
    SessionConfig config;
    time_from_entry(start);
    try {
      config.start = chess::Position::from_fen(string_from_entry(start, "fen"));
    } catch (const chess::ParseError& e) {
      throw chess::ParseError(std::string("fen: ") + e.what());
    }
    if (const std::string fault = start_position_fault(config.start); !fault.empty())
      throw chess::ParseError("fen: " + fault);
    if (start.value("chess960", false)) config.start.set_chess960(true);
    const std::string completion = string_from_entry(start, "completion");
    if (completion == "auto")
      config.recognizer.completion = board::Completion::Auto;
    else if (completion == "button")
      config.recognizer.completion = board::Completion::Button;
    else
      throw chess::ParseError("completion: '" + completion + "' is not auto or button");
    // The config's range (setup_rules.h); a value past 2^63 is no whole number here.
    const nlohmann::json& settle = start.contains("settle_ms") ? start["settle_ms"] : nullptr;
    const auto settle_ms = json_integer<std::int64_t>(settle, 0, kMaxSettleMs);
    if (!settle_ms)
      throw chess::ParseError("settle_ms: " + settle.dump() + " is not a whole number from 0 to " +
                              std::to_string(kMaxSettleMs));
    config.recognizer.settle_ms = *settle_ms;
    const std::string tc = string_from_entry(start, "time_control");
    if (!tc.empty()) {
      try {
        config.time_control = clock::parse_time_control(tc);
      } catch (const chess::ParseError& e) {
        throw chess::ParseError(std::string("time_control: ") + e.what());
      }
    }
    config.both_flags_draw = start.value("both_flags_draw", false);
    if (start.contains("wait_for_start") && !start["wait_for_start"].is_boolean())
      throw chess::ParseError("wait_for_start: not true or false");
    config.wait_for_start = start.value("wait_for_start", false);
    const std::string lang = string_from_entry(start, "language");
    if (!record::parse_language(lang, config.language))
      throw chess::ParseError("language: '" + lang + "' is not de, en or ru");
    // A log written before seatings existed is a one-board game (the default).
    config.seating = &default_seating();
    if (start.contains("seating")) {
      const std::string seating = string_from_entry(start, "seating");
      config.seating = find_seating(seating);
      if (!config.seating)
        throw chess::ParseError("seating: '" + seating + "' is not " + seating_names(", ", " or "));
    }
    config.seating_options = config.seating->read_start(start);
    config.seating = &config.seating->seated(config.seating_options);  // its boards as logged
    // A log written before these fields spoke the squares as tactiled then did: German
    // by D.2.1's names, English and Russian by letters; the resumed game goes on so.
    for (int b = 0; b < 2; ++b) {
      const std::string suffix = b == 1 ? "_b" : "";
      record::SquareWording& w = config.square_wording[std::size_t(b)];
      if (board_language(config, b) != record::Language::German)
        w.names = record::SquareNames::Letters;
      if (start.contains("square_names" + suffix)) {
        const std::string v = string_from_entry(start, ("square_names" + suffix).c_str());
        if (!record::parse_square_names(v, w.names))
          throw chess::ParseError("square_names" + suffix + ": '" + v +
                                  "' is not names or letters");
      }
      if (start.contains("rank_words" + suffix)) {
        const std::string v = string_from_entry(start, ("rank_words" + suffix).c_str());
        if (!record::parse_rank_words(v, w.ranks))
          throw chess::ParseError("rank_words" + suffix + ": '" + v +
                                  "' is not language or german");
      }
    }
    return config;
  });
}

namespace {

struct Split {
  std::string_view good;  // the whole lines
  std::string torn;       // a torn last line, "" if none
};

// Finds the last line; drops it if torn.
Split split_torn(std::string_view text) {
  Split s{text, {}};
  if (!text.empty()) {
    const bool has_newline = text.back() == '\n';
    const std::string_view body = has_newline ? text.substr(0, text.size() - 1) : text;
    const std::size_t cut = body.rfind('\n');
    const std::size_t start = cut == std::string_view::npos ? 0 : cut + 1;
    const std::string_view last = body.substr(start);
    if (torn(last, has_newline)) {
      s.torn = std::string(last);
      s.good = text.substr(0, start);
    }
  }
  return s;
}

// A record of the log that the session makes, as recorded.
struct Recorded {
  std::size_t line = 0;
  nlohmann::json record;
};

// The log between two restarts: what it records, and where its derived records begin.
struct Segment {
  std::size_t derived_from = 0;
  std::vector<Recorded> recorded;
};

// A log replayed entry by entry: the session fed each input at its logged time, and
// each record the log says the session made compared with the one the inputs make, as
// soon as both are there (so the work of an entry is that entry's, not the log's again).
// rebuild() feeds a whole log; LogFollower feeds a log as it grows.
struct Replayer {
  explicit Replayer(const nlohmann::json& start)
      : r(config_from_start_entry(start)), before_seatings(!start.contains("seating")) {
    if (start.contains("game_id")) {
      r.game_id = at_line(1, [&] { return string_from_entry(start, "game_id"); });
      if (!valid_game_id(r.game_id))
        throw chess::ParseError("line 1: game_id: not 32 lowercase hex digits");
    }
    r.players = at_line(1, [&] { return players_from_start(start); });
    r.players_at_start = r.players;
    share_brief();
    // The game starts at the start entry's time, as GameRunner starts it.
    r.last_ms = time_from_entry(start);
    r.session.start(r.last_ms, out);
    take();
    event_ms = r.last_ms;
  }

  // Each board's brief-below as the log set it, to the session (GameRunner does the same).
  void share_brief() {
    for (int b = 0; b < 2; ++b)
      r.session.set_brief_below(b, r.players[std::size_t(b)].brief_below_ms);
  }
  // What the session makes, as the daemon logs it after each call (output_entries).
  void take() {
    for (const Output& o : out) {
      // A log written before seatings existed (its start entry names none) has no
      // rollback record: the arbiter's command alone recorded it.
      if (before_seatings && std::holds_alternative<Rollback>(o)) continue;
      for (const LogEntry& e : output_entries(o, r.session)) derived.push_back(comparable(e));
    }
    out.clear();
  }
  // As the daemon's loop wakes at each deadline and logs what it brings: a clock record
  // then reads the clocks as they stood after that deadline, not after a later one.
  void advance(std::int64_t ms) {
    for (std::int64_t due = r.session.next_deadline(); due <= ms;) {
      r.session.advance(due, out);
      take();
      const std::int64_t next = r.session.next_deadline();
      if (next == due) break;  // nothing moved on: the last advance below does the rest
      due = next;
    }
    r.session.advance(ms, out);
    take();
  }
  // The derived records are kept only from the first one not compared yet (derived_base
  // is the index of derived[0]), the recorded ones of the last segment only from the first
  // not compared yet (`checked` of them were): what the replayer holds stays small however
  // long the log, so a copy of it (LogFollower::game) costs little more than the session.
  std::size_t derived_count() const { return derived_base + derived.size(); }

  // Each record of the last segment against the derived one at its place, once both are
  // there: a derived record never changes once made.
  void check() {
    Segment& seg = segments.back();
    std::size_t done = 0;
    for (; done < seg.recorded.size() && seg.derived_from + checked + done < derived_count();
         ++done) {
      const Recorded& rec = seg.recorded[done];
      const nlohmann::json& d = derived[seg.derived_from + checked + done - derived_base];
      if (rec.record != d)
        differences.push_back(
            {rec.line, "recorded " + rec.record.dump() + ", but the events make " + d.dump()});
    }
    seg.recorded.erase(seg.recorded.begin(), seg.recorded.begin() + std::ptrdiff_t(done));
    checked += done;
    const std::size_t keep_from = std::min(seg.derived_from + checked, derived_count());
    derived.erase(derived.begin(), derived.begin() + std::ptrdiff_t(keep_from - derived_base));
    derived_base = keep_from;
  }
  // The last segment ends where the derived records are now: its records not compared are
  // outputs the events do not make (a crash cuts off derived records, never recorded ones).
  void close_segment() {
    for (const Recorded& rec : segments.back().recorded)
      differences.push_back({rec.line, "recorded " + rec.record.dump() +
                                           ", but the events make no " +
                                           rec.record.value("type", "") + " record here"});
    segments.back().recorded.clear();
  }
  // A restart of the daemon: a new segment begins at the derived records made so far.
  void new_segment() {
    close_segment();
    derived_base = derived_count();
    derived.clear();
    segments.back() = Segment{derived_base, {}};
    checked = 0;
  }

  void feed(const nlohmann::json& j, std::size_t line) {
    const std::int64_t ms = at_line(line, [&] { return time_from_entry(j); });
    r.last_ms = std::max(r.last_ms, ms);
    const std::string type = at_line(line, [&] { return string_from_entry(j, "type"); });
    if (!known_record_type(type))
      throw chess::ParseError("line " + std::to_string(line) + ": type: '" + type +
                              "' is not a record type of the arbiter log");
    if (event_record(type) && ms < event_ms)
      throw chess::ParseError("line " + std::to_string(line) + ": t: " + std::to_string(ms) +
                              " goes back before the previous event's time " +
                              std::to_string(event_ms));
    if (type == "hole") {
      const LoggedHole h = at_line(line, [&] { return hole_from_entry(j); });
      event_ms = ms;
      advance(ms);  // what fell due before the event comes first
      r.session.on_hole(h.board, h.event, out);
      take();
    } else if (type == "heard") {
      // The end of a spoken question, an input like a button.
      const LoggedHeard h = at_line(line, [&] { return heard_from_entry(j); });
      event_ms = ms;
      advance(ms);
      r.session.heard(h.board, h.question, ms, out);
      take();
    } else if (type == "button") {
      const LoggedButton b = at_line(line, [&] { return button_from_entry(j); });
      event_ms = ms;
      advance(ms);
      // A press the player's channel took (the record read back, the board checked, the
      // speech rate, a repeat of the channel's phrase) is no input of the session, nor is
      // a start the daemon held for its engine (its arbiter `start` record follows).
      if (!j.value("channel", false) && !j.value("held", false))
        r.session.on_button(b.board, b.event, out);
      take();
    } else if (type == "outside-move") {
      // A move from outside the boards (an engine's), logged before it acted: no engine
      // is asked again, the record is the move.
      const LoggedOutsideMove m = at_line(line, [&] { return outside_move_from_entry(j); });
      event_ms = ms;
      advance(ms);
      r.session.on_outside_move(ms, m.uci, m.source, out);
      take();
    } else if (type == "setting") {
      at_line(line, [&] { apply_setting_entry(j, r.players); });
      share_brief();
    } else if (type == "arbiter") {
      // The arbiter's command, logged before it took effect, does it again.
      const ArbiterCommand c = at_line(line, [&] { return arbiter_command_from_json(j); });
      event_ms = ms;
      advance(ms);  // what fell due before the command comes first
      r.session.on_arbiter(ms, c, out);
      take();
    } else if (type == "players") {
      // The arbiter's names for the PGN: text of one line, as new-game takes it.
      for (const char* key : kPlayersTags) {
        if (!j.contains(key)) continue;
        std::string v = at_line(line, [&] { return string_from_entry(j, key); });
        if (!chess::plain_text(v, 200))
          throw chess::ParseError("line " + std::to_string(line) + ": " + key +
                                  ": longer than 200 bytes, not UTF-8 or a control character");
        r.tags[key] = std::move(v);
      }
    } else if (seating_note_record(type)) {
      // The daemon's own record for its seating: kept for the seating to read (the last one
      // of each type), nothing of the session.
      r.last_notes[type] = j;
    } else if (type == "resume") {
      // The daemon restarted here, having run the session to the log's last time then.
      advance(r.last_ms);
      check();
      new_segment();
    } else if (session_record(type) && !daemon_speech(type, previous_type)) {
      nlohmann::json record = j;
      record.erase("seq");
      record.erase("prev");
      segments.back().recorded.push_back({line, std::move(record)});
      ++compared;
    }
    // A daemon record marked silent (an engine restart not said, an engine's fault) has no
    // phrase of its own after it: a speak record next is the session's.
    previous_type = j.contains("silent") && j["silent"] == true ? "silent" : type;
    check();
  }

  // The end of what was fed: the session run up to the last logged time (settle times, a
  // flag that fell) and every record compared. Changes this replayer: a snapshot finishes
  // a copy.
  LogReplay finish(const std::string& last_type) {
    advance(r.last_ms);
    check();
    close_segment();
    r.over = r.session.over();
    // A game closed by new-game was left on purpose too: its successor has its own log.
    r.stopped = last_type == "stop" || last_type == "closed";
    LogReplay replay{std::move(r), std::move(differences), compared};
    return replay;
  }

  ResumedGame r;
  bool before_seatings = false;
  std::vector<nlohmann::json> derived;
  std::vector<Output> out;
  std::size_t derived_base = 0;
  std::vector<Segment> segments = std::vector<Segment>(1);  // the last one only
  std::size_t checked = 0;  // records of the last segment compared so far
  std::vector<LogDifference> differences;
  std::size_t compared = 0;   // recorded session records
  std::int64_t event_ms = 0;  // the session's time: events never go back
  std::string previous_type = "start";
};

LogReplay rebuild(std::string_view text) {
  Split split = split_torn(text);
  const std::string_view good = split.good;
  std::string torn_text = std::move(split.torn);
  const std::size_t lines = record::verify_log(good);  // throws "line N: why"
  if (lines == 0) throw chess::ParseError("line 1: the log has no complete start entry");

  std::optional<Replayer> replayer;
  std::string_view last_line;
  std::string last_type;
  std::size_t line = 0;
  for (std::size_t pos = 0; pos < good.size();) {
    const std::size_t end = good.find('\n', pos);
    last_line = good.substr(pos, end - pos);
    const nlohmann::json j = nlohmann::json::parse(last_line);  // verify_log checked it parses
    ++line;
    if (!replayer) {
      replayer.emplace(j);
    } else {
      replayer->feed(j, line);
      last_type = j.value("type", "");
    }
    pos = end + 1;
  }
  LogReplay replay = replayer->finish(last_type);
  ResumedGame& r = replay.game;
  r.good_lines = lines;
  r.good_bytes = good.size();
  r.read_bytes = text.size();
  r.last_hash = record::sha256_hex(last_line);
  r.torn_line = std::move(torn_text);
  return replay;
}

template <typename Run>
auto json_errors_as_parse_errors(Run run) {
  try {
    return run();
  } catch (const nlohmann::json::exception& e) {
    // A field of the wrong type in a line whose chain is intact (a log made by hand).
    throw chess::ParseError(std::string("bad entry: ") + e.what());
  }
}
}  // namespace

struct LogFollower::State {
  explicit State(const nlohmann::json& start) : replayer(start) {}
  Replayer replayer;
  std::size_t lines = 1;
  std::size_t bytes = 0;
  std::string last_hash, last_type;
};

LogFollower::LogFollower(std::string_view start_line) {
  json_errors_as_parse_errors([&] {
    const nlohmann::json j = nlohmann::json::parse(start_line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || j.value("seq", -1) != 0 ||
        j.value("prev", "") != std::string(64, '0'))
      throw chess::ParseError("line 1: not the start of an arbiter log (seq 0, prev zeros)");
    s_ = std::make_unique<State>(j);
    return 0;
  });
  s_->last_hash = record::sha256_hex(start_line);
  s_->bytes = start_line.size() + 1;
}

LogFollower::~LogFollower() = default;
LogFollower::LogFollower(LogFollower&&) noexcept = default;
LogFollower& LogFollower::operator=(LogFollower&&) noexcept = default;

void LogFollower::add(std::string_view line) {
  add(line, nlohmann::json::parse(line, nullptr, false));
}

void LogFollower::add(std::string_view line, const nlohmann::json& j) {
  const std::size_t n = s_->lines + 1;
  json_errors_as_parse_errors([&] {
    if (j.is_discarded() || !j.is_object())
      throw chess::ParseError("line " + std::to_string(n) + ": not a JSON object");
    // The chain, as verify_log checks it: the next seq, the previous line's hash.
    if (!j.contains("seq") || json_integer<std::int64_t>(j["seq"]) != std::int64_t(n - 1))
      throw chess::ParseError("line " + std::to_string(n) + ": seq " +
                              (j.contains("seq") ? j["seq"].dump() : "none") + " where " +
                              std::to_string(n - 1) + " was expected");
    if (!j.contains("prev") || !j["prev"].is_string() || j["prev"] != s_->last_hash)
      throw chess::ParseError("line " + std::to_string(n) +
                              ": does not carry the hash of the line before");
    s_->replayer.feed(j, n);
    s_->last_type = j.value("type", "");
    return 0;
  });
  s_->lines = n;
  s_->last_hash = record::sha256_hex(line);
  s_->bytes += line.size() + 1;
}

std::size_t LogFollower::lines() const {
  return s_->lines;
}

const std::string& LogFollower::last_hash() const {
  return s_->last_hash;
}

std::size_t LogFollower::waiting() const {
  return s_->replayer.derived.size() + s_->replayer.segments.back().recorded.size();
}

ResumedGame LogFollower::game() const {
  Replayer copy = s_->replayer;  // small: the session and what is not compared yet
  LogReplay replay = json_errors_as_parse_errors([&] { return copy.finish(s_->last_type); });
  if (!replay.differences.empty()) {
    const LogDifference& d = replay.differences.front();
    throw chess::ParseError("line " + std::to_string(d.line) + ": " + d.why);
  }
  ResumedGame& r = replay.game;
  r.good_lines = s_->lines;
  r.good_bytes = r.read_bytes = s_->bytes;
  r.last_hash = s_->last_hash;
  return std::move(r);
}

bool known_record_type(std::string_view type) {
  static constexpr std::string_view kOthers[] = {
      "start",          "hole",         "button",  "heard",  "arbiter", "envelope",
      "clock",          "board",        "resync",  "resume", "players", "pgn",
      "stop",           "closed",       "setting", "said",   "health",  "board-lent",
      "board-returned", "outside-move", "fault",   "dgt",
  };
  for (std::string_view t : kOthers)
    if (t == type) return true;
  return session_record(std::string(type)) || seating_note_record(type);
}

bool log_holds_no_entry(std::string_view text) {
  return split_torn(text).good.empty();
}

LogReplay replay_log(std::string_view text) {
  return json_errors_as_parse_errors([&] { return rebuild(text); });
}

ResumedGame resume_from_log(std::string_view text) {
  LogReplay replay = replay_log(text);
  if (!replay.differences.empty()) {
    const LogDifference& d = replay.differences.front();
    throw chess::ParseError("line " + std::to_string(d.line) + ": " + d.why);
  }
  return std::move(replay.game);
}

}  // namespace tactile::game
