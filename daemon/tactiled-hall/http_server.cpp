// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/http_server.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

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
#include <string_view>

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
  void stream_events(int fd, const std::string& from, const std::atomic<bool>& dropped,
                     AddressSlots::Id connection);
};

namespace {

using Clock = std::chrono::steady_clock;

// Waits until `fd` is ready for `events` or `deadline` passes (then throws). Every wait of
// a connection goes through here, never through a blocking call: asio's blocking reads and
// writes poll again without end when a socket's SO_RCVTIMEO or SO_SNDTIMEO expires, so a
// socket's own timeouts bound nothing.
void wait_ready(int fd, short events, Clock::time_point deadline, const char* what) {
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) throw std::runtime_error(what);
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 60000)));
    if (n > 0) return;  // ready, or hung up / failed: the read or write says which
    if (n < 0 && errno != EINTR) throw std::runtime_error("poll failed");
  }
}

// The request, its header whole within `timeout` from now: a reader that sends a byte now
// and then (a slow half-sent request) is dropped when the time is up, not at its pace.
// Throws on a timeout, a header over 8 KiB or a body (the page takes none).
http::request<http::empty_body> read_request(int fd, std::chrono::milliseconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  http::request_parser<http::empty_body> parser;
  parser.header_limit(8 * 1024);
  std::string pending;  // bytes come, not yet taken by the parser (it takes a whole header)
  char chunk[4096];
  while (!parser.is_done()) {
    wait_ready(fd, POLLIN, deadline, "request header timed out");
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, MSG_DONTWAIT);
    if (n == 0) throw std::runtime_error("closed before its request");
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) continue;
      throw std::runtime_error("read failed");
    }
    pending.append(chunk, static_cast<std::size_t>(n));
    beast::error_code ec;
    const std::size_t used = parser.put(asio::buffer(pending), ec);
    pending.erase(0, used);
    if (ec && ec != http::error::need_more) throw beast::system_error(ec);
  }
  return parser.release();
}

// Writes all of `data`, the reader taking some of it at least every `idle`: one that takes
// nothing for that long (an event stream it does not read) is dropped (throws).
void write_all(int fd, std::string_view data, std::chrono::milliseconds idle) {
  while (!data.empty()) {
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      wait_ready(fd, POLLOUT, Clock::now() + idle, "reader took nothing");
    } else if (!(n < 0 && errno == EINTR)) {
      throw std::runtime_error("write failed");
    }
  }
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

// live.pgn as a broadcast's URL source wants it (lichess polls it every few seconds): UTF-8
// said, its ETag, and 304 with no body to a poller that has this version already.
http::response<http::string_body> live_pgn_reply(const FeedSnapshot& now,
                                                 std::string_view if_none_match) {
  const bool same = if_none_match.find(now.live_etag) != std::string_view::npos;
  http::response<http::string_body> res =
      reply(same ? http::status::not_modified : http::status::ok,
            "application/x-chess-pgn; charset=utf-8", same ? std::string() : now.live_pgn);
  res.set(http::field::etag, now.live_etag);
  if (same) res.erase(http::field::content_length);  // a 304 has no body
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
      // At the caps, the address holding the most closes one for it; only an address that
      // came back more than every holder is refused (AddressSlots).
      const AddressSlots::Admission a = connection_slots.admit(from);
      if (a.refused) {
        socket.close(ec);
        accept_next();
        return;
      }
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
    const http::request<http::empty_body> req = read_request(fd, kHeaderTimeout);
    const std::string target(req.target());
    const std::string path = target.substr(0, target.find('?'));
    const bool head = req.method() == http::verb::head;
    auto send = [&](http::response<http::string_body> res) {
      std::ostringstream out;
      if (head)
        out << res.base();  // HEAD: the header alone
      else
        out << res;
      write_all(fd, out.str(), kIdleTimeout);
    };
    if (req.method() != http::verb::get && !head) {
      send(reply(http::status::method_not_allowed, "text/plain", "GET only\n"));
    } else if (path == "/events") {
      if (head)
        send(reply(http::status::ok, "text/event-stream", ""));
      else
        stream_events(fd, from, *dropped, id);
    } else {
      const std::shared_ptr<const FeedSnapshot> snapshot = feed.current();
      const FeedSnapshot& now = *snapshot;
      if (path == "/" || path == "/index.html")
        send(reply(http::status::ok, "text/html; charset=utf-8", page_html()));
      else if (path == "/tables.json")
        send(reply(http::status::ok, "application/json", now.page_json));
      else if (path == "/live.pgn")
        send(live_pgn_reply(now, std::string(req[http::field::if_none_match])));
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

void HttpServer::Impl::stream_events(int fd, const std::string& from,
                                     const std::atomic<bool>& dropped,
                                     AddressSlots::Id connection) {
  // A stream's slot first: this viewer is served, another stream closed if one must make
  // room (its socket shut, its wait on the feed ended, so its connection goes at once), or
  // it is refused (its address came back more than every holder's).
  AddressSlots::Id id = 0;
  bool made_room = false;
  {
    std::lock_guard lock(mutex);
    const AddressSlots::Admission a = stream_slots.admit(from);
    if (a.refused) return;  // its connection closes
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
  std::ostringstream header;
  header << head.base();
  write_all(fd, header.str(), kIdleTimeout);
  std::uint64_t seen = 0;
  while (!feed.stopped() && !dropped) {
    // Every change at once, and the hall's clock with it and at least every 15 s (which
    // also keeps proxies from closing the stream): the page runs the clocks on from
    // read_at, which is on the hall's clock, whatever the clock of the phone showing it.
    const std::shared_ptr<const FeedSnapshot> now =
        feed.wait_for_change(seen, std::chrono::seconds(15), &dropped);
    if (feed.stopped() || dropped) break;
    const auto hall_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
    // The page's JSON is written from the snapshot, not copied into one event's text.
    const bool changed = now->version != seen;
    write_all(fd,
              "event: time\ndata: " + std::to_string(hall_ms) + (changed ? "\n\ndata: " : "\n\n"),
              kIdleTimeout);
    if (changed) {
      write_all(fd, now->page_json, kIdleTimeout);
      write_all(fd, "\n\n", kIdleTimeout);
    }
    seen = now->version;
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
