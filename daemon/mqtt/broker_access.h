// SPDX-License-Identifier: GPL-3.0-or-later
// What tactiled-publish and tactiled-hall share of their MQTT client (docs/hall.md): the
// broker's address, account and TLS applied to a libmosquitto client, the connection begun
// on libmosquitto's own thread, and a first connection tried again until the broker
// answers once. The settings are each program's own keys, with the same names.
#pragma once

#include <mosquitto.h>

#include <atomic>
#include <chrono>
#include <string>

namespace tactile::mqtt {

struct BrokerAccess {
  std::string host = "localhost";
  int port = 1883;
  std::string tls_ca;    // a CA file: TLS on
  std::string tls_cert;  // the client's certificate and key (both or neither)
  std::string tls_key;
  std::string username;
  std::string password;  // the first line of password-file

  // The client id to ask for: the login itself when there is one. The shipped broker
  // (use_username_as_clientid) gives every client its login's id whatever it asks, so no
  // login can take (and so close) another's session; asking for it keeps a broker set up
  // otherwise from mixing up two programs of one login. Without a login: `anonymous_id`.
  std::string client_id(const std::string& anonymous_id) const {
    return username.empty() ? anonymous_id : username;
  }
};

// The first line of a password file. Throws std::runtime_error naming the key and the path.
std::string read_password_file(const std::string& path);

// A hall or table name, a level of the topic: 1 to 32 ASCII letters, digits, '-' and '_'
// (no MQTT wildcard, no '/', no "..", nothing a shell or a file name would take apart).
constexpr std::size_t kMaxNameLength = 32;
bool valid_name(const std::string& name);

// Sets `access`'s account and TLS on `m` and starts connecting on libmosquitto's thread,
// which reconnects a lost connection after 1 s, doubling up to `max_reconnect_s`. A broker
// that is away is no error here. Throws std::runtime_error naming the setting at fault.
void start_connecting(mosquitto* m, const BrokerAccess& access, int max_reconnect_s);
// The same without a thread: for a program that runs the client's loop itself
// (NetworkLoop).
void ask_to_connect(mosquitto* m, const BrokerAccess& access, int max_reconnect_s);

// libmosquitto's thread reconnects a connection it once had, but not a first one that
// failed (the program started before the broker, or the network was down): until the
// broker has answered once, retry() asks again every 2 s.
class FirstConnection {
 public:
  explicit FirstConnection(mosquitto* m);
  // From the connect callback (libmosquitto's thread), when the broker accepted.
  void made() { made_ = true; }
  bool ever_made() const { return made_; }
  // From the program's own loop, as often as it likes.
  void retry(std::chrono::steady_clock::time_point now);

 private:
  mosquitto* m_;
  std::atomic<bool> made_{false};
  std::chrono::steady_clock::time_point next_try_;
};

}  // namespace tactile::mqtt
