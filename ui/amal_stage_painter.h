// Drawing of an AMAL track's 2D stage (Amiga coordinates, y down), shared by the AMAL view (ui/amal_view.h) and
// the thumbnails (ui/thumbnail_render.h), which draw it without a widget, on any thread.
#pragma once

#include "amal/amal_bank.h"
#include "amal/amal_track.h"

#include <QFont>
#include <QImage>
#include <QRectF>

#include <map>
#include <memory>
#include <vector>

class QPainter;

namespace rs::ui {

// AMOS image n of a sprite/icon bank as an ARGB image (colour 0 transparent); null when n is out of range.
QImage amosImage(const amal::ImageBank& images, int n);

struct AmalStageOptions {
    int tick = 0;
    const amal::ImageBank* images = nullptr;     // may be null: the object is drawn as a dot
    std::map<int, QImage>* imageCache = nullptr; // converted images by number (may be null)
    bool text = true;                            // the screen label, second marks and the status line
    QFont font;
    std::vector<QRectF>* labelRects = nullptr; // where time labels were drawn (set when given)
};

// Draws the stage of `track` into `rect`.
void paintAmalStage(QPainter& p, const QRectF& rect, const amal::Track& track, const AmalStageOptions& o);

// The track the AMAL view shows first for a bank: its first defined movement, else its first program (on the
// object its environment gives that channel), simulated for programTicks ticks. An empty track when the bank
// holds neither.
amal::Track firstAmalTrack(const amal::Bank& bank, int programTicks = 1500);

} // namespace rs::ui
