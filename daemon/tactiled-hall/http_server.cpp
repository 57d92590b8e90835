// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/http_server.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "daemon/tactiled-hall/address_slots.h"
#include "daemon/tactiled-hall/hall_files.h"
#include "daemon/tactiled-hall/page_html.h"

namespace tactile::hall {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

struct HttpServer::Impl {
  Impl(const PageFeed& f, std::string dir) : feed(f), output_dir(std::move(dir)), acceptor(io) {}
  const PageFeed& feed;
  const std::string output_dir;
  asio::io_context io;
  tcp::acceptor acceptor;
  std::thread accepting;
  std::mutex mutex;
  std::condition_variable done;
  // A connection being served, and how to close it: its socket, and the flag its wait on
  // the feed (an event stream's) watches.
  struct Connection {
    int fd;
    std::shared_ptr<std::atomic<bool>> dropped;
  };
  AddressSlots connection_slots{kMaxPerClient, kMaxConnections};
  AddressSlots stream_slots{kMaxStreamsPerClient, kMaxStreams};
  std::map<AddressSlots::Id, Connection> open;  // by connection slot; not those dropped
  std::map<AddressSlots::Id, AddressSlots::Id> stream_connection;  // stream slot -> its own
  std::size_t running = 0;  // connections' threads, the dropped ones too
  bool stopping = false;

  void accept_next();
  // Closes the connection `id` to make room (under `mutex`): its socket shut, its wait on
  // the feed ended once the caller has called feed.wake().
  void drop(AddressSlots::Id id);
  void serve(tcp::socket socket, AddressSlots::Id id, const std::string& from,
             std::shared_ptr<std::atomic<bool>> dropped);
  void stream_events(tcp::socket& socket, const std::string& from, const std::atomic<bool>& dropped,
                     AddressSlots::Id connection);
};

namespace {

void set_timeout(int fd, int option, std::chrono::milliseconds ms) {
  timeval tv{static_cast<time_t>(ms.count() / 1000),
             static_cast<suseconds_t>(ms.count() % 1000 * 1000)};
  setsockopt(fd, SOL_SOCKET, option, &tv, sizeof tv);
}

// The request, its header whole within `timeout` from now: a reader that sends a byte now
// and then (a slow half-sent request) is dropped when the time is up, not at its pace.
// Throws on a timeout, a header over 8 KiB or a body (the page takes none).
http::request<http::empty_body> read_request(tcp::socket& socket, beast::flat_buffer& buffer,
                                             std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point end = Clock::now() + timeout;
  http::request_parser<http::empty_body> parser;
  parser.header_limit(8 * 1024);
  while (!parser.is_done()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
    if (left.count() <= 0) throw std::runtime_error("request header timed out");
    set_timeout(socket.native_handle(), SO_RCVTIMEO, left);
    http::read_some(socket, buffer, parser);
  }
  return parser.release();
}
http::response<http::string_body> reply(http::status status, const char* type, std::string body) {
  http::response<http::string_body> res{status, 11};
  res.set(http::field::server, "tactiled-hall");
  res.set(http::field::content_type, type);
  res.set(http::field::cache_control, "no-cache");
  res.keep_alive(false);
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

// A game's file as last written (only names is_game_file_name takes reach here: no path
// of the client's own making is ever opened).
bool read_small_file(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream out;
  out << in.rdbuf();
  text = out.str();
  return true;
}

}  // namespace

void HttpServer::Impl::accept_next() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec) return;  // the acceptor was closed
    const std::string from = socket.remote_endpoint(ec).address().to_string();
    AddressSlots::Id id = 0;
    auto dropped = std::make_shared<std::atomic<bool>>(false);
    bool made_room = false;
    {
      std::lock_guard lock(mutex);
      if (ec || stopping) {
        socket.close(ec);
        accept_next();
        return;
      }
      // Never refused: at the caps, the address holding the most closes one for it.
      const AddressSlots::Admission a = connection_slots.admit(from);
      id = a.id;
      if (a.dropped) {
        drop(*a.dropped);
        made_room = true;
      }
      open.emplace(id, Connection{socket.native_handle(), dropped});
      ++running;
    }
    if (made_room) feed.wake();
    std::thread([this, s = std::move(socket), id, from, dropped]() mutable {
      serve(std::move(s), id, from, std::move(dropped));
    }).detach();
    accept_next();
  });
}

void HttpServer::Impl::drop(AddressSlots::Id id) {
  const auto it = open.find(id);
  if (it == open.end()) return;
  it->second.dropped->store(true);
  ::shutdown(it->second.fd, SHUT_RDWR);  // wakes its blocked read or write
  open.erase(it);
}

