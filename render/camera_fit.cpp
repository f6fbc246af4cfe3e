#include "camera_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace rs::render {

namespace {

struct P2 {
    double s, a; // across the view, toward the camera
};

// Convex hull of the points (Andrew's monotone chain), without collinear points; the points themselves when fewer
// than three.
std::vector<P2> convexHull(std::vector<P2> p) {
    std::sort(p.begin(), p.end(), [](const P2& x, const P2& y) { return x.s < y.s || (x.s == y.s && x.a < y.a); });
    p.erase(std::unique(p.begin(), p.end(), [](const P2& x, const P2& y) { return x.s == y.s && x.a == y.a; }),
            p.end());
    if (p.size() < 3) return p;
    auto cross = [](const P2& o, const P2& x, const P2& y) {
        return (x.s - o.s) * (y.a - o.a) - (x.a - o.a) * (y.s - o.s);
    };
    std::vector<P2> h(2 * p.size());
    size_t k = 0;
    for (size_t i = 0; i < p.size(); ++i) {
        while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0)
            --k;
        h[k++] = p[i];
    }
    for (size_t i = p.size() - 1, t = k + 1; i > 0; --i) {
        while (k >= t && cross(h[k - 2], h[k - 1], p[i - 1]) <= 0)
            --k;
        h[k++] = p[i - 1];
    }
    h.resize(k - 1);
    return h;
}

// Points (s, a) seen from a camera dz along the view axis (each at depth dz - a > 0): the shift c across the view
// that centres their perspective projection, and their half-extent then, in tangent units: the c minimising
// max_i |s_i - c| / (dz - a_i) (the largest of (s - c) / depth falls with c, of (c - s) / depth rises: bisection).
// Linear-fractional, so the extremes are at the vertices of the points' convex hull: h is that hull.
std::pair<double, double> centredExtent(const std::vector<P2>& h, double dz) {
    double lo = std::numeric_limits<double>::max(), hi = -lo;
    for (const P2& q : h) {
        lo = std::min(lo, q.s);
        hi = std::max(hi, q.s);
    }
    auto sides = [&](double c, double& right, double& left) {
        right = left = -std::numeric_limits<double>::max();
        for (const P2& q : h) {
            const double z = dz - q.a;
            right = std::max(right, (q.s - c) / z);
            left = std::max(left, (c - q.s) / z);
        }
    };
    double r = 0.0, l = 0.0;
    for (int i = 0; i < 60 && hi - lo > 1e-12 * std::max(1.0, std::abs(hi)); ++i) {
        const double c = (lo + hi) * 0.5;
        sides(c, r, l);
        (r > l ? lo : hi) = c;
    }
    const double c = (lo + hi) * 0.5;
    sides(c, r, l);
    return {c, std::max({r, l, 0.0})};
}

} // namespace

float CameraFraming::radius() const { return std::max(glm::length(hi - lo) * 0.5f, 1e-3f); }

void CameraFraming::clear() {
    lo = glm::vec3(std::numeric_limits<float>::max());
    hi = -lo;
    points.clear();
}

void CameraFraming::finish(const std::vector<glm::vec3>& fallback) {
    if (lo.x > hi.x) { // nothing drawn: use the fallback points
        for (const glm::vec3& p : fallback) {
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
        }
    }
    if (lo.x > hi.x) lo = hi = glm::vec3(0.0f);
}

