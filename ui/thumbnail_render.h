// Pictures of assets without OpenGL (QPainter into a QImage), for the freedesktop thumbnailer, the asset grid,
// `rigscope-cli thumbnails` and `rigscope --screenshot` of files that hold no model. Safe on any thread (each call
// builds its own software view); needs a QGuiApplication (any platform, e.g. offscreen) for image and font code.
//
// What each kind gets:
//   model (.alo .w3d .bwm)    the model in its bind pose, framed, flat-shaded (the software preview)
//   clip alone                its skeleton posed at the middle of the clip: an Alamo .ala on the skeleton of the
//                             model its name starts with (EV_ESCORT_IDLE_00.ALA -> EV_ESCORT.ALO, found like
//                             companions), else its tracks' bones unparented; a W3D clip on its hierarchy; a
//                             B&W2 .al on its armature (first animation)
//   particle system (.alo)    the system alone at the moment it shows most (particle_thumbnail.h)
//   AMAL bank (.abk .amos)    the 2D stage of its first movement or program at tick 0, as the AMAL view draws it
//   texture (.dds .tga)       the image itself, scaled down to fit (never up)
#pragma once

#include "resolve/resolver.h"
#include "scene/clip.h"
#include "scene/model.h"

#include <QImage>

#include <memory>
#include <string>

namespace rs::thumbs {

enum class Kind { None, Model, Clip, Amal, Texture, Particles };

struct Picture {
    QImage image; // null when nothing could be drawn (error says why)
    Kind kind = Kind::None;
    std::string error;
    bool noPicture = false; // nothing to draw by its nature (a particle system of distortion emitters only), not a
                            // broken file
};

// The picture of `path` (what Resolver::open takes: a file, "<archive>:<entry>", a game path), at most
// size x size pixels. Models and skeletons on a transparent background; frame: the clip frame for a clip alone
// (negative: the middle of the clip).
Picture renderAsset(const Resolver& resolver, const std::string& path, int size, float frame = -1.0f);

// True when `path` is a .dds/.tga texture (by its first bytes and name).
bool isTextureAsset(const Resolver& resolver, const std::string& path);

// A model (bind pose, or posed by clip at frame) drawn at twice the size and scaled down. skeletonOnly draws the
// bones alone.
QImage renderModel(std::shared_ptr<const Model> model, std::shared_ptr<const Clip> clip, float frame, int size,
                   bool skeletonOnly = false);

} // namespace rs::thumbs
