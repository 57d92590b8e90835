// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/chess/pgn.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

#include "core/chess/error.h"
#include "core/chess/pgn_san_memo.h"
#include "core/chess/san.h"

namespace tactile::chess {

namespace {

constexpr std::array<std::string_view, 7> kSevenTagRoster = {"Event", "Site",  "Date",  "Round",
                                                             "White", "Black", "Result"};
// python-chess and most export tools break lines before they reach 80 columns; 78 keeps our
// output identical to theirs.
constexpr std::size_t kLineWidth = 78;

bool is_result(std::string_view t) {
  return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*";
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string lower_alnum(std::string_view s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A castling right on a rook that standard chess cannot have means the game is Chess960.
bool needs_chess960(const Position& pos) {
  for (Color c : {White, Black}) {
    Square king = pos.king_square(c);
    int home = c == White ? 0 : 7;
    for (CastleSide side : {KingSide, QueenSide}) {
      Square rook = pos.castling_rook(c, side);
      if (rook == NoSquare) continue;
      if (king != make_square(4, home)) return true;
      if (rook != make_square(side == KingSide ? 7 : 0, home)) return true;
    }
  }
  return false;
}

// Walks the text once, keeping the line number for messages.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  std::vector<PgnGame> read_all() {
    std::vector<PgnGame> games;
    if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;  // UTF-8 byte-order mark
    while (true) {
      skip_space_and_line_comments();
      if (at_end()) break;
      game_number_ = int(games.size()) + 1;
      games.push_back(read_game());
    }
    return games;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw ParseError("PGN game " + std::to_string(game_number_) + ", line " +
                     std::to_string(line_) + ": " + why);
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  bool at_line_start() const { return pos_ == 0 || text_[pos_ - 1] == '\n'; }
  char get() {
    char c = text_[pos_++];
    if (c == '\n') ++line_;
    return c;
  }
  void skip_line() {
    while (!at_end() && get() != '\n') {
    }
  }

  // Whitespace, ";" comments and "%" escape lines.
  void skip_space_and_line_comments() {
    while (!at_end()) {
      char c = peek();
      if (is_space(c)) {
        get();
      } else if (c == ';' || (c == '%' && at_line_start())) {
        skip_line();
      } else {
        break;
      }
    }
  }

  PgnGame read_game() {
    PgnGame game;
    while (!at_end() && peek() == '[') {
      read_tag(game);
      skip_space_and_line_comments();
    }
    set_up_start(game);
    read_movetext(game);
    return game;
  }

  void read_tag(PgnGame& game) {
    get();  // '['
    while (!at_end() && (peek() == ' ' || peek() == '\t')) get();
    std::string name;
    while (!at_end() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_'))
      name += get();
    if (name.empty()) fail("tag pair without a name");
    while (!at_end() && (peek() == ' ' || peek() == '\t')) get();
    if (at_end() || peek() != '"') fail("tag " + name + ": value must be in double quotes");
    get();
    std::string value;
    while (true) {
      if (at_end() || peek() == '\n' || peek() == '\r')
        fail("tag " + name + ": value not closed by '\"' on its line");
      char c = get();
      if (c == '"') break;
      if (c == '\\' && !at_end() && (peek() == '"' || peek() == '\\')) c = get();
      value += c;
    }
    while (!at_end() && (peek() == ' ' || peek() == '\t')) get();
    if (at_end() || peek() != ']') fail("tag " + name + ": missing ']'");
    get();
    if (game.has_tag(name)) fail("tag " + name + " given twice");
    game.tags.emplace_back(std::move(name), std::move(value));
  }

  void set_up_start(PgnGame& game) {
    bool chess960 = false;
    if (game.has_tag("Variant")) {
      std::string v = lower_alnum(game.tag("Variant"));
      if (v == "chess960" || v == "fischerandom" || v == "fischerrandom" || v == "960" ||
          v == "fischerandomchess" || v == "fischerrandomchess") {
        chess960 = true;
      } else if (!(v.empty() || v == "standard" || v == "normal" || v == "chess" ||
                   v == "fromposition")) {
        fail("Variant \"" + std::string(game.tag("Variant")) + "\" is not supported");
      }
    }
    if (game.has_tag("FEN")) {
      try {
        game.start = Position::from_fen(game.tag("FEN"));
      } catch (const ParseError& e) {
        fail(std::string("FEN tag: ") + e.what());
      }
    } else if (game.tag("SetUp") == "1") {
      fail("SetUp \"1\" without a FEN tag");
    }
    game.start.set_chess960(chess960 || needs_chess960(game.start));
  }

  // A comment's text with whitespace runs collapsed, so wrapping cannot change it.
  std::string read_comment() {
    int opened = line_;
    get();  // '{'
    std::string out;
    bool space = false;
    while (true) {
      if (at_end()) {
        line_ = opened;
        fail("comment '{' never closed");
      }
      char c = get();
      if (c == '}') break;
      if (is_space(c)) {
        space = !out.empty();
      } else {
        if (space) out += ' ';
        space = false;
        out += c;
      }
    }
    return out;
  }

  void skip_variation() {
    int opened = line_;
    int depth = 0;
    while (true) {
      if (at_end()) {
        line_ = opened;
        fail("variation '(' never closed");
      }
      char c = peek();
      if (c == '{') {
        read_comment();
      } else if (c == ';') {
        skip_line();
      } else {
        get();
        if (c == '(') ++depth;
        if (c == ')' && --depth == 0) return;
      }
    }
  }

  std::string read_symbol() {
    std::string t;
    while (!at_end()) {
      char c = peek();
      if (is_space(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == ';' || c == '[' ||
          c == ']' || c == '$')
        break;
      t += get();
      if (t.size() > 64) fail("token too long: '" + t.substr(0, 20) + "...'");
    }
    return t;
  }

  static void add_comment(std::string& to, const std::string& text) {
    if (text.empty()) return;
    if (!to.empty()) to += ' ';
    to += text;
  }

  void read_movetext(PgnGame& game) {
    Position pos = game.start;
    while (true) {
      skip_space_and_line_comments();
      if (at_end()) {
        // No terminator: accept what was read, the result from the tag if there is one.
        if (is_result(game.tag("Result"))) game.result = std::string(game.tag("Result"));
        return;
      }
      char c = peek();
      if (c == '[') {
        if (!at_line_start() || game.moves.empty()) fail("unexpected '[' in the movetext");
        if (is_result(game.tag("Result"))) game.result = std::string(game.tag("Result"));
        return;  // the next game's tags: this game had no terminator
      }
      if (c == '{') {
        std::string text = read_comment();
        add_comment(game.moves.empty() ? game.start_comment : game.moves.back().comment, text);
        continue;
      }
      if (c == '(') {
        skip_variation();
        continue;
      }
      if (c == ')' || c == '}' || c == ']') fail(std::string("unexpected '") + c + "'");
      if (c == '$') {
        get();
        if (at_end() || !std::isdigit(static_cast<unsigned char>(peek())))
          fail("'$' without a number");
        while (!at_end() && std::isdigit(static_cast<unsigned char>(peek()))) get();
        continue;
      }
      int token_line = line_;
      std::string t = read_symbol();
      if (t == "½-½") t = "1/2-1/2";
      if (is_result(t)) {
        game.result = t;
        return;
      }
      std::string_view s = t;
      // Move number indication, possibly glued to the move ("12.e4", "12...Nf6").
      std::size_t digits = 0;
      while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
      if (digits > 0 && digits < s.size() && s[digits] == '.') {
        s.remove_prefix(digits);
        while (!s.empty() && s.front() == '.') s.remove_prefix(1);
      } else if (digits == 0) {
        while (!s.empty() && s.front() == '.') s.remove_prefix(1);  // "..." alone or glued
      }
      if (s.empty()) continue;
      if (s.find_first_not_of("!?") == std::string_view::npos) continue;  // "!", "?!"
      try {
        Move m = parse_san(pos, s);
        pos.play(m);
        game.moves.push_back({m, ""});
      } catch (const ParseError& e) {
        line_ = token_line;
        int number = pos.fullmove_number();
        fail("move " + std::to_string(number) + (pos.side_to_move() == White ? ". " : "... ") +
             std::string(s) + ": " + e.what());
      }
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int game_number_ = 1;
};

std::string escape_tag(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\r') c = ' ';
    out += c;
  }
  return out;
}

// Joins tokens with single spaces into lines no longer than kLineWidth.
class LineWrapper {
 public:
  void add(std::string_view token) {
    if (!line_.empty() && line_.size() + 1 + token.size() > kLineWidth) flush();
    if (!line_.empty()) line_ += ' ';
    line_ += token;
  }
  std::string finish() {
    flush();
    return out_;
  }

 private:
  void flush() {
    if (line_.empty()) return;
    out_ += line_;
    out_ += '\n';
    line_.clear();
  }
  std::string line_, out_;
};

void add_comment(LineWrapper& w, std::string_view comment) {
  std::vector<std::string> words;
  std::string word;
  for (char c : comment) {
    if (c == '}') c = ')';  // a brace would end the comment early
    if (is_space(c)) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  if (words.empty()) return;
  words.front().insert(0, "{");
  words.back() += '}';
  for (const auto& x : words) w.add(x);
}

}  // namespace

std::string_view PgnGame::tag(std::string_view name) const {
  for (const auto& [n, v] : tags)
    if (n == name) return v;
  return {};
}

bool PgnGame::has_tag(std::string_view name) const {
  return std::any_of(tags.begin(), tags.end(), [&](const auto& t) { return t.first == name; });
}

void PgnGame::set_tag(std::string_view name, std::string_view value) {
  for (auto& [n, v] : tags)
    if (n == name) {
      v = value;
      return;
    }
  tags.emplace_back(std::string(name), std::string(value));
}

Position PgnGame::position_after(std::size_t plies) const {
  Position pos = start;
  for (std::size_t i = 0; i < plies && i < moves.size(); ++i) pos.play(moves[i].move);
  return pos;
}

std::vector<PgnGame> read_pgn(std::string_view text) {
  return Reader(text).read_all();
}

const std::string& SanMemo::san(const Position& start, std::size_t index, const Position& before,
                                Move m) {
  if (index == 0 && !(start == start_)) {
    start_ = start;
    moves_.clear();
    sans_.clear();
  }
  if (index < moves_.size() && moves_[index] != m) {  // another line from here on
    moves_.resize(index);
    sans_.resize(index);
  }
  if (index < moves_.size()) return sans_[index];
  if (index != moves_.size()) throw std::logic_error("SanMemo: moves out of order");
  moves_.push_back(m);
  sans_.push_back(to_san(before, m));
  return sans_.back();
}

std::string write_pgn(const PgnGame& game) {
  SanMemo memo;  // one write: every move's SAN made once
  return write_pgn(game, memo);
}

std::string write_pgn(const PgnGame& game, SanMemo& memo) {
  return write_pgn_tags(game) + write_pgn_movetext(game, memo);
}

std::string write_pgn_tags(const PgnGame& game) {
  // Tags: the roster first, then the rest in their order, with SetUp/FEN/Variant made true
  // to the start position.
  std::vector<std::pair<std::string, std::string>> tags;
  for (std::string_view name : kSevenTagRoster) {
    std::string value(game.tag(name));
    if (!game.has_tag(name)) value = name == "Date" ? "????.??.??" : "?";
    if (name == "Result") value = is_result(game.result) ? game.result : "*";
    tags.emplace_back(std::string(name), value);
  }
  for (const auto& t : game.tags)
    if (std::find(kSevenTagRoster.begin(), kSevenTagRoster.end(), t.first) == kSevenTagRoster.end())
      tags.push_back(t);
  auto find = [&](std::string_view name) {
    return std::find_if(tags.begin(), tags.end(), [&](const auto& t) { return t.first == name; });
  };
  const std::string fen = game.start.fen();
  if (fen != Position().fen()) {
    auto f = find("FEN");
    bool keep = false;
    if (f != tags.end()) {
      try {  // keep the text as given (X-FEN stays X-FEN) when it says the same
        keep = Position::from_fen(f->second).fen() == fen;
      } catch (const ParseError&) {
      }
    }
    if (auto s = find("SetUp"); s != tags.end())
      s->second = "1";
    else if (f == tags.end())
      tags.emplace_back("SetUp", "1");
    else
      tags.insert(f, {"SetUp", "1"});
    f = find("FEN");
    if (f == tags.end())
      tags.emplace_back("FEN", fen);
    else if (!keep)
      f->second = fen;
  }
  if (game.start.chess960() && find("Variant") == tags.end())
    tags.emplace_back("Variant", "Chess960");

  std::string out;
  for (const auto& [name, value] : tags) {
    out += '[';
    out += name;
    out += " \"";
    out += escape_tag(value);
    out += "\"]\n";
  }
  out += '\n';
  return out;
}

std::string write_pgn_movetext(const PgnGame& game, SanMemo& memo) {
  LineWrapper w;
  add_comment(w, game.start_comment);
  Position pos = game.start;
  bool need_number = true;
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    const PgnMove& pm = game.moves[i];
    if (pos.side_to_move() == White)
      w.add(std::to_string(pos.fullmove_number()) + ".");
    else if (need_number)
      w.add(std::to_string(pos.fullmove_number()) + "...");
    w.add(memo.san(game.start, i, pos, pm.move));
    pos.play(pm.move);
    add_comment(w, pm.comment);
    need_number = !pm.comment.empty();
  }
  w.add(is_result(game.result) ? game.result : "*");
  return w.finish();
}

std::string write_pgn(std::span<const PgnGame> games) {
  std::string out;
  for (std::size_t i = 0; i < games.size(); ++i) {
    if (i > 0) out += '\n';
    out += write_pgn(games[i]);
  }
  return out;
}

}  // namespace tactile::chess
