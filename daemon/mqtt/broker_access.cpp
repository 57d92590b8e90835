// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/mqtt/broker_access.h"

#include <cctype>
#include <fstream>
#include <stdexcept>

namespace tactile::mqtt {
namespace {
constexpr std::chrono::seconds kFirstConnectRetry{2};
}

std::string read_password_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("password-file: cannot read '" + path + "'");
  std::string line;
  std::getline(in, line);
  return line;
}

bool valid_name(const std::string& name) {
  if (name.empty() || name.size() > kMaxNameLength) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
          c == '_'))
      return false;
  return true;
}

void ask_to_connect(mosquitto* m, const BrokerAccess& access, int max_reconnect_s) {
  if (!access.username.empty() &&
      mosquitto_username_pw_set(m, access.username.c_str(),
                                access.password.empty() ? nullptr : access.password.c_str()) !=
          MOSQ_ERR_SUCCESS)
    throw std::runtime_error("username: cannot use '" + access.username + "'");
  if (!access.tls_ca.empty()) {
    const int rc =
        mosquitto_tls_set(m, access.tls_ca.c_str(), nullptr,
                          access.tls_cert.empty() ? nullptr : access.tls_cert.c_str(),
                          access.tls_key.empty() ? nullptr : access.tls_key.c_str(), nullptr);
    if (rc != MOSQ_ERR_SUCCESS)
      throw std::runtime_error("tls-ca: cannot use '" + access.tls_ca +
                               "': " + mosquitto_strerror(rc));
  }
  mosquitto_reconnect_delay_set(m, 1, static_cast<unsigned>(max_reconnect_s), true);
  // A refused first attempt (broker away) is retried by FirstConnection, not an error.
  mosquitto_connect_async(m, access.host.c_str(), access.port, 30);
}

void start_connecting(mosquitto* m, const BrokerAccess& access, int max_reconnect_s) {
  ask_to_connect(m, access, max_reconnect_s);
  if (mosquitto_loop_start(m) != MOSQ_ERR_SUCCESS)
    throw std::runtime_error("cannot start the MQTT client's thread");
}

FirstConnection::FirstConnection(mosquitto* m)
    : m_(m), next_try_(std::chrono::steady_clock::now() + kFirstConnectRetry) {}

void FirstConnection::retry(std::chrono::steady_clock::time_point now) {
  if (made_ || now < next_try_) return;
  next_try_ = now + kFirstConnectRetry;
  mosquitto_reconnect_async(m_);
}

}  // namespace tactile::mqtt
