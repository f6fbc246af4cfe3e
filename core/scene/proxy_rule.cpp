#include "scene/proxy_rule.h"

#include "scene/model.h"

namespace rs {

bool proxyShown(const Model& model, int proxy, const ProxyView& view) {
    if (proxy < 0 || size_t(proxy) >= model.proxies.size()) return true;
    const Proxy& px = model.proxies[size_t(proxy)];
    if (!view.proxies) return false;
    if (px.hidden && !view.showHidden) return false;
    if (px.alt >= 0) {
        if (px.alt != view.alt) return false;
        if (px.altDecreaseStayHidden && view.altDecreased) return false;
    }
    return true;
}

} // namespace rs
