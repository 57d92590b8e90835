// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/hall_config.h"

#include <cstdlib>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <utility>

#include "core/chess/text_check.h"
#include "daemon/tactiled/utc_time.h"

namespace po = boost::program_options;

namespace tactile::hall {

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
      "(table-*.pgn) are rewritten at most this often (3000; a new one at once)")(
      "event", po::value<std::string>(), "the Event tag of every game (default: each game's own)")(
      "site", po::value<std::string>(), "the Site tag of every game (default: each game's own)")(
      "round", po::value<std::string>(),
      "the round: round.json's, and the Round tag of a game whose log names none (default: "
      "none; never taken from a table)")(
      "round-start", po::value<std::string>(),
      "YYYY-MM-DDTHH:MM[:SS]Z (UTC): when the boards were set up for the round; a board whose "
      "last self-test is older, or that has none, is shown as self-test-old (default: not "
      "checked)");
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
  return c;
}

}  // namespace tactile::hall