OrbitCamera fitCamera(const CameraFraming& f, float aspect) {
    const float fovV = 40.0f;
    const float radius = f.radius();
    const float tanV = std::tan(glm::radians(fovV) * 0.5f), tanH = tanV * aspect;
    const float y = glm::radians(f.yaw), p = glm::radians(f.pitch);
    glm::vec3 dir;
    if (f.zUp)
        dir = glm::vec3(std::sin(y) * std::cos(p), std::cos(y) * std::cos(p), std::sin(p)); // yaw 0: camera on +Y
    else
        dir = glm::vec3(std::sin(y) * std::cos(p), std::sin(p), std::cos(y) * std::cos(p));
    const glm::vec3 worldUp = f.zUp ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
    glm::vec3 right = glm::cross(-dir, worldUp);
    if (glm::length(right) < 1e-6f) right = glm::vec3(1, 0, 0);
    right = glm::normalize(right);
    const glm::vec3 upv = glm::normalize(glm::cross(right, -dir));
    // Fit the drawn points (sampled vertices of the visible meshes at the current pose; the bounds' corners
    // when there are none): centre their extent across the view, then take the distance at which every
    // point is inside the frustum.
    std::vector<glm::vec3> corners;
    if (f.points.empty())
        for (int c = 0; c < 8; ++c)
            corners.emplace_back((c & 1) ? f.hi.x : f.lo.x, (c & 2) ? f.hi.y : f.lo.y, (c & 4) ? f.hi.z : f.lo.z);
    const std::vector<glm::vec3>& pts = f.points.empty() ? corners : f.points;
    glm::vec3 look = f.center(); // the bounds centre, moved to the middle of the drawn extent across the view
    float dist = 0.0f;
    if (f.orbit) {
        // A point at horizontal distance rho from the vertical axis through look and height h above it, seen
        // from yaw angle theta away from its own azimuth, is at along = rho cos(theta) cos(p) + h sin(p),
        // right = rho sin(theta), up = h cos(p) - rho cos(theta) sin(p). The largest of along + |right| / tanH over
        // theta is h sin(p) + rho sqrt(cos^2(p) + 1 / tanH^2); along + |up| / tanV is piecewise linear in
        // cos(theta), largest at cos(theta) = +-1. So this distance fits the point at every yaw.
        const float cp = std::cos(p), sp = std::sin(p);
        const float side = std::sqrt(cp * cp + 1.0f / (tanH * tanH));
        for (const glm::vec3& pt : pts) {
            const glm::vec3 q = pt - look;
            const float h = glm::dot(q, worldUp);
            const float rho = glm::length(q - worldUp * h);
            dist = std::max(dist, h * sp + rho * side);
            for (const float s : {1.0f, -1.0f})
                dist = std::max(dist, s * rho * cp + h * sp + std::abs(h * cp - s * rho * sp) / tanV);
        }
        dist *= 1.04f;
    } else {
        // Centred in perspective: the look point moved across the view and the distance chosen so that the
        // projection of the drawn points is centred in both directions and its tighter direction fills kFill of
        // the view (the near side of a long model looks larger than its far side: centring its extent across the
        // view without perspective left it low and to one side, with a third of the frame empty).
        constexpr double kFill = 0.92;
        std::vector<P2> across, upward;
        across.reserve(pts.size());
        upward.reserve(pts.size());
        double aMax = -std::numeric_limits<double>::max();
        for (const glm::vec3& pt : pts) {
            const glm::vec3 q = pt - look;
            const double a = glm::dot(q, dir);
            across.push_back({glm::dot(q, right), a});
            upward.push_back({glm::dot(q, upv), a});
            aMax = std::max(aMax, a);
        }
        const std::vector<P2> hx = convexHull(std::move(across)), hy = convexHull(std::move(upward));
        const double eps = std::max(1e-6, double(radius) * 1e-4);
        auto need = [&](double dz) {
            return std::max(centredExtent(hx, dz).second / double(tanH), centredExtent(hy, dz).second / double(tanV));
        };
        double lo = aMax + eps, hi = aMax + std::max(double(radius), eps);
        for (int i = 0; i < 60 && need(hi) > kFill; ++i)
            hi = aMax + (hi - aMax) * 2.0;
        if (need(lo) <= kFill) hi = lo;
        for (int i = 0; i < 60 && hi - lo > eps * 1e-3; ++i) {
            const double mid = (lo + hi) * 0.5;
            (need(mid) > kFill ? lo : hi) = mid;
        }
        const double sx = centredExtent(hx, hi).first, sy = centredExtent(hy, hi).first;
        look += right * float(sx) + upv * float(sy);
        dist = float(hi);
    }
    dist = std::max(dist, radius * 0.5f);
    OrbitCamera c;
    c.zUp = f.zUp;
    c.fovY = fovV;
    c.yaw = f.yaw;
    c.pitch = std::clamp(f.pitch, -OrbitCamera::kMaxPitch, OrbitCamera::kMaxPitch);
    c.target = look;
    c.distance = dist;
    c.sceneCentre = look;
    c.sceneRadius = radius;
    return c;
}

} // namespace rs::render
