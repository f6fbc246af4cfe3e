#include "scene_dock.h"

#include <QCheckBox>
#include <QColorDialog>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace rs::ui {

const std::vector<FactionPreset>& factionPresets() {
    static const std::vector<FactionPreset> presets = {
        {QStringLiteral("Empire blue"), QColor(40, 90, 220)},
        {QStringLiteral("Rebel red"), QColor(210, 40, 35)},
        {QStringLiteral("Underworld green"), QColor(50, 170, 60)},
        {QStringLiteral("Pirate orange"), QColor(235, 130, 20)},
        {QStringLiteral("Neutral grey"), QColor(150, 150, 150)},
        {QStringLiteral("Purple"), QColor(140, 60, 200)},
    };
    return presets;
}

static QIcon colorIcon(const QColor& c) {
    QPixmap pm(16, 16);
    pm.fill(c);
    QPainter p(&pm);
    p.setPen(Qt::black);
    p.drawRect(0, 0, 15, 15);
    return QIcon(pm);
}

SceneDock::SceneDock(QWidget* parent) : QDockWidget(tr("Scene"), parent) {
    setObjectName(QStringLiteral("sceneDock"));
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    auto* form = new QFormLayout;
    form->setVerticalSpacing(3);
    lod_ = new QComboBox(w);
    lod_->setToolTip(tr("Level of detail (meshes named *_LOD<n>)"));
    alt_ = new QComboBox(w);
    alt_->setToolTip(tr("Alternative / damage state (meshes named *_ALT<n>)"));
    state_ = new QComboBox(w);
    state_->setToolTip(tr("State of the game object opened from the Objects panel (hardpoints destroyed, damaged, "
                          "dying; SAGE condition states)"));
    state_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    state_->setMinimumContentsLength(12);
    setStates({}, {}, -1);
    connect(state_, &QComboBox::activated, this, [this](int i) { emit stateChosen(i); });
    faction_ = new QComboBox(w);
    for (const FactionPreset& p : factionPresets())
        faction_->addItem(colorIcon(p.color), p.name, p.color);
    faction_->addItem(tr("Custom"));
    pickColor_ = new QPushButton(tr("Pick…"), w);
    pickColor_->setToolTip(tr("Choose any faction colour"));
    auto* fc = new QHBoxLayout;
    fc->addWidget(faction_, 1);
    fc->addWidget(pickColor_);
    background_ = new QPushButton(tr("Background…"), w);
    // LOD and ALT share a row: the Materials panel below keeps the height (at 1280x800 it showed five rows).
    auto* lodAlt = new QHBoxLayout;
    lodAlt->addWidget(lod_, 1);
    lodAlt->addWidget(new QLabel(tr("ALT"), w));
    lodAlt->addWidget(alt_, 1);
    form->addRow(tr("LOD"), lodAlt);
    form->addRow(tr("State"), state_);
    form->addRow(tr("Faction"), fc);
    // ObjectsAlienBuildup.fx's built fraction (C&C 3 alien structures rising): shares the background's row.
    buildup_ = new QSpinBox(w);
    buildup_->setObjectName(QStringLiteral("buildFraction"));
    buildup_->setRange(0, 100);
    buildup_->setSingleStep(5);
    buildup_->setSuffix(QStringLiteral(" %"));
    buildup_->setToolTip(tr("How far C&C 3 alien structures are built (ObjectsAlienBuildup.fx's fraction, the "
                            "engine's OpacityOverride while building): 100 % is built"));
    auto* bgRow = new QHBoxLayout;
    bgRow->addWidget(background_, 1);
    bgRow->addWidget(new QLabel(tr("Built"), w));
    bgRow->addWidget(buildup_);
    form->addRow(tr("Background"), bgRow);
    // The Alamo engine's lights: sun, two fill lights and ambient (render/lights.h), as a land or a space map.
    lightPreset_ = new QComboBox(w);
    lightPreset_->addItem(tr("Land"), 0);
    lightPreset_->addItem(tr("Space"), 1);
    lightPreset_->setToolTip(tr("Light set-up of the Alamo shaders: sun, two fill lights and ambient"));
    sunAzimuth_ = new QSpinBox(w);
    sunAzimuth_->setRange(0, 359);
    sunAzimuth_->setWrapping(true);
    sunAzimuth_->setSuffix(QStringLiteral("°"));
    sunAzimuth_->setToolTip(tr("Sun direction (compass angle)"));
    sunElevation_ = new QSpinBox(w);
    sunElevation_->setRange(-90, 90);
    sunElevation_->setSuffix(QStringLiteral("°"));
    sunElevation_->setToolTip(tr("Sun elevation above the horizon"));
    auto* sun = new QHBoxLayout;
    sun->addWidget(lightPreset_, 1);
    sun->addWidget(sunAzimuth_);
    sun->addWidget(sunElevation_);
    form->addRow(tr("Sun"), sun);
    v->addLayout(form);
    auto* grid = new QGridLayout;
    grid->setVerticalSpacing(2);
    night_ = new QCheckBox(tr("Night"), w);
    skeleton_ = new QCheckBox(tr("Skeleton"), w);
    wireframe_ = new QCheckBox(tr("Wireframe"), w);
    lights_ = new QCheckBox(tr("Lights"), w);
    dazzles_ = new QCheckBox(tr("Dazzles"), w);
    particles_ = new QCheckBox(tr("Particles"), w);
    particles_->setToolTip(tr("Particle systems named by the model's proxies (engines, fire, smoke, sparks)"));
    proxies_ = new QCheckBox(tr("Proxies"), w);
    grid_ = new QCheckBox(tr("Grid"), w);
    pointSets_ = new QCheckBox(tr("Collision / points"), w);
    pointSets_->setToolTip(tr("Collision overlay: W3D/W3X collision boxes and the point sets stored in the model "
                              "(B&W2 collision footprint, unknown points)"));
    allLabels_ = new QCheckBox(tr("All labels"), w);
    allLabels_->setToolTip(tr("Names of every proxy and marker; otherwise only those of the selected bone and the "
                              "one under the mouse"));
    const QList<QCheckBox*> boxes{night_,     skeleton_, wireframe_, lights_, dazzles_,
                                  particles_, proxies_,  allLabels_, grid_,   pointSets_};
    for (int i = 0; i < boxes.size(); ++i)
        grid->addWidget(boxes[i], i / 2, i % 2);
    v->addLayout(grid);
    v->addStretch(1);
    setWidget(w);

    auto toggled = [this](bool ViewSettings::*field) {
        return [this, field](bool on) {
            if (syncing_) return;
            ViewSettings s = settings_;
            s.*field = on;
            apply(s);
        };
    };
    connect(night_, &QCheckBox::toggled, this, toggled(&ViewSettings::night));
    connect(lightPreset_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        if (syncing_ || i < 0) return;
        ViewSettings s = settings_;
        s.lightPreset = lightPreset_->itemData(i).toInt();
        apply(s);
    });
    auto angle = [this](int ViewSettings::*field) {
        return [this, field](int v) {
            if (syncing_) return;
            ViewSettings s = settings_;
            s.*field = v;
            apply(s);
        };
    };
    connect(sunAzimuth_, qOverload<int>(&QSpinBox::valueChanged), this, angle(&ViewSettings::sunAzimuth));
    connect(sunElevation_, qOverload<int>(&QSpinBox::valueChanged), this, angle(&ViewSettings::sunElevation));
    connect(buildup_, qOverload<int>(&QSpinBox::valueChanged), this, angle(&ViewSettings::buildPercent));
    connect(skeleton_, &QCheckBox::toggled, this, toggled(&ViewSettings::skeleton));
    connect(wireframe_, &QCheckBox::toggled, this, toggled(&ViewSettings::wireframe));
    connect(lights_, &QCheckBox::toggled, this, toggled(&ViewSettings::lights));
    connect(dazzles_, &QCheckBox::toggled, this, toggled(&ViewSettings::dazzles));
    connect(particles_, &QCheckBox::toggled, this, toggled(&ViewSettings::particles));
    connect(proxies_, &QCheckBox::toggled, this, toggled(&ViewSettings::proxies));
    connect(grid_, &QCheckBox::toggled, this, toggled(&ViewSettings::grid));
    connect(pointSets_, &QCheckBox::toggled, this, toggled(&ViewSettings::pointSets));
    connect(allLabels_, &QCheckBox::toggled, this, toggled(&ViewSettings::allLabels));
    connect(lod_, &QComboBox::currentIndexChanged, this, [this](int) {
        if (syncing_) return;
        ViewSettings s = settings_;
        s.lod = lod_->currentData().isValid() ? lod_->currentData().toInt() : -1;
        apply(s);
    });
    connect(alt_, &QComboBox::currentIndexChanged, this, [this](int) {
        if (syncing_) return;
        ViewSettings s = settings_;
        s.alt = alt_->currentData().isValid() ? alt_->currentData().toInt() : -1;
        apply(s);
    });
    connect(faction_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (syncing_ || !faction_->itemData(i).isValid()) return;
        ViewSettings s = settings_;
        s.factionColor = faction_->itemData(i).value<QColor>();
        apply(s);
    });
    connect(pickColor_, &QPushButton::clicked, this, [this] {
        const QColor c = QColorDialog::getColor(settings_.factionColor, this, tr("Faction colour"));
        if (!c.isValid()) return;
        ViewSettings s = settings_;
        s.factionColor = c;
        apply(s);
    });
    connect(background_, &QPushButton::clicked, this, [this] {
        const QColor c = QColorDialog::getColor(settings_.background, this, tr("Background colour"));
        if (!c.isValid()) return;
        ViewSettings s = settings_;
        s.background = c;
        apply(s);
    });
    setLevels({}, {});
}

