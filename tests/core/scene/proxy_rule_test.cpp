// The proxy rule (core/scene/proxy_rule.h) the desktop view and the web page share: the proxies option, hidden
// proxies, ALT levels and altDecreaseStayHidden.
#include "scene/model.h"
#include "scene/proxy_rule.h"

#include <catch2/catch.hpp>

using namespace rs;

TEST_CASE("proxyShown: option, hidden flag, ALT level and altDecreaseStayHidden", "[proxy_rule]") {
    Model m;
    Proxy plain;
    plain.name = "ENGINE";
    Proxy hidden;
    hidden.name = "HIDDEN_FX";
    hidden.hidden = true;
    Proxy alt1;
    alt1.name = "FIRE_ALT1";
    alt1.alt = 1;
    Proxy alt1Stay = alt1;
    alt1Stay.altDecreaseStayHidden = true;
    m.proxies = {plain, hidden, alt1, alt1Stay};

    ProxyView v; // proxies on, hidden not shown, ALT 0
    CHECK(proxyShown(m, 0, v));
    CHECK_FALSE(proxyShown(m, 1, v));
    CHECK_FALSE(proxyShown(m, 2, v)); // an ALT 1 proxy at ALT 0
    CHECK_FALSE(proxyShown(m, 3, v));
    // Indices that are not proxies (an object attachment, -1) are shown.
    CHECK(proxyShown(m, -1, v));
    CHECK(proxyShown(m, 4, v));

    v.showHidden = true;
    CHECK(proxyShown(m, 1, v));
    v.alt = 1;
    CHECK(proxyShown(m, 2, v));
    CHECK(proxyShown(m, 3, v));
    v.altDecreased = true; // came down to ALT 1 from a higher level
    CHECK(proxyShown(m, 2, v));
    CHECK_FALSE(proxyShown(m, 3, v));

    v.proxies = false;
    for (int i = 0; i < 4; ++i)
        CHECK_FALSE(proxyShown(m, i, v));
    CHECK(proxyShown(m, -1, v));
}
