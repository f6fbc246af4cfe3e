#include "thumbnail_render.h"

#include "amal_stage_painter.h"
#include "particle_thumbnail.h"
#include "preview_view.h"
#include "view_settings.h"

#include "amal/amal_bank.h"
#include "common/file_read.h"
#include "formats/formats.h"
#include "scene/pose.h"
#include "texture/texture.h"

#include <QFont>
#include <QPainter>

#include <algorithm>
#include <exception>
#include <filesystem>

namespace rs::thumbs {

namespace {

constexpr uint64_t kMaxRead = uint64_t(512) << 20;

std::string baseName(const std::string& path) {
    const size_t slash = path.find_last_of("/\\:");
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    const size_t dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}

// A skeleton-only copy: the bones a clip poses, without the meshes.
std::shared_ptr<Model> skeletonOf(const Model& m) {
    auto s = std::make_shared<Model>();
    s->format = m.format;
    s->sourcePath = m.sourcePath;
    s->skeleton = m.skeleton;
    return s;
}

// Bones named by the clip's tracks, unparented, at the origin (the clip gives their transforms).
std::shared_ptr<Model> skeletonFromTracks(const Clip& clip) {
    auto m = std::make_shared<Model>();
    m->format = clip.format;
    int count = 0;
    for (const BoneTrack& t : clip.tracks)
        count = std::max(count, t.bone + 1);
    count = std::min<int>(std::max<int>(count, int(clip.tracks.size())), 65536);
    m->skeleton.bones.resize(size_t(count));
    for (size_t i = 0; i < clip.tracks.size(); ++i) {
        const BoneTrack& t = clip.tracks[i];
        const int b = t.bone >= 0 && t.bone < count ? t.bone : int(i);
        if (b < count && m->skeleton.bones[size_t(b)].name.empty()) m->skeleton.bones[size_t(b)].name = t.boneName;
    }
    return m;
}

// The model an Alamo clip belongs to: the longest "<prefix>.ALO" beside it (or in the mounted folders) whose
// skeleton the clip binds to.
std::shared_ptr<Model> alamoClipOwner(const Resolver& resolver, const std::string& path, const Clip& clip) {
    const std::string name = baseName(path);
    for (size_t cut = name.rfind('_'); cut != std::string::npos && cut > 0; cut = name.rfind('_', cut - 1)) {
        const std::string candidate = resolver.findBeside(path, name.substr(0, cut) + ".ALO");
        if (candidate.empty()) continue;
        try {
            OpenOptions o;
            o.companionClips = false;
            const Document d = resolver.read(candidate, o);
            if (d.model && bindClip(d.model->skeleton, clip).ok()) return skeletonOf(*d.model);
        } catch (const std::exception&) {
        }
    }
    return nullptr;
}

QImage renderTexture(const std::vector<uint8_t>& bytes, const std::string& label, int size) {
    const Image img = decodeTexture(ByteSpan(bytes), label);
    if (img.width <= 0 || img.height <= 0 || img.rgba.size() < size_t(img.width) * size_t(img.height) * 4) return {};
    QImage q(img.rgba.data(), img.width, img.height, img.width * 4, QImage::Format_RGBA8888);
    QImage copy = q.convertToFormat(QImage::Format_ARGB32);
    if (copy.width() > size || copy.height() > size)
        copy = copy.scaled(size, size, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    return copy;
}

QImage renderAmal(const Resolver& resolver, const std::vector<uint8_t>& bytes, const std::string& path, int size) {
    const amal::BankFile file = amal::readBankFile(ByteSpan(bytes), path);
    const amal::Bank& bank = amal::requireAmalBank(file);
    // Object images: a sprite/icon bank in the same file, else in a sibling .abk (as the AMAL view).
    std::shared_ptr<const amal::ImageBank> images;
    if (!file.imageBanks.empty()) {
        images = std::make_shared<amal::ImageBank>(file.imageBanks.front());
    } else {
        int tried = 0;
        for (const std::string& sib : resolver.filesBeside(path, ".abk")) {
            if (++tried > 32) break;
            try {
                std::vector<uint8_t> b;
                if (!resolver.readBytes(sib, b, 8 << 20)) continue;
                amal::BankFile g = amal::readBankFile(ByteSpan(b), sib);
                if (g.imageBanks.empty()) continue;
                images = std::make_shared<amal::ImageBank>(std::move(g.imageBanks.front()));
                break;
            } catch (const std::exception&) {
                continue;
            }
        }
    }
    const amal::Track track = ui::firstAmalTrack(bank, 250);
    if (track.points.empty()) return {};
    // The stage is 5:4 (the 320x256 screen): fit it in the square.
    QImage img(size, size, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    QPainter p(&img);
    const int h = size * 4 / 5;
    ui::AmalStageOptions o;
    o.tick = 0;
    o.images = images.get();
    o.text = false;
    ui::paintAmalStage(p, QRectF(0, (size - h) / 2.0, size, h), track, o);
    return img;
}

} // namespace

bool isTextureAsset(const Resolver& resolver, const std::string& path) {
    std::vector<uint8_t> head;
    try {
        std::error_code ec;
        if (std::filesystem::is_regular_file(path, ec))
            head = readFileHead(path, 64);
        else if (!resolver.readBytes(path, head, kMaxRead))
            return false;
    } catch (const std::exception&) {
        return false;
    }
    return isTexture(ByteSpan(head), path);
}

QImage renderModel(std::shared_ptr<const Model> model, std::shared_ptr<const Clip> clip, float frame, int size,
                   bool skeletonOnly) {
    if (!model) return {};
    if (skeletonOnly && !model->meshes.empty()) model = skeletonOf(*model);
    ui::PreviewView view;
    ui::ViewSettings settings;
    const std::vector<int> lods = model->lodLevels(), alts = model->altLevels();
    settings.lod = lods.empty() ? -1 : lods.back();
    settings.alt = alts.empty() ? -1 : alts.front();
    settings.grid = false;
    settings.proxies = false;
    settings.background = QColor(0, 0, 0, 0);
    view.setSettings(settings);
    view.setModel(model);
    if (clip) {
        view.setClip(clip);
        view.setFrame(frame, LoopMode::Once);
    }
    view.frameModel();
    // Drawn at twice the size and scaled down: cheap anti-aliasing of the flat-shaded triangles.
    const int big = size * 2;
    view.setOverlayScale(std::max(1.0f, float(big) / 160.0f));
    QImage img(big, big, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    {
        QPainter p(&img);
        view.paint(p, img.size());
    }
    return img.scaled(size, size, Qt::KeepAspectRatio, Qt::SmoothTransformation);
}

Picture renderAsset(const Resolver& resolver, const std::string& path, int size, float frame) {
    Picture out;
    size = std::clamp(size, 8, 4096);
    try {
        std::vector<uint8_t> bytes;
        // Within the format's size cap, as info, check and export read (a 500 MiB .ALO is refused, not read).
        if (!resolver.readAssetBytes(path, bytes)) {
            out.error = path + ": not found";
            return out;
        }
        const ByteSpan span(bytes);
        if (isTexture(span, path)) {
            out.kind = Kind::Texture;
            out.image = renderTexture(bytes, path, size);
            if (out.image.isNull()) out.error = path + ": empty texture";
            return out;
        }
        const Format format = detectFormat(span, path);
        if (format == Format::Amal) {
            out.kind = Kind::Amal;
            out.image = renderAmal(resolver, bytes, path, size);
            if (out.image.isNull()) out.error = path + ": the AMAL bank has no movement or program to draw";
            return out;
        }
        if (format == Format::AlamoParticles) {
            OpenOptions o;
            o.companionClips = false;
            const Document doc = resolver.read(span, path, o);
            if (!doc.particles) {
                out.error = path + ": holds no particle system";
                return out;
            }
            ParticlePicture pic = renderParticleSystem(resolver, path, *doc.particles, size);
            out.kind = Kind::Particles;
            out.image = std::move(pic.image);
            out.error = std::move(pic.why);
            out.noPicture = pic.noPicture;
            return out;
        }
        if (format == Format::Unknown) {
            out.error = path + ": unrecognised file format";
            return out;
        }
        OpenOptions o;
        o.companionClips = false;
        const Document doc = resolver.read(span, path, o);
        bool hasMesh = false;
        if (doc.model)
            for (const Mesh& m : doc.model->meshes)
                hasMesh = hasMesh || !m.subMeshes.empty();
        if (hasMesh) {
            out.kind = Kind::Model;
            out.image = renderModel(doc.model, nullptr, 0.0f, size);
            return out;
        }
        if (doc.clips.empty() && !doc.model) {
            out.error = path + ": nothing to draw";
            return out;
        }
        // A clip alone (or a skeleton with its clips): the skeleton in a pose.
        std::shared_ptr<const Clip> clip = doc.clips.empty() ? nullptr : doc.clips.front();
        std::shared_ptr<const Model> skeleton = doc.model;
        if (!skeleton && clip) {
            if (format == Format::AlamoClip) skeleton = alamoClipOwner(resolver, path, *clip);
            if (!skeleton) skeleton = skeletonFromTracks(*clip);
        }
        if (!skeleton || skeleton->skeleton.bones.empty()) {
            out.error = path + ": no skeleton to pose";
            return out;
        }
        if (clip && !bindClip(skeleton->skeleton, *clip).ok()) clip = nullptr;
        const float f =
            clip ? (frame >= 0.0f ? frame : float(clip->frameCount > 1 ? clip->frameCount - 1 : 0) * 0.5f) : 0.0f;
        out.kind = Kind::Clip;
        out.image = renderModel(skeleton, clip, f, size, true);
        return out;
    } catch (const std::exception& e) {
        out.image = QImage();
        out.error = e.what();
        return out;
    }
}

} // namespace rs::thumbs
