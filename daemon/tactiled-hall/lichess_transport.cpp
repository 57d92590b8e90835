// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon/tactiled-hall/lichess_transport.h"

#include <curl/curl.h>

namespace tactile::hall {
namespace {

// lichess's answer is a few hundred bytes a game: more than this is not its answer.
constexpr std::size_t kMaxAnswer = 1024 * 1024;

std::size_t keep(char* data, std::size_t size, std::size_t n, void* out) {
  auto* body = static_cast<std::string*>(out);
  if (body->size() + size * n > kMaxAnswer) return 0;  // ends the transfer
  body->append(data, size * n);
  return size * n;
}

int progress(void* cancelled, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return static_cast<const std::atomic<bool>*>(cancelled)->load() ? 1 : 0;
}

class CurlTransport : public PushTransport {
 public:
  void post(const std::string& url, const std::string& token, PushAnswer& answer,
            const std::atomic<bool>& cancelled) override {
    CURL* curl = curl_easy_init();
    if (!curl) {
      answer.failure = "cannot make an HTTP request";
      return;
    }
    const std::string authorization = "Authorization: Bearer " + token;
    curl_slist* headers = curl_slist_append(nullptr, authorization.c_str());
    headers = curl_slist_append(headers, "Content-Type: text/plain; charset=utf-8");
    headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip
    char error[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, answer.sent.pgn.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(answer.sent.pgn.size()));
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "tactiled-hall");
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // a thread of a program with signals
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, keep);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer.body);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, const_cast<std::atomic<bool>*>(&cancelled));
    const CURLcode rc = curl_easy_perform(curl);
    if (rc == CURLE_OK) {
      long status = 0;
      curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
      answer.status = static_cast<int>(status);
    } else {
      // curl's words name the host and what failed, never the request's headers.
      answer.failure = *error ? error : curl_easy_strerror(rc);
      answer.body.clear();
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
  }
};

}  // namespace

std::unique_ptr<PushTransport> curl_transport() {
  return std::make_unique<CurlTransport>();
}

}  // namespace tactile::hall
