#include "amal_stage_painter.h"

#include "amal/amal_env.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace rs::ui {

QImage amosImage(const amal::ImageBank& images, int a) {
    if (a < 1 || a > int(images.images.size())) return {};
    const amal::AmosImage& im = images.images[size_t(a - 1)];
    QImage q(std::max(1, im.width()), std::max(1, im.height), QImage::Format_ARGB32);
    q.fill(Qt::transparent);
    for (int y = 0; y < im.height; ++y)
        for (int x = 0; x < im.width(); ++x) {
            const int c = im.colorAt(x, y);
            if (c == 0) continue;
            const uint16_t v = images.palette[size_t(c & 31)];
            q.setPixel(x, y, qRgb(((v >> 8) & 15) * 17, ((v >> 4) & 15) * 17, (v & 15) * 17));
        }
    return q;
}

void paintAmalStage(QPainter& p, const QRectF& rect, const amal::Track& track, const AmalStageOptions& o) {
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect, QColor(0x20, 0x22, 0x2a));
    // World bounds: the track and a 320x256 lowres screen at (0,0).
    QRectF world(0, 0, 320, 256);
    for (const auto& q : track.points)
        world |= QRectF(q.x, q.y, 1, 1);
    world.adjust(-8, -8, 8, 8);
    const QRectF view = o.text ? rect.adjusted(10, 10, -10, -28) : rect.adjusted(2, 2, -2, -2);
    const double s = std::min(view.width() / world.width(), view.height() / world.height());
    const QPointF off(view.left() + (view.width() - world.width() * s) / 2 - world.left() * s,
                      view.top() + (view.height() - world.height() * s) / 2 - world.top() * s);
    auto map = [&](double x, double y) { return QPointF(off.x() + x * s, off.y() + y * s); };
    // Thumbnails are small: lines and dots scale with the stage, text does not appear.
    const double w = o.text ? 1.0 : std::max(1.0, std::min(rect.width(), rect.height()) / 128.0);

    p.setPen(QPen(QColor(0x55, 0x5a, 0x6a), w, Qt::DashLine));
    p.drawRect(QRectF(map(0, 0), map(320, 256)));
    p.setFont(o.font);
    if (o.text) {
        p.setPen(QColor(0x80, 0x85, 0x95));
        p.drawText(map(2, -2), "screen 320x256");
    }
    if (o.labelRects) o.labelRects->clear();

    if (!track.points.empty()) {
        QPainterPath path(map(track.points[0].x, track.points[0].y));
        for (const auto& q : track.points)
            path.lineTo(map(q.x, q.y));
        p.setPen(QPen(QColor(0x5c, 0xc8, 0xff), 1.5 * w));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        // Held ticks (pauses) and one-second marks.
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0xff, 0xa5, 0x30));
        for (const auto& q : track.points)
            if (q.held) p.drawEllipse(map(q.x, q.y), 3.0 * w, 3.0 * w);
        p.setBrush(QColor(0xf0, 0xf0, 0xf0));
        QFont f = o.font;
        f.setPointSizeF(std::max(6.0, f.pointSizeF() - 2));
        p.setFont(f);
        // One-second marks; a label that would overlap one already drawn is left out (the mark stays).
        std::vector<QRectF> labels;
        const QFontMetricsF fm(f);
        for (const auto& q : track.points) {
            if (q.t == 0 || q.t % 50 != 0) continue;
            const QPointF c = map(q.x, q.y);
            p.setPen(Qt::NoPen);
            p.drawRect(QRectF(c.x() - 2 * w, c.y() - 2 * w, 4 * w, 4 * w));
            if (!o.text) continue;
            const QString text = QString::number(q.t / 50) + "s";
            const QPointF at = c + QPointF(4, -4);
            const QRectF r(at.x(), at.y() - fm.ascent(), fm.horizontalAdvance(text), fm.height());
            bool overlaps = false;
            for (const QRectF& other : labels)
                overlaps = overlaps || other.intersects(r);
            if (overlaps) continue;
            labels.push_back(r);
            p.setPen(QColor(0xd0, 0xd0, 0xd0));
            p.drawText(at, text);
        }
        if (o.labelRects) *o.labelRects = labels;
        // Start, end and the current position.
        const auto& a = track.points.front();
        p.setPen(QPen(QColor(0x60, 0xe0, 0x60), 2 * w));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(map(a.x, a.y), 5.0 * w, 5.0 * w);
        const size_t i = std::min<size_t>(size_t(std::max(0, o.tick)), track.points.size() - 1);
        const auto& c = track.points[i];
        QImage converted;
        const QImage* img = nullptr;
        if (o.images && c.a >= 1 && c.a <= int(o.images->images.size())) {
            if (o.imageCache) {
                auto it = o.imageCache->find(c.a);
                if (it == o.imageCache->end()) it = o.imageCache->emplace(c.a, amosImage(*o.images, c.a)).first;
                img = &it->second;
            } else {
                converted = amosImage(*o.images, c.a);
                img = &converted;
            }
        }
        if (img && !img->isNull()) {
            const amal::AmosImage& im = o.images->images[size_t(c.a - 1)];
            const QPointF tl = map(c.x - (im.hotX & 0x3FFF), c.y - (im.hotY & 0x3FFF));
            p.drawImage(QRectF(tl, QSizeF(img->width() * s, img->height() * s)), *img);
            p.setPen(QPen(QColor(0xff, 0x40, 0x40), 1.5 * w));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(map(c.x, c.y), 3.0 * w, 3.0 * w);
        } else {
            p.setPen(QPen(Qt::white, 1.5 * w));
            p.setBrush(QColor(0xff, 0x40, 0x40));
            p.drawEllipse(map(c.x, c.y), 6.0 * w, 6.0 * w);
        }
        if (o.text) {
            p.setPen(QColor(0xf0, 0xf0, 0xf0));
            p.setFont(o.font);
            p.drawText(rect.adjusted(10, 0, -10, -6), Qt::AlignBottom | Qt::AlignLeft,
                       QString("%1   t=%2 (%3 s)   x=%4  y=%5  image=%6%7")
                           .arg(QString::fromStdString(track.label))
                           .arg(o.tick)
                           .arg(o.tick / 50.0, 0, 'f', 2)
                           .arg(c.x)
                           .arg(c.y)
                           .arg(c.a)
                           .arg(c.held ? "  (held)" : ""));
        }
    } else if (o.text) {
        p.setPen(QColor(0xff, 0x90, 0x90));
        p.drawText(rect, Qt::AlignCenter | Qt::TextWordWrap,
                   QString::fromStdString(track.error.empty() ? "nothing to show" : track.error));
    }
    p.restore();
}

amal::Track firstAmalTrack(const amal::Bank& bank, int programTicks) {
    for (const auto& m : bank.movements)
        if (m.defined) return amal::movementTrack(bank, m.index, false, 0, 0);
    for (const auto& pr : bank.programs) {
        if (pr.text.empty()) continue;
        amal::SimOptions o;
        o.ticks = std::max(1, programTicks);
        const auto objects = amal::environmentObjects(bank.environment);
        if (auto it = objects.find(pr.index); it != objects.end()) {
            o.x = int16_t(it->second.x);
            o.y = int16_t(it->second.y);
            o.a = int16_t(it->second.image);
        }
        return amal::programTrack(bank, pr.index, o);
    }
    return amal::Track{};
}

} // namespace rs::ui
