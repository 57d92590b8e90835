// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-publish/settings.h"

#include <boost/program_options.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace tactile::publish {
namespace po = boost::program_options;

namespace {

constexpr const char* kDefaultConfig = "/etc/tactiled/publish.conf";

constexpr const char* kHelp =
    R"(NAME
  tactiled-publish - one table's game, from tactiled to an MQTT broker

SYNOPSIS
  tactiled-publish [--config FILE] [--KEY VALUE ...]

DESCRIPTION
  Follows the game of the tactiled on this Pi through its control socket (the
  event stream and the status) and its arbiter log, and publishes it to an MQTT
  broker with QoS 1, under tactiled/HALL/TABLE/:
    record   every arbiter-log record as it is written (one JSON line, with seq)
    state    (retained) players, position, moves, clocks, last move, alarms, result
    pgn      (retained) the game's PGN with [%clk]
    status   (retained) "online"; the broker's last will is "offline"

  Nothing is lost: while the broker or the network is away it goes on reading;
  on reconnecting it sends every record after the last one the broker
  acknowledged, read back from the log file. The acknowledged seq is kept in
  the state directory, so a restart of tactiled-publish, of tactiled or of the
  broker loses nothing. A new game (new-game: a new log) is followed once the
  old log's records are all acknowledged.

OPTIONS
  The settings, in the config file as "key = value", or on the command line as
  "--key value", which wins:
  --config FILE          the settings file (default /etc/tactiled/publish.conf)
  --control PATH         tactiled's control socket (default /run/tactiled/control)
  --broker-host HOST     the broker (default localhost)
  --broker-port N        its port (default 1883; usually 8883 with TLS)
  --hall NAME            the hall's name: letters, digits, '-', '_' (required)
  --table NAME           this table's name, e.g. 7 (required)
  --tls-ca FILE          the CA certificate(s): connect with TLS
  --tls-cert FILE        the client certificate (with --tls-key)
  --tls-key FILE         its private key
  --username NAME        the broker account
  --password-file FILE   the file holding its password (first line)
  --state-directory DIR  where the acknowledged seq is kept (published.json;
                         default $STATE_DIRECTORY, else /var/lib/tactiled-publish)
  --help                 this text

EXIT STATUS
  0 stopped by SIGTERM or SIGINT; 1 an error at the start; 2 a bad setting.

SEE ALSO
  tactiled-publish(8), tactiled(8), docs/hall.md
)";

}  // namespace

Settings read_settings(int argc, char** argv) {
  po::options_description keys;
  keys.add_options()("control", po::value<std::string>())("broker-host", po::value<std::string>())(
      "broker-port", po::value<int>())("hall", po::value<std::string>())(
      "table", po::value<std::string>())("tls-ca", po::value<std::string>())(
      "tls-cert", po::value<std::string>())("tls-key", po::value<std::string>())(
      "username", po::value<std::string>())("password-file", po::value<std::string>())(
      "state-directory", po::value<std::string>());
  po::options_description cmdline;
  cmdline.add(keys).add_options()("config", po::value<std::string>())("help", "");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, cmdline), vm);
    if (vm.count("help")) {
      std::cout << kHelp;
      std::exit(0);
    }
    const bool given = vm.count("config") != 0;
    const std::string config = given ? vm["config"].as<std::string>() : kDefaultConfig;
    std::ifstream in(config);
    if (in) {
      try {
        po::store(po::parse_config_file(in, keys, false), vm);
      } catch (const po::error& e) {
        throw std::runtime_error(config + ": " + e.what());
      }
    } else if (given) {
      throw std::runtime_error("--config: cannot read '" + config + "'");
    }
  } catch (const po::error& e) {
    throw std::runtime_error(e.what());
  }
  Settings s;
  if (const char* dir = std::getenv("STATE_DIRECTORY"); dir && *dir) s.state_directory = dir;
  auto text = [&](const char* key, std::string& out) {
    if (vm.count(key)) out = vm[key].as<std::string>();
  };
  text("control", s.control);
  text("broker-host", s.broker.host);
  text("hall", s.hall);
  text("table", s.table);
  text("tls-ca", s.broker.tls_ca);
  text("tls-cert", s.broker.tls_cert);
  text("tls-key", s.broker.tls_key);
  text("username", s.broker.username);
  text("state-directory", s.state_directory);
  if (vm.count("broker-port")) s.broker.port = vm["broker-port"].as<int>();
  if (s.broker.port < 1 || s.broker.port > 65535)
    throw std::runtime_error("broker-port: '" + std::to_string(s.broker.port) +
                             "' is not from 1 to 65535");
  if (!mqtt::valid_name(s.hall))
    throw std::runtime_error("hall: '" + s.hall + "' is not a name of letters, digits, - and _");
  if (!mqtt::valid_name(s.table))
    throw std::runtime_error("table: '" + s.table + "' is not a name of letters, digits, - and _");
  if (s.broker.tls_cert.empty() != s.broker.tls_key.empty())
    throw std::runtime_error("tls-cert and tls-key go together");
  if (vm.count("password-file"))
    s.broker.password = mqtt::read_password_file(vm["password-file"].as<std::string>());
  return s;
}

}  // namespace tactile::publish
