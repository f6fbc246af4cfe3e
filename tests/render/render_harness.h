// Shared fixtures of the render tests: one SceneView for the whole run, synchronous capture with a timeout,
// pixel statistics.
#pragma once

#include "scene_view.h"

#include <QColor>
#include <QImage>
#include <QRect>

namespace rs::test {

// The shared view (created on first use, 320x240 window shown under the test's X server).
rs::render::SceneView& view();

// Renders and returns the current frame; waits for pending textures first. Null image after timeoutMs.
QImage grab(int timeoutMs = 20000);

// Pixels whose colour differs from bg by more than tol (max channel difference).
int countDifferent(const QImage& img, QColor bg, int tol = 12);
// Bounding box of those pixels (empty when none).
QRect foreground(const QImage& img, QColor bg, int tol = 12);
// Comparisons of two captures fail the running case when either is null (a failed capture) or their sizes differ.
// Pixels that differ between two images of the same size by more than tol.
int countChanged(const QImage& a, const QImage& b, int tol = 24);
QRect changedBox(const QImage& a, const QImage& b, int tol = 24);
// Mean absolute difference per channel (0..255) of two images of the same size.
double meanDifference(const QImage& a, const QImage& b);

std::string goldenDir();
std::string corpusRoot();

} // namespace rs::test
