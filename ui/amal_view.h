// 2D view of an AMOS AMAL bank: a stage that plots the track of a movement or a simulated program
// (Amiga coordinates, y down) with one-second marks, held ticks highlighted and a marker at the
// current tick; a list of movements and programs; the program listing with AMAL highlighting; the
// environment string. The main window drives it through setTick()/setTime() and listens to
// durationChanged() to size its timeline.
#pragma once

#include "amal/amal_bank.h"
#include "amal/amal_track.h"
#include "resolve/resolver.h"

#include <QImage>
#include <QRectF>
#include <QWidget>

#include <map>
#include <memory>

class QListWidget;
class QPlainTextEdit;
class QLabel;
class QCheckBox;
class QLineEdit;

namespace rs::ui {

// Plots one track. Coordinates are Amiga pixels, y down; the view fits the track and the 320x256 screen.
class AmalStage : public QWidget {
    Q_OBJECT
  public:
    explicit AmalStage(QWidget* parent = nullptr);
    void setTrack(const amal::Track& track);
    // Sprite/icon bank used to draw the object with its image A (AMOS image n = images[n-1]); may be null.
    void setImages(std::shared_ptr<const amal::ImageBank> images);
    int tick() const { return tick_; }
    QSize sizeHint() const override { return {480, 360}; }
    // Where the time labels were drawn by the last paint (they never overlap).
    const std::vector<QRectF>& timeLabelRects() const { return labelRects_; }

  public slots:
    void setTick(int t);

  protected:
    void paintEvent(QPaintEvent*) override;

  private:
    amal::Track track_;
    int tick_ = 0;
    std::shared_ptr<const amal::ImageBank> images_;
    std::map<int, QImage> imageCache_;
    std::vector<QRectF> labelRects_;
};

class AmalView : public QWidget {
    Q_OBJECT
  public:
    // Where the object images are looked for when the file holds none (sibling banks).
    void setResolver(std::shared_ptr<const Resolver> resolver) { resolver_ = std::move(resolver); }
    explicit AmalView(QWidget* parent = nullptr);

    // Reads the file's first Amal bank. On failure shows the message and returns false.
    bool openFile(const QString& path);
    QString errorString() const { return error_; }
    // Where the object images come from ("" when none): the file itself or a sibling .abk.
    QString imageSource() const { return imageSource_; }
    AmalStage* stage() const { return stage_; }
    // Ticks of the selected track (1 tick = 1/50 s).
    int durationTicks() const;
    double durationSeconds() const { return durationTicks() / 50.0; }
    // Ticks simulated for programs (default 1500 = 30 s).
    void setProgramTicks(int ticks);
    // User values for programs ("J1=8 XM=100 RA=1 X=160 Y=100", see amal::parseInputs). False on a bad item.
    bool setInputs(const QString& text);

  public slots:
    void setTick(int t);
    void setTime(double seconds); // tick = round(seconds * 50)
    void selectEntry(int row);

  signals:
    void durationChanged(int ticks, double seconds);
    void tickChanged(int tick);

  private:
    std::shared_ptr<const Resolver> resolver_ = std::make_shared<Resolver>();
    void rebuildTrack();
    void showListing();

    std::shared_ptr<amal::BankFile> file_;
    const amal::Bank* bank_ = nullptr;
    struct Entry {
        bool movement;
        int index;
    };
    std::vector<Entry> entries_;
    amal::Track track_;
    int programTicks_ = 1500;
    amal::SimOptions inputs_;
    QString error_;
    QString imageSource_;

    QListWidget* list_;
    AmalStage* stage_;
    QPlainTextEdit* listing_;
    QPlainTextEdit* env_;
    QLabel* status_;
    QCheckBox* backward_;
    QLineEdit* inputEdit_;
};

} // namespace rs::ui
