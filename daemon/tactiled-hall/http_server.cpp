#include "daemon/tactiled-hall/http_server.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>

#include "daemon/tactiled-hall/page_html.h"

namespace tactile::hall {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

struct HttpServer::Impl {
  Impl(const PageFeed& f) : feed(f), acceptor(io) {}
  const PageFeed& feed;
  asio::io_context io;
  tcp::acceptor acceptor;
  std::thread accepting;
  std::mutex mutex;
  std::condition_variable done;
  std::set<int> open;  // sockets of the connections being served
  bool stopping = false;

  void accept_next();
  void serve(tcp::socket socket);
  void stream_events(tcp::socket& socket);
};

namespace {

// A reader that stops sending in the middle of a request does not hold a thread forever.
void set_receive_timeout(int fd, int seconds) {
  timeval tv{seconds, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
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

}  // namespace

void HttpServer::Impl::accept_next() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec) return;  // the acceptor was closed
    {
      std::lock_guard lock(mutex);
      if (stopping || open.size() >= kMaxConnections) {
        socket.close(ec);
        accept_next();
        return;
      }
      open.insert(socket.native_handle());
    }
    std::thread([this, s = std::move(socket)]() mutable { serve(std::move(s)); }).detach();
    accept_next();
  });
}

void HttpServer::Impl::serve(tcp::socket socket) {
  const int fd = socket.native_handle();
  try {
    set_receive_timeout(fd, 10);
    beast::flat_buffer buffer;
    http::request<http::string_body> req;
    http::read(socket, buffer, req);
    const std::string target(req.target());
    const std::string path = target.substr(0, target.find('?'));
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
      http::write(socket, reply(http::status::method_not_allowed, "text/plain", "GET only\n"));
    } else if (path == "/events") {
      stream_events(socket);
    } else {
      const FeedSnapshot now = feed.current();
      if (path == "/" || path == "/index.html")
        http::write(socket, reply(http::status::ok, "text/html; charset=utf-8", page_html()));
      else if (path == "/tables.json")
        http::write(socket, reply(http::status::ok, "application/json", now.page_json));
      else if (path == "/live.pgn")
        http::write(socket, reply(http::status::ok, "application/x-chess-pgn", now.live_pgn));
      else if (path == "/round.json")
        http::write(socket, reply(http::status::ok, "application/json", now.round_json));
      else
        http::write(socket, reply(http::status::not_found, "text/plain", "not found\n"));
    }
  } catch (const std::exception&) {
    // A reader gone or a bad request: this connection ends, the others go on.
  }
  beast::error_code ec;
  socket.shutdown(tcp::socket::shutdown_both, ec);
  socket.close(ec);
  std::lock_guard lock(mutex);
  open.erase(fd);
  done.notify_all();
}

void HttpServer::Impl::stream_events(tcp::socket& socket) {
  http::response<http::empty_body> head{http::status::ok, 11};
  head.set(http::field::server, "tactiled-hall");
  head.set(http::field::content_type, "text/event-stream");
  head.set(http::field::cache_control, "no-cache");
  head.keep_alive(true);
  http::response_serializer<http::empty_body> sr{head};
  http::write_header(socket, sr);
  std::uint64_t seen = 0;
  while (!feed.stopped()) {
    // Every change at once, and the hall's clock with it and at least every 15 s (which
    // also keeps proxies from closing the stream): the page runs the clocks on from
    // read_at, which is on the hall's clock, whatever the clock of the phone showing it.
    const FeedSnapshot now = feed.wait_for_change(seen, std::chrono::seconds(15));
    if (feed.stopped()) break;
    const auto hall_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
    std::string event = "event: time\ndata: " + std::to_string(hall_ms) + "\n\n";
    if (now.version != seen) event += "data: " + now.page_json + "\n\n";
    seen = now.version;
    asio::write(socket, asio::buffer(event));
  }
}

HttpServer::HttpServer(const std::string& address, int port, const PageFeed& feed)
    : impl_(std::make_unique<Impl>(feed)) {
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
    for (int fd : impl_->open) ::shutdown(fd, SHUT_RDWR);  // wakes blocked reads and writes
  }
  asio::post(impl_->io, [this] {
    beast::error_code ec;
    impl_->acceptor.close(ec);
  });
  impl_->accepting.join();
  // The connections' threads use the feed (the caller stopped it): wait until all are done.
  std::unique_lock lock(impl_->mutex);
  impl_->done.wait(lock, [this] { return impl_->open.empty(); });
}

int HttpServer::port() const {
  return impl_->acceptor.local_endpoint().port();
}

}  // namespace tactile::hall
