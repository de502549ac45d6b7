// SPDX-License-Identifier: MIT
// web_extract in the order a model's URLs must be judged: secrets refused
// for the whole call, then per URL the address check, the backend choice,
// the website policy, the cache, the backend itself; rows are matched back
// to the request by URL (never by position), then cleaned and fitted into
// the result budget.
#include "core/config.h"
#include "core/strings.h"
#include "tools/web/extract_guards.h"
#include "tools/web/page_store.h"
#include "tools/web/web_tools.h"
#include "web/backend_select.h"
#include "web/page_content.h"
#include "web/site_policy.h"
#include "web/url.h"

#include <algorithm>

namespace hermes::web_tools {
namespace {

constexpr const char* kNoRow = "Extract backend returned no result for this URL";

struct Slot {
  ExtractEntry entry;
  bool pending = false;    // still to be asked of the backend
  bool cacheable = false;  // judged from the pre-check's addresses
};

std::string loose(std::string url) {
  if (!url.empty() && url.back() == '/') url.pop_back();
  return to_lower(url);
}

// The row answering `url`: by the URL the backend was asked, else the URL
// it reports, else the same ignoring case and a trailing slash.
const web::ExtractRow* row_for(const std::string& url, const std::vector<web::ExtractRow>& rows) {
  for (const auto& r : rows)
    if (r.requested == url) return &r;
  for (const auto& r : rows)
    if (r.requested.empty() && r.url == url) return &r;
  for (const auto& r : rows)
    if (r.requested.empty() && loose(r.url) == loose(url)) return &r;
  return nullptr;
}

void fail(Slot& slot, std::string error) {
  slot.entry.title.clear();
  slot.entry.content.clear();
  slot.entry.error = std::move(error);
  slot.pending = false;
}

// Backend rows into their slots; a reported final URL is vetted again.
void merge(std::vector<Slot>& slots, const std::vector<web::ExtractRow>& rows,
           const WebService& service, const web::SitePolicy& policy) {
  for (Slot& slot : slots) {
    if (!slot.pending) continue;
    const web::ExtractRow* row = row_for(slot.entry.url, rows);
    if (!row) {
      fail(slot, kNoRow);
      continue;
    }
    slot.pending = false;
    bool moved = !row->url.empty() && row->url != slot.entry.url;  // a final URL to vet again
    if (moved) slot.entry.url = row->url;
    slot.entry.blocked_by_policy = row->policy_block;
    if (!row->error.empty()) {
      fail(slot, row->error);
      continue;
    }
    auto moved_to = moved ? service.guard().vet(std::string_view(slot.entry.url))
                          : Result<web::VettedTarget>(web::VettedTarget{});
    if (!moved_to) {
      fail(slot, moved_to.error().message);
    } else if (auto block = policy.check(slot.entry.url)) {
      fail(slot, block->message());
      slot.entry.blocked_by_policy = block;
    } else {
      slot.entry.title = row->title;
      slot.entry.content = row->content;
    }
  }
}

// Binary payloads refused, inline images replaced (in the title too: the
// whole result is swept, as upstream sweeps its JSON).
void clean(ExtractEntry& entry) {
  entry.title = replace_inline_images(entry.title);
  if (entry.error || entry.content.empty()) return;
  std::string head;
  for (char c : std::string_view(entry.content).substr(0, 64))
    if (c != '\0') head += c;
  if (auto type = web::binary_type(head)) {
    entry.content.clear();
    entry.error = web::binary_error(*type);
    return;
  }
  entry.content = replace_inline_images(sanitize_utf8(entry.content));
}

// Fits every page into the budget and the whole result under the cap.
void fit(std::vector<ExtractEntry>& entries, size_t char_limit, WebService& service,
         std::string& hint) {
  size_t pages = std::count_if(entries.begin(), entries.end(),
                               [](const auto& e) { return !e.content.empty(); });
  size_t budget =
      pages == 0 ? char_limit : std::min(char_limit, std::max<size_t>(2000, 90000 / pages));
  std::vector<std::string> full;
  for (auto& e : entries) full.push_back(e.content);
  for (int round = 0; round < 4; ++round) {
    for (size_t i = 0; i < entries.size(); ++i) {
      if (full[i].empty()) continue;
      const std::string& url = entries[i].url;
      entries[i].content = fit_page(full[i], budget, [&]() -> std::optional<std::string> {
        std::string path = stored_page_path(service.store_dir(), url);
        return store_page(path, full[i]) ? std::optional(path) : std::nullopt;
      });
    }
    size_t size = extract_json_size({entries, "", ""});
    if (size <= kResultCap - 2000 || budget <= 2000) break;
    budget = std::max<size_t>(2000, budget * (kResultCap - 4000) / size);
  }
  if (budget < char_limit && pages > 0)
    hint =
        "Per-page budget reduced to " + std::to_string(budget) +
        " chars to fit the 100,000-char result limit; extract fewer URLs per call for more text.";
}

std::vector<Slot> slots_for(const ExtractParams& params) {
  std::vector<Slot> slots;
  for (const ExtractItem& item : params.items) {
    Slot slot;
    slot.entry.url = item.error.empty() ? web::normalize_url(item.url) : "";
    slot.pending = item.error.empty();
    if (!item.error.empty()) slot.entry.error = item.error;
    slots.push_back(std::move(slot));
  }
  return slots;
}

std::optional<std::string> secret_refusal(const ExtractParams& params) {
  for (const ExtractItem& item : params.items) {
    if (!item.error.empty()) continue;
    if (auto refusal = secret_in_url(item.url, web::normalize_url(item.url))) return refusal;
  }
  return std::nullopt;
}

// Pages served from the cache; the rest stay pending.
void from_cache(std::vector<Slot>& slots, WebService& service, const std::string& backend) {
  for (Slot& slot : slots) {
    if (!slot.pending || !slot.cacheable) continue;
    auto hit = service.pages().find(backend + "\n" + slot.entry.url);
    if (!hit) continue;
    slot.pending = false;
    slot.entry.title = hit->title;
    slot.entry.content = hit->content;
    slot.entry.url = hit->url;
  }
}

Status ask_backend(std::vector<Slot>& slots, WebService& service, const std::string& backend_name,
                   const web::SitePolicy& policy, std::stop_token stop) {
  std::vector<std::string> urls;
  for (const Slot& s : slots)
    if (s.pending) urls.push_back(s.entry.url);
  if (urls.empty()) return {};
  web::NativeConfig native{service.shared_guard(), policy, service.fetch_limits(), 10,
                           service.call_timeout()};
  auto backend =
      web::make_extract_backend(backend_name, service.config(), service.env(), std::move(native));
  auto rows = backend->extract(urls, stop);
  if (!rows) {
    if (rows.error().code == ErrorCode::kCancelled || stop.stop_requested())
      return Error::Cancelled("Interrupted");
    return Error::Io("Error extracting content: " + rows.error().message);
  }
  merge(slots, *rows, service, policy);
  return {};
}

}  // namespace

Result<ExtractOutput> web_extract(const ExtractParams& params, registry::CallContext& ctx) {
  auto run = [&](WebService& service) { return run_extract(params, service, ctx.stop); };
  return with_web_service<ExtractOutput>(ctx, "Error extracting content: ", run);
}

Result<ExtractOutput> run_extract(const ExtractParams& params, WebService& service,
                                  std::stop_token stop) {
  if (params.items.empty()) return Error::NotFound("Content was inaccessible or not found");
  if (auto refusal = secret_refusal(params)) return Error::PermissionDenied(*refusal);
  if (stop.stop_requested()) return Error::Cancelled("Interrupted");
  std::vector<Slot> slots = slots_for(params);
  for (Slot& slot : slots) {
    if (!slot.pending) continue;
    auto vetted = service.guard().vet(std::string_view(slot.entry.url));
    if (!vetted)
      fail(slot, vetted.error().message);  // the guard's text: the scheme or the address
    else
      slot.cacheable = service.cacheable(slot.entry.url, *vetted);
  }
  bool any = std::any_of(slots.begin(), slots.end(), [](const Slot& s) { return s.pending; });
  web::Selection selection;
  if (any) {
    selection = web::select_backend(service.config(), service.env(), web::Capability::kExtract);
    if (!selection.error.empty()) return Error::Unavailable(selection.error);
  }
  web::SitePolicy policy = web::SitePolicy::from_config(service.config());
  for (Slot& slot : slots) {
    if (!slot.pending) continue;
    if (auto block = policy.check(slot.entry.url)) {
      fail(slot, block->message());
      slot.entry.blocked_by_policy = block;
    }
  }
  from_cache(slots, service, selection.name);
  std::vector<std::string> asked;
  for (const Slot& s : slots) asked.push_back(s.pending && s.cacheable ? s.entry.url : "");
  HERMES_TRY(ask_backend(slots, service, selection.name, policy, stop));
  ExtractOutput out;
  for (size_t i = 0; i < slots.size(); ++i) {
    ExtractEntry& e = slots[i].entry;
    clean(e);
    if (!e.error && !e.content.empty() && !asked[i].empty())
      service.pages().put(selection.name + "\n" + asked[i], {e.url, e.title, e.content});
    out.results.push_back(std::move(e));
  }
  int64_t budget =
      params.char_limit.value_or(service.config().get_int("web.extract_char_limit", 15000));
  fit(out.results, static_cast<size_t>(std::clamp<int64_t>(budget, 2000, 500000)), service,
      out.hint);
  if (params.given > params.items.size())
    out.warning = "Only the first 5 URLs were extracted (" + std::to_string(params.given) +
                  " given); call again for the rest.";
  return out;
}

}  // namespace hermes::web_tools