void SceneDock::setLevels(const std::vector<int>& lods, const std::vector<int>& alts) {
    syncing_ = true;
    lod_->clear();
    alt_->clear();
    for (int l : lods)
        lod_->addItem(l == lods.back() ? tr("LOD%1 (most detailed)").arg(l) : tr("LOD%1").arg(l), l);
    for (int a : alts)
        alt_->addItem(tr("ALT%1").arg(a), a);
    if (lods.empty()) lod_->addItem(tr("none in this model"));
    if (alts.empty()) alt_->addItem(tr("none in this model"));
    lod_->setEnabled(!lods.empty());
    alt_->setEnabled(!alts.empty());
    syncing_ = false;
    ViewSettings s = settings_;
    s.lod = lods.empty() ? -1 : lods.back();
    s.alt = alts.empty() ? -1 : alts.front();
    apply(s);
}

void SceneDock::setSettings(const ViewSettings& s) { apply(s); }

void SceneDock::apply(ViewSettings s) {
    const bool changed = s != settings_;
    settings_ = s;
    syncWidgets();
    if (changed) emit settingsChanged(settings_);
}

void SceneDock::syncWidgets() {
    syncing_ = true;
    if (int i = lod_->findData(settings_.lod); i >= 0) lod_->setCurrentIndex(i);
    if (int i = alt_->findData(settings_.alt); i >= 0) alt_->setCurrentIndex(i);
    int fi = faction_->count() - 1;
    for (int i = 0; i + 1 < faction_->count(); ++i)
        if (faction_->itemData(i).value<QColor>() == settings_.factionColor) fi = i;
    faction_->setCurrentIndex(fi);
    faction_->setItemIcon(faction_->count() - 1, colorIcon(settings_.factionColor));
    pickColor_->setIcon(colorIcon(settings_.factionColor));
    background_->setIcon(colorIcon(settings_.background));
    buildup_->setValue(std::clamp(settings_.buildPercent, 0, 100));
    night_->setChecked(settings_.night);
    skeleton_->setChecked(settings_.skeleton);
    wireframe_->setChecked(settings_.wireframe);
    lights_->setChecked(settings_.lights);
    dazzles_->setChecked(settings_.dazzles);
    particles_->setChecked(settings_.particles);
    proxies_->setChecked(settings_.proxies);
    grid_->setChecked(settings_.grid);
    pointSets_->setChecked(settings_.pointSets);
    allLabels_->setChecked(settings_.allLabels);
    lightPreset_->setCurrentIndex(qBound(0, settings_.lightPreset, 1));
    sunAzimuth_->setValue(settings_.sunAzimuth);
    sunElevation_->setValue(settings_.sunElevation);
    syncing_ = false;
}

void SceneDock::setStates(const QStringList& labels, const QStringList& tooltips, int current) {
    QSignalBlocker block(state_);
    state_->clear();
    if (labels.isEmpty()) {
        state_->addItem(tr("(no game object)"));
        state_->setEnabled(false);
        return;
    }
    for (int i = 0; i < labels.size(); ++i) {
        state_->addItem(labels[i]);
        if (i < tooltips.size()) state_->setItemData(i, tooltips[i], Qt::ToolTipRole);
    }
    state_->setEnabled(true);
    state_->setCurrentIndex(std::clamp(current, 0, int(labels.size()) - 1));
}

} // namespace rs::ui
