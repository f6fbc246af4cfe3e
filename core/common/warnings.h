// Non-fatal problems found while reading, counted per kind: memory stays bounded however many times a damaged
// file repeats the same problem (a file of zeros is millions of "skipped unknown chunk 0x0").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rs {

class WarningLog {
  public:
    static constexpr size_t kDetailsPerKind = 3; // details kept (shown) per kind
    static constexpr size_t kMaxKinds = 64;      // kinds kept; further kinds are only counted

    // One occurrence of `kind` ("skipped unknown chunk") at `detail` ("0x400/0x1234"); detail may be empty.
    void add(const std::string& kind, const std::string& detail = {}) {
        for (Kind& k : kinds_)
            if (k.kind == kind) {
                if (k.details.size() < kDetailsPerKind && !detail.empty()) k.details.push_back(detail);
                ++k.count;
                return;
            }
        if (kinds_.size() == kMaxKinds) {
            ++dropped_;
            return;
        }
        kinds_.push_back({kind, detail.empty() ? std::vector<std::string>{} : std::vector<std::string>{detail}, 1});
    }

    // One line per kind: "kind detail" when it occurred once, else
    // "kind d1, d2, d3 and N more (M in all)" / "kind (M times)".
    std::vector<std::string> lines() const {
        std::vector<std::string> out;
        for (const Kind& k : kinds_) {
            std::string s = k.kind;
            for (size_t i = 0; i < k.details.size(); ++i)
                s += (i ? ", " : " ") + k.details[i];
            if (k.count > 1) {
                if (k.count > k.details.size() && !k.details.empty())
                    s += " and " + std::to_string(k.count - k.details.size()) + " more";
                s += " (" + std::to_string(k.count) + (k.details.empty() ? " times)" : " in all)");
            }
            out.push_back(std::move(s));
        }
        if (dropped_) out.push_back(std::to_string(dropped_) + " further warnings of other kinds");
        return out;
    }

  private:
    struct Kind {
        std::string kind;
        std::vector<std::string> details;
        size_t count;
    };
    std::vector<Kind> kinds_;
    size_t dropped_ = 0;
};

// Appends `line` to a plain warning list, bounded: the first kMaxListedWarnings lines are kept, then one last line
// counts the ones left out ("N further warnings not listed"), so that a damaged file repeating a problem millions
// of times costs no more memory than that.
constexpr size_t kMaxListedWarnings = 256;
inline void pushWarning(std::vector<std::string>& list, std::string line) {
    static const std::string kTail = " further warnings not listed";
    if (list.size() < kMaxListedWarnings) {
        list.push_back(std::move(line));
        return;
    }
    if (list.size() == kMaxListedWarnings) {
        list.push_back("1" + kTail);
        return;
    }
    std::string& last = list.back();
    last = std::to_string(std::stoull(last.substr(0, last.size() - kTail.size())) + 1) + kTail;
}

} // namespace rs
