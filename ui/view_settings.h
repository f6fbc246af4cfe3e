// What the scene panel controls: LOD/ALT choice, faction colour, night mode, overlays, background.
#pragma once

#include <QColor>
#include <QString>

#include <vector>

namespace rs::ui {

struct ViewSettings {
    int lod = -1; // chosen LOD level; -1 = the model has none
    int alt = -1; // chosen ALT level; -1 = the model has none
    QColor factionColor{40, 90, 220};
    bool night = false;
    bool skeleton = false;
    bool wireframe = false;
    bool lights = true;
    bool dazzles = true;
    bool particles = true; // particle systems on proxies and a particle file shown alone
    bool proxies = true;
    bool grid = true;
    bool pointSets = true;  // collision footprint / point overlays (B&W2)
    bool allLabels = false; // names of every proxy/marker; off: the selected bone's and the hovered one
    QColor background{58, 62, 70};
    // The Alamo engine's light set-up: preset (0 land, 1 space) and the sun's compass angle and elevation (degrees).
    int lightPreset = 0;
    int sunAzimuth = 0, sunElevation = 45;
    // C&C 3's ObjectsAlienBuildup.fx: how far a structure is built, in percent (the engine's OpacityOverride while
    // it builds); 100 is built.
    int buildPercent = 100;

    bool operator==(const ViewSettings& o) const {
        return lod == o.lod && alt == o.alt && factionColor == o.factionColor && night == o.night &&
               skeleton == o.skeleton && wireframe == o.wireframe && lights == o.lights && dazzles == o.dazzles &&
               particles == o.particles && proxies == o.proxies && grid == o.grid && pointSets == o.pointSets &&
               allLabels == o.allLabels && background == o.background && lightPreset == o.lightPreset &&
               sunAzimuth == o.sunAzimuth && sunElevation == o.sunElevation && buildPercent == o.buildPercent;
    }
    bool operator!=(const ViewSettings& o) const { return !(*this == o); }
};

// A particle system named by a model's proxy, as the view found it (the bone tree shows it).
struct ProxyParticles {
    int proxy = -1;   // index into Model::proxies
    QString file;     // where the system was found; empty = not found
    QString error;    // why the found file could not be read
    int emitters = 0; // emitters of the system (0 when not found)
};

struct FactionPreset {
    QString name;
    QColor color;
};

// Named faction colours offered by the scene panel (first = default).
const std::vector<FactionPreset>& factionPresets();

} // namespace rs::ui
