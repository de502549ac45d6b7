// SPDX-License-Identifier: MIT
#include "web/native_extract.h"

#include "web/page_content.h"

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

namespace hermes::web {
namespace {

constexpr int kPerHost = 2;

// At most kPerHost fetches of one host at a time.
class HostSlots {
 public:
  void acquire(const std::string& host) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return busy_[host] < kPerHost; });
    ++busy_[host];
  }
  void release(const std::string& host) {
    {
      std::lock_guard lock(mu_);
      --busy_[host];
    }
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, int> busy_;
};

class NativeExtract final : public ExtractBackend {
 public:
  explicit NativeExtract(NativeConfig c) : c_(std::move(c)) {}

  Result<std::vector<ExtractRow>> extract(const std::vector<std::string>& urls,
                                          std::stop_token stop) const override {
    std::vector<ExtractRow> rows(urls.size());
    HostSlots slots;
    auto deadline = std::chrono::steady_clock::now() + c_.call_timeout;
    {
      std::vector<std::jthread> workers;
      for (size_t i = 0; i < urls.size(); ++i)
        workers.emplace_back([&, i] { rows[i] = one(urls[i], slots, deadline, stop); });
    }
    if (stop.stop_requested()) return Error::Cancelled("Interrupted");
    return rows;
  }

 private:
  ExtractRow one(const std::string& url, HostSlots& slots,
                 std::chrono::steady_clock::time_point deadline, std::stop_token stop) const {
    auto parsed = parse_url(url);
    std::string host = parsed ? parsed->host : "";
    slots.acquire(host);
    PageFetchEnv env{*c_.guard, c_.policy, c_.limits, c_.max_redirects, deadline, c_.call_timeout};
    FetchedPage page = fetch_page(url, env, stop);
    slots.release(host);
    ExtractRow row{url, page.url, "", "", page.error, page.policy_block};
    if (!page.error.empty()) return row;
    PageContent content = page_content(page.body, page.content_type, page.url,
                                       {page.deadline, page.timeout_error}, stop);
    row.title = std::move(content.title);
    row.content = std::move(content.content);
    row.error = std::move(content.error);
    return row;
  }

  NativeConfig c_;
};

}  // namespace

std::unique_ptr<ExtractBackend> make_native_extract(NativeConfig config) {
  return std::make_unique<NativeExtract>(std::move(config));
}

}  // namespace hermes::web
