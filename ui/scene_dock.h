// Scene panel: LOD and ALT selectors (levels present in the model), the open game object's state, faction colour
// presets and picker, night mode, overlay toggles (skeleton, wireframe, lights, dazzles, proxies, grid), background
// colour.
#pragma once

#include "view_settings.h"

#include <QDockWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QPushButton;
class QSpinBox;

namespace rs::ui {

class SceneDock : public QDockWidget {
    Q_OBJECT
  public:
    explicit SceneDock(QWidget* parent = nullptr);

    // Fills the LOD/ALT selectors; keeps the other settings. Picks the most detailed LOD and ALT 0.
    void setLevels(const std::vector<int>& lods, const std::vector<int>& alts);
    const ViewSettings& settings() const { return settings_; }
    void setSettings(const ViewSettings& s); // emits settingsChanged when different

    QComboBox* lodCombo() const { return lod_; }
    QComboBox* altCombo() const { return alt_; }
    QComboBox* factionCombo() const { return faction_; }
    // The state selector of a game object (Objects panel): labels with a tooltip each (flags, what changes);
    // empty = no object open (the selector is disabled). Does not emit stateChosen.
    void setStates(const QStringList& labels, const QStringList& tooltips, int current);
    QComboBox* stateCombo() const { return state_; }

  signals:
    void settingsChanged(const rs::ui::ViewSettings& settings);
    // The user picked state i of the open object.
    void stateChosen(int i);

  private:
    void syncWidgets();
    void apply(ViewSettings s);

    ViewSettings settings_;
    QComboBox *lod_, *alt_, *faction_, *state_, *lightPreset_ = nullptr;
    QSpinBox *sunAzimuth_ = nullptr, *sunElevation_ = nullptr, *buildup_ = nullptr;
    QPushButton *pickColor_, *background_;
    QCheckBox *night_, *skeleton_, *wireframe_, *lights_, *dazzles_, *particles_, *proxies_, *grid_, *pointSets_,
        *allLabels_;
    bool syncing_ = false;
};

} // namespace rs::ui
