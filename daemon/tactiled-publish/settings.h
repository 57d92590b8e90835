// tactiled-publish's settings: /etc/tactiled/publish.conf ("key = value", read with
// Boost.Program_options as tactiled's), the command line winning (docs/hall.md).
#pragma once

#include <string>

namespace tactile::publish {

struct Settings {
  std::string control = "/run/tactiled/control";  // tactiled's control socket
  std::string host = "localhost";                 // the broker
  int port = 1883;
  std::string hall;  // tactiled/<hall>/<table>/...
  std::string table;
  std::string tls_ca;    // a CA file: TLS on
  std::string tls_cert;  // the client's certificate and key (both or neither)
  std::string tls_key;
  std::string username;
  std::string password;                                       // the first line of password-file
  std::string state_directory = "/var/lib/tactiled-publish";  // the acknowledged seq
};

// Reads the command line and the config file it names (--config, default
// /etc/tactiled/publish.conf; a missing default file is no error). Prints --help and
// exits 0 for it; throws std::runtime_error "WHERE: why" for a bad setting.
Settings read_settings(int argc, char** argv);

// Whether `name` may be a topic level: letters, digits, '-' and '_' only, not empty.
bool valid_name(const std::string& name);

}  // namespace tactile::publish
