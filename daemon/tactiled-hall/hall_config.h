// SPDX-License-Identifier: GPL-3.0-or-later
// tactiled-hall's settings (docs/hall.md): "key = value" lines in /etc/tactiled/hall.conf,
// the same keys as --key options, the command line winning. The broker's keys are the
// ones publish.conf uses for the same things.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>

#include "daemon/mqtt/broker_access.h"

namespace tactile::hall {

struct HallConfig {
  mqtt::BrokerAccess broker;  // broker-host, broker-port, tls-*, username, password-file
  std::string hall;           // required: tactiled/<hall>/#
  std::string output_dir = "/var/lib/tactiled-hall";
  std::string http_address = "127.0.0.1";  // the arbiter's page
  int http_port = 8080;
  int coalesce_ms = 200;      // changes within this time make one rewrite of the files
  int game_files_ms = 10000;  // a busy hall's game files: rewritten at most this often
  std::string event, site;    // every game's Event and Site tags; "": each game's own
  // The round (round.json's, a game's Round when its log names none); "": none. Never
  // taken from a table.
  std::string round;
  // When the boards were set up for this round (Unix ms, UTC): a board whose last
  // self-test is older, or that has none, is flagged self-test-old. 0: not checked.
  std::int64_t round_start_ms = 0;
  // lichess-push: the lichess broadcast rounds the hall pushes the round to (docs/hall.md,
  // "Following on lichess"), each with the boards it takes; empty: no push.
  struct LichessRound {
    std::string id;
    int first = 1, last = 100;  // boards FIRST-LAST (at most 100 games a push)
  };
  std::vector<LichessRound> lichess_rounds;
  std::string lichess_url = "https://lichess.org";
  std::string lichess_token;  // never logged
  // round-folder: where the hall also writes round-N/games.pgn and round-N/game-B.pgn (as
  // lichess's Broadcaster app and DGT LiveChess lay a round out); "": not written.
  std::string round_folder;
};

constexpr const char* kDefaultConfigPath = "/etc/tactiled/hall.conf";
// The broker password's credential (the unit's LoadCredential=, found by systemd in
// /etc/credstore/): read from $CREDENTIALS_DIRECTORY when no password-file is given.
constexpr const char* kPasswordCredential = "tactiled-hall.password";
// The lichess token's credential, likewise (when no lichess-token-file is given).
constexpr const char* kLichessTokenCredential = "tactiled-hall.lichess-token";

// The keys, for both the command line and the config file.
boost::program_options::options_description hall_options();

// The settings `vm` holds (already stored from the command line and the config file).
// Throws std::runtime_error naming the key for a missing hall, a bad value or a password
// file that cannot be read. Without password-file, a login's password is the credential
// kPasswordCredential when $CREDENTIALS_DIRECTORY holds it. lichess-push needs a token:
// lichess-token-file's first line, else the credential kLichessTokenCredential.
HallConfig hall_config(const boost::program_options::variables_map& vm);

}  // namespace tactile::hall
