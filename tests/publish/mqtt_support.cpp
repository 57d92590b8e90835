// SPDX-License-Identifier: GPL-3.0-or-later
#include "tests/publish/mqtt_support.h"

#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace tactile::hall::test {

Process::Process(const std::string& program, const std::vector<std::string>& args,
                 const std::string& out) {
  pid_ = ::fork();
  if (pid_ != 0) return;
  std::string asan = "verify_asan_link_order=0";
  if (const char* old = std::getenv("ASAN_OPTIONS"); old && *old)
    asan = std::string(old) + ":" + asan;
  ::setenv("ASAN_OPTIONS", asan.c_str(), 1);
  ::close_range(3, ~0u, 0);
  FILE* f = std::freopen(out.c_str(), "a", stdout);
  if (!f || ::dup2(STDOUT_FILENO, STDERR_FILENO) < 0) ::_exit(126);
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execvp(program.c_str(), argv.data());
  ::_exit(127);
}

Process::~Process() {
  if (pid_ > 0) stop(SIGKILL);
}

bool Process::running() {
  return pid_ > 0 && ::waitpid(pid_, nullptr, WNOHANG) == 0;
}

void Process::stop(int signal) {
  if (pid_ <= 0) return;
  ::kill(pid_, signal);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

namespace {
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
    throw std::runtime_error("no free port");
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

bool port_open(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}
}  // namespace

Broker::Broker(const std::string& dir) : dir_(dir), port_(free_port()) {
  std::ofstream conf(dir_ + "/mosquitto.conf");
  // Run as root, mosquitto would become the user mosquitto, who cannot write its database
  // here: a restart would lose the sessions. It stays the test's user.
  const passwd* me = ::getpwuid(::getuid());
  conf << "user " << (me ? me->pw_name : "root") << "\n"
       << "listener " << port_ << " 127.0.0.1\n"
       << "allow_anonymous true\n"
       << "persistence true\n"
       << "persistence_location " << dir_ << "/\n"
       << "max_queued_messages 0\n";
}

void Broker::start() {
  process_ = std::make_unique<Process>("mosquitto",
                                       std::vector<std::string>{"-c", dir_ + "/mosquitto.conf"},
                                       dir_ + "/mosquitto.out");
  if (!until([&] { return port_open(port_); })) throw std::runtime_error("mosquitto did not start");
}

void Broker::stop() {
  if (process_) process_->stop(SIGTERM);
  process_.reset();
}

Subscriber::Subscriber(const std::string& id, int port, const std::string& filter, bool clean)
    : filter_(filter) {
  mosquitto_lib_init();
  mosq_ = mosquitto_new(id.c_str(), clean, this);
  mosquitto_connect_callback_set(mosq_, &Subscriber::on_connect);
  mosquitto_subscribe_callback_set(mosq_, &Subscriber::on_subscribe);
  mosquitto_message_callback_set(mosq_, &Subscriber::on_message);
  mosquitto_reconnect_delay_set(mosq_, 1, 1, false);
  mosquitto_connect_async(mosq_, "127.0.0.1", port, 30);
  mosquitto_loop_start(mosq_);
}

Subscriber::~Subscriber() {
  // The client's thread ends by itself once disconnected; cancelling it (force) could stop
  // it inside libmosquitto with one of the client's mutexes held, which mosquitto_destroy
  // then destroys locked (ThreadSanitizer reports it; undefined behaviour in POSIX).
  mosquitto_disconnect(mosq_);
  mosquitto_loop_stop(mosq_, false);
  mosquitto_destroy(mosq_);
  mosquitto_lib_cleanup();
}

void Subscriber::on_connect(mosquitto* m, void* self, int rc) {
  auto* s = static_cast<Subscriber*>(self);
  if (rc == 0) mosquitto_subscribe(m, nullptr, s->filter_.c_str(), 1);
}

void Subscriber::on_subscribe(mosquitto*, void* self, int, int, const int*) {
  auto* s = static_cast<Subscriber*>(self);
  std::lock_guard lock(s->mu_);
  s->subscribed_ = true;
}

void Subscriber::on_message(mosquitto*, void* self, const mosquitto_message* m) {
  auto* s = static_cast<Subscriber*>(self);
  std::lock_guard lock(s->mu_);
  s->messages_.push_back(
      {m->topic, std::string(static_cast<const char*>(m->payload), std::size_t(m->payloadlen)),
       m->retain});
}

std::vector<Message> Subscriber::messages() {
  std::lock_guard lock(mu_);
  return messages_;
}

bool Subscriber::subscribed() {
  std::lock_guard lock(mu_);
  return subscribed_;
}

bool until(const std::function<bool()>& done) {
  for (int i = 0; i < 2000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

}  // namespace tactile::hall::test
