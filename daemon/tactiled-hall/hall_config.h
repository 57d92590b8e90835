// tactiled-hall's settings (docs/hall.md): "key = value" lines in /etc/tactiled/hall.conf,
// the same keys as --key options, the command line winning. The broker's keys are the
// ones publish.conf uses for the same things.
#pragma once

#include <string>

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>

namespace tactile::hall {

struct HallConfig {
  std::string broker_host = "localhost";
  int broker_port = 1883;
  std::string hall;  // required: tactiled/<hall>/#
  std::string output_dir = "/var/lib/tactiled-hall";
  std::string http_address = "127.0.0.1";  // the arbiter's page
  int http_port = 8080;
  std::string tls_ca;    // CA file: TLS to the broker when set
  std::string username;  // broker login, with the password read from password_file
  std::string password_file;
  int coalesce_ms = 200;  // changes within this time make one rewrite of the files
};

constexpr const char* kDefaultConfigPath = "/etc/tactiled/hall.conf";

// The keys, for both the command line and the config file.
boost::program_options::options_description hall_options();

// The settings `vm` holds (already stored from the command line and the config file).
// Throws std::runtime_error naming the key for a missing hall or a bad value.
HallConfig hall_config(const boost::program_options::variables_map& vm);

// A hall or table name: letters, digits, '-' and '_' only.
bool valid_name(const std::string& name);

}  // namespace tactile::hall
