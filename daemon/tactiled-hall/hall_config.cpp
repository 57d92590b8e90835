// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/hall_config.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "core/chess/text_check.h"
#include "daemon/tactiled/utc_time.h"

namespace po = boost::program_options;

namespace tactile::hall {
namespace {

// A lichess id: letters and digits (a round's is 8 of them).
bool lichess_id(const std::string& id) {
  if (id.empty() || id.size() > 32) return false;
  for (char ch : id)
    if (!std::isalnum(static_cast<unsigned char>(ch))) return false;
  return true;
}

// One lichess-push value: "ROUNDID" (boards 1-100) or "ROUNDID:FIRST-LAST".
HallConfig::LichessRound lichess_round(const std::string& text) {
  HallConfig::LichessRound r;
  const std::size_t colon = text.find(':');
  r.id = text.substr(0, colon);
  bool good = lichess_id(r.id);
  if (good && colon != std::string::npos) {
    const std::string range = text.substr(colon + 1);
    const std::size_t dash = range.find('-');
    try {
      std::size_t end1 = 0, end2 = 0;
      r.first = std::stoi(range.substr(0, dash), &end1);
      r.last = dash == std::string::npos ? -1 : std::stoi(range.substr(dash + 1), &end2);
      good = end1 == dash && end2 == range.size() - dash - 1;
    } catch (const std::exception&) {
      good = false;
    }
  }
  if (!good || r.first < 1 || r.last < r.first)
    throw std::runtime_error("lichess-push: '" + text.substr(0, 60) +
                             "' is not ROUNDID or ROUNDID:FIRST-LAST");
  // lichess keeps the first 100 games of a push and drops the rest without a word.
  if (r.last - r.first + 1 > 100)
    throw std::runtime_error("lichess-push: '" + text.substr(0, 60) +
                             "' takes more than 100 boards (lichess keeps 100 games a round)");
  return r;
}

// A token is one word of visible ASCII (it goes into an HTTP header as it is).
bool token_text(const std::string& token) {
  if (token.empty() || token.size() > 256) return false;
  for (char ch : token)
    if (ch <= ' ' || ch > '~') return false;
  return true;
}

void lichess_config(const po::variables_map& vm, HallConfig& c) {
  if (vm.count("lichess-url")) c.lichess_url = vm["lichess-url"].as<std::string>();
  while (c.lichess_url.ends_with('/')) c.lichess_url.pop_back();
  if (!(c.lichess_url.starts_with("https://") || c.lichess_url.starts_with("http://")) ||
      !chess::plain_text(c.lichess_url, 200) || c.lichess_url.find(' ') != std::string::npos)
    throw std::runtime_error("lichess-url: not an http:// or https:// address");
  if (vm.count("round-folder")) {
    c.round_folder = vm["round-folder"].as<std::string>();
    if (c.round.empty() || c.round.find_first_of("/.") != std::string::npos)
      throw std::runtime_error("round-folder: needs the round (round = N), without '/' or '.'");
  }
  if (!vm.count("lichess-push")) return;
  for (const std::string& value : vm["lichess-push"].as<std::vector<std::string>>()) {
    std::istringstream words(value);
    for (std::string word; words >> word;) c.lichess_rounds.push_back(lichess_round(word));
  }
  for (std::size_t i = 0; i < c.lichess_rounds.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (c.lichess_rounds[i].first <= c.lichess_rounds[j].last &&
          c.lichess_rounds[j].first <= c.lichess_rounds[i].last)
        throw std::runtime_error("lichess-push: the boards of two rounds overlap");
  if (c.lichess_rounds.empty()) return;
  std::string path;
  if (vm.count("lichess-token-file")) {
    path = vm["lichess-token-file"].as<std::string>();
  } else if (const char* credentials = std::getenv("CREDENTIALS_DIRECTORY");
             credentials && *credentials) {
    path = std::string(credentials) + "/" + kLichessTokenCredential;
  }
  std::ifstream in(path);
  if (path.empty() || !in)
    throw std::runtime_error(
        "lichess-push: no token (lichess-token-file, or the credential "
        "tactiled-hall.lichess-token)" +
        (path.empty() ? std::string() : ": cannot read '" + path + "'"));
  std::getline(in, c.lichess_token);
  if (c.lichess_token.ends_with('\r')) c.lichess_token.pop_back();
  // The token itself is never said: only where it came from.
  if (!token_text(c.lichess_token))
    throw std::runtime_error("lichess-push: the token in '" + path +
                             "' is not one word of visible ASCII on the first line");
}

}  // namespace

po::options_description hall_options() {
  po::options_description o("Settings (also keys of the config file)");
  o.add_options()("broker-host", po::value<std::string>(),
                  "the MQTT broker's host name or address")(
      "broker-port", po::value<int>(), "the broker's port (1883; 8883 is usual with TLS)")(
      "hall", po::value<std::string>(), "the hall's name: subscribes to tactiled/<hall>/#")(
      "output-dir", po::value<std::string>(), "where live.pgn, round.json and the games go")(
      "http-address", po::value<std::string>(), "the address the arbiter's page listens on")(
      "http-port", po::value<int>(), "its port (0: any free port, printed at start)")(
      "tls-ca", po::value<std::string>(), "CA certificate file: connect to the broker over TLS")(
      "tls-cert", po::value<std::string>(), "the hall's client certificate (with tls-key)")(
      "tls-key", po::value<std::string>(), "its private key")("username", po::value<std::string>(),
                                                              "the broker login")(
      "password-file", po::value<std::string>(),
      "a file holding the broker password (default: the credential tactiled-hall.password "
      "in $CREDENTIALS_DIRECTORY, as the unit hands it over)")(
      "coalesce-ms", po::value<int>(), "changes within this many ms make one rewrite (200)")(
      "game-files-ms", po::value<int>(),
      "while more than 16 tables' files wait to be written, a table's own game files "
      "(table-*.pgn) are rewritten at most this often (10000; a new one at once)")(
      "event", po::value<std::string>(), "the Event tag of every game (default: each game's own)")(
      "site", po::value<std::string>(), "the Site tag of every game (default: each game's own)")(
      "round", po::value<std::string>(),
      "the round: round.json's, and the Round tag of a game whose log names none (default: "
      "none; never taken from a table)")(
      "round-start", po::value<std::string>(),
      "YYYY-MM-DDTHH:MM[:SS]Z (UTC): when the boards were set up for the round; a board whose "
      "last self-test is older, or that has none, is shown as self-test-old (default: not "
      "checked)")(
      "lichess-push", po::value<std::vector<std::string>>()->composing(),
      "ROUNDID, or ROUNDID:FIRST-LAST (boards) several times (or on one line, separated by "
      "spaces): push the round's games to these lichess broadcast rounds (default: none)")(
      "lichess-url", po::value<std::string>(), "lichess's address (https://lichess.org)")(
      "lichess-token-file", po::value<std::string>(),
      "a file whose first line is the lichess token (scope study:write; default: the "
      "credential tactiled-hall.lichess-token in $CREDENTIALS_DIRECTORY)")(
      "round-folder", po::value<std::string>(),
      "also write the round as round-N/games.pgn and round-N/game-B.pgn in this folder (N: "
      "the round; default: not written)");
  return o;
}

HallConfig hall_config(const po::variables_map& vm) {
  HallConfig c;
  auto text = [&](const char* key, std::string& out) {
    if (vm.count(key)) out = vm[key].as<std::string>();
  };
  auto number = [&](const char* key, int& out, int lo, int hi) {
    if (!vm.count(key)) return;
    out = vm[key].as<int>();
    if (out < lo || out > hi)
      throw std::runtime_error(std::string(key) + ": " + std::to_string(out) + " is not in " +
                               std::to_string(lo) + ".." + std::to_string(hi));
  };
  text("broker-host", c.broker.host);
  number("broker-port", c.broker.port, 1, 65535);
  text("hall", c.hall);
  text("output-dir", c.output_dir);
  text("http-address", c.http_address);
  number("http-port", c.http_port, 0, 65535);
  text("tls-ca", c.broker.tls_ca);
  text("tls-cert", c.broker.tls_cert);
  text("tls-key", c.broker.tls_key);
  text("username", c.broker.username);
  number("coalesce-ms", c.coalesce_ms, 0, 1000);
  number("game-files-ms", c.game_files_ms, 0, 60000);
  text("event", c.event);
  text("site", c.site);
  text("round", c.round);
  for (const auto& [key, value] :
       {std::pair{"event", &c.event}, std::pair{"site", &c.site}, std::pair{"round", &c.round}})
    if (!chess::plain_text(*value, 200) || value->find_first_of("\"\\") != std::string::npos)
      throw std::runtime_error(std::string(key) +
                               ": longer than 200 bytes, not UTF-8, or holds a quote, "
                               "backslash or control character");
  if (vm.count("round-start")) {
    const std::string text = vm["round-start"].as<std::string>();
    const std::optional<std::int64_t> ms = daemon::parse_utc(text);
    if (!ms)
      throw std::runtime_error("round-start: '" + text.substr(0, 40) +
                               "' is not a UTC time YYYY-MM-DDTHH:MM[:SS]Z");
    c.round_start_ms = *ms;
  }
  if (c.hall.empty()) throw std::runtime_error("hall: no hall named (hall = NAME)");
  if (!mqtt::valid_name(c.hall))
    throw std::runtime_error("hall: '" + c.hall + "' is not letters, digits, '-' and '_'");
  if (c.broker.tls_cert.empty() != c.broker.tls_key.empty())
    throw std::runtime_error("tls-cert and tls-key go together");
  if (vm.count("password-file")) {
    c.broker.password = mqtt::read_password_file(vm["password-file"].as<std::string>());
  } else if (const char* credentials = std::getenv("CREDENTIALS_DIRECTORY");
             credentials && *credentials && !c.broker.username.empty()) {
    // The unit runs as a dynamic user, who cannot read a root-only password file: systemd
    // hands the password over as a credential (LoadCredential=, docs/hall.md).
    const std::string path = std::string(credentials) + "/" + kPasswordCredential;
    if (std::ifstream(path)) c.broker.password = mqtt::read_password_file(path);
  }
  lichess_config(vm, c);
  return c;
}

}  // namespace tactile::hall
