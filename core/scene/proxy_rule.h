// Whether a model's proxy (and what hangs from it: its model, its particle system, its label) is shown: one rule
// for the desktop view (render/proxy_parts.cpp) and the web page (web/src/rigscope_web.cpp).
#pragma once

namespace rs {

struct Model;

// The view's state the rule reads.
struct ProxyView {
    bool proxies = true;       // the "proxies" view option
    bool showHidden = false;   // the "show hidden" view option (the page has none: false)
    int alt = 0;               // the ALT level shown
    bool altDecreased = false; // the ALT level was last lowered
};

// A proxy index outside the model's proxies is shown (true). Otherwise: the proxies option is on, the proxy is not
// hidden unless hidden ones are shown, and a proxy of an ALT level is shown only at that level, and not after the
// level went down when it says altDecreaseStayHidden.
bool proxyShown(const Model& model, int proxy, const ProxyView& view);

} // namespace rs