void HttpServer::Impl::serve(tcp::socket socket, AddressSlots::Id id, const std::string& from,
                             std::shared_ptr<std::atomic<bool>> dropped) {
  const int fd = socket.native_handle();
  try {
    // A reader that takes nothing for this long (a full send buffer) is dropped.
    set_timeout(fd, SO_SNDTIMEO, kIdleTimeout);
    beast::flat_buffer buffer;
    const http::request<http::empty_body> req = read_request(socket, buffer, kHeaderTimeout);
    const std::string target(req.target());
    const std::string path = target.substr(0, target.find('?'));
    const bool head = req.method() == http::verb::head;
    auto send = [&](http::response<http::string_body> res) {
      if (!head) return void(http::write(socket, res));
      http::response_serializer<http::string_body> sr{res};  // HEAD: the header alone
      http::write_header(socket, sr);
    };
    if (req.method() != http::verb::get && !head) {
      send(reply(http::status::method_not_allowed, "text/plain", "GET only\n"));
    } else if (path == "/events") {
      if (head)
        send(reply(http::status::ok, "text/event-stream", ""));
      else
        stream_events(socket, from, *dropped, id);
    } else {
      const FeedSnapshot now = feed.current();
      if (path == "/" || path == "/index.html")
        send(reply(http::status::ok, "text/html; charset=utf-8", page_html()));
      else if (path == "/tables.json")
        send(reply(http::status::ok, "application/json", now.page_json));
      else if (path == "/live.pgn")
        send(reply(http::status::ok, "application/x-chess-pgn", now.live_pgn));
      else if (path == "/round.json")
        send(reply(http::status::ok, "application/json", now.round_json));
      else if (std::string text;
               is_game_file_name(path.substr(1)) && read_small_file(output_dir + path, text))
        send(reply(http::status::ok, "application/x-chess-pgn", std::move(text)));
      else
        send(reply(http::status::not_found, "text/plain", "not found\n"));
    }
  } catch (const std::exception&) {
    // A reader gone, too slow or a bad request: this connection ends, the others go on.
  }
  beast::error_code ec;
  socket.shutdown(tcp::socket::shutdown_both, ec);
  socket.close(ec);
  std::lock_guard lock(mutex);
  connection_slots.release(id);
  open.erase(id);
  --running;
  done.notify_all();
}

void HttpServer::Impl::stream_events(tcp::socket& socket, const std::string& from,
                                     const std::atomic<bool>& dropped,
                                     AddressSlots::Id connection) {
  // A stream's slot first: this viewer is served, another stream closed if one must make
  // room (its socket shut, its wait on the feed ended, so its connection goes at once).
  AddressSlots::Id id = 0;
  bool made_room = false;
  {
    std::lock_guard lock(mutex);
    const AddressSlots::Admission a = stream_slots.admit(from);
    id = a.id;
    if (a.dropped) {
      drop(stream_connection.at(*a.dropped));
      stream_connection.erase(*a.dropped);
      made_room = true;
    }
    stream_connection.emplace(id, connection);
  }
  if (made_room) feed.wake();
  struct Release {
    Impl& impl;
    AddressSlots::Id id;
    ~Release() {
      std::lock_guard lock(impl.mutex);
      impl.stream_slots.release(id);
      impl.stream_connection.erase(id);
    }
  } release{*this, id};

  http::response<http::empty_body> head{http::status::ok, 11};
  head.set(http::field::server, "tactiled-hall");
  head.set(http::field::content_type, "text/event-stream");
  head.set(http::field::cache_control, "no-cache");
  head.keep_alive(true);
  http::response_serializer<http::empty_body> sr{head};
  http::write_header(socket, sr);
  std::uint64_t seen = 0;
  while (!feed.stopped() && !dropped) {
    // Every change at once, and the hall's clock with it and at least every 15 s (which
    // also keeps proxies from closing the stream): the page runs the clocks on from
    // read_at, which is on the hall's clock, whatever the clock of the phone showing it.
    const FeedSnapshot now = feed.wait_for_change(seen, std::chrono::seconds(15), &dropped);
    if (feed.stopped() || dropped) break;
    const auto hall_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
    std::string event = "event: time\ndata: " + std::to_string(hall_ms) + "\n\n";
    if (now.version != seen) event += "data: " + now.page_json + "\n\n";
    seen = now.version;
    asio::write(socket, asio::buffer(event));
  }
}

HttpServer::HttpServer(const std::string& address, int port, const PageFeed& feed,
                       const std::string& output_dir)
    : impl_(std::make_unique<Impl>(feed, output_dir)) {
  try {
    const tcp::endpoint at(asio::ip::make_address(address), static_cast<unsigned short>(port));
    impl_->acceptor.open(at.protocol());
    impl_->acceptor.set_option(asio::socket_base::reuse_address(true));
    impl_->acceptor.bind(at);
    impl_->acceptor.listen();
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot listen on " + address + " port " + std::to_string(port) +
                             ": " + e.what());
  }
  impl_->accept_next();
  impl_->accepting = std::thread([this] { impl_->io.run(); });
}

HttpServer::~HttpServer() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
    for (const auto& [id, c] : impl_->open) ::shutdown(c.fd, SHUT_RDWR);  // wakes blocked I/O
  }
  asio::post(impl_->io, [this] {
    beast::error_code ec;
    impl_->acceptor.close(ec);
  });
  impl_->accepting.join();
  // The connections' threads use the feed (the caller stopped it): wait until all are done.
  std::unique_lock lock(impl_->mutex);
  impl_->done.wait(lock, [this] { return impl_->running == 0; });
}

int HttpServer::port() const {
  return impl_->acceptor.local_endpoint().port();
}

}  // namespace tactile::hall
