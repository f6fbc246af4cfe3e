#include "export_dialog.h"

#include "gltf_export.h"
#include "main_window.h"
#include "scene_dock.h"

#include "texture_lookup.h"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>

namespace rs::ui {

namespace {
const QString kExportDirKey = QStringLiteral("exportDir");
} // namespace

QString defaultOutputPath(const QString& modelPath, const QString& settingsKey,
                          QStandardPaths::StandardLocation location, const QString& fallbackStem,
                          const QString& extension) {
    // "<archive>:<entry>": the entry's stem (game paths use either separator).
    QString file = modelPath;
    for (int c = modelPath.indexOf(':'); c > 0; c = modelPath.indexOf(':', c + 1))
        if (QFileInfo(modelPath.left(c)).isFile()) {
            file = modelPath.mid(c + 1);
            break;
        }
    file.replace('\\', '/');
    const QString stem = QFileInfo(file.mid(file.lastIndexOf('/') + 1)).completeBaseName();
    QString folder = QSettings().value(settingsKey).toString();
    if (folder.isEmpty() || !QFileInfo(folder).isDir()) folder = QStandardPaths::writableLocation(location);
    if (folder.isEmpty() || !QFileInfo(folder).isDir()) folder = QDir::homePath();
    return QDir(folder).filePath((stem.isEmpty() ? fallbackStem : stem) + extension);
}

void rememberOutputFolder(const QString& settingsKey, const QString& outPath) {
    if (!outPath.isEmpty()) QSettings().setValue(settingsKey, QFileInfo(outPath).absolutePath());
}

QString defaultExportPath(const QString& modelPath) {
    return defaultOutputPath(modelPath, kExportDirKey, QStandardPaths::DocumentsLocation, QStringLiteral("model"),
                             QStringLiteral(".glb"));
}

gltf::ExportStats exportOpenModel(MainWindow* w, const gltf::ExportOptions& opt, bool currentClipOnly,
                                  const QString& outPath) {
    std::shared_ptr<const Model> model = w->model();
    if (!model) throw std::runtime_error("no model is open");
    const QString modelPath = w->currentPath();
    // The clips the window has for the model (its own, the ones beside it, an applied animation library's): the
    // model is not read from disk again.
    const std::vector<std::shared_ptr<const Clip>> owned =
        currentClipOnly && w->clip() ? std::vector<std::shared_ptr<const Clip>>{w->clip()} : w->allClips();
    std::vector<const Clip*> clips;
    for (const auto& c : owned)
        clips.push_back(c.get());
    // As the view finds them: through the window's resolver (the model's archive or folder, the mounted game and
    // mod folders, the texture folders).
    gltf::ResolverTextureLookup textures(*w->resolver(), QFile::encodeName(modelPath).toStdString());
    return gltf::exportModel(*model, clips, opt, &textures, outPath.toStdString());
}

void exportDialog(MainWindow* w) {
    std::shared_ptr<const Model> model = w->model();
    if (!model || w->showingAmal()) {
        QMessageBox::information(w, QObject::tr("Export"), QObject::tr("Open a model to export it."));
        return;
    }
    const QString modelPath = w->currentPath();
    QDialog dlg(w);
    dlg.setWindowTitle(QObject::tr("Export glTF 2.0"));
    auto* form = new QFormLayout(&dlg);
    auto* out = new QLineEdit(&dlg);
    out->setText(defaultExportPath(modelPath));
    auto* browse = new QPushButton(QObject::tr("Browse…"), &dlg);
    auto* row = new QHBoxLayout;
    row->addWidget(out);
    row->addWidget(browse);
    form->addRow(QObject::tr("File"), row);
    QObject::connect(browse, &QPushButton::clicked, &dlg, [&] {
        const QString p = QFileDialog::getSaveFileName(&dlg, QObject::tr("Export glTF"), out->text(),
                                                       QObject::tr("glTF binary (*.glb);;glTF (*.gltf)"));
        if (!p.isEmpty()) out->setText(p);
    });
    const ViewSettings& vs = w->scene()->settings();
    auto* lod = new QSpinBox(&dlg);
    lod->setRange(-1, 99);
    lod->setSpecialValueText(QObject::tr("most detailed"));
    lod->setValue(vs.lod);
    form->addRow(QObject::tr("LOD"), lod);
    auto* alt = new QSpinBox(&dlg);
    alt->setRange(0, 99);
    alt->setValue(std::max(0, vs.alt));
    form->addRow(QObject::tr("ALT"), alt);
    auto* variants = new QCheckBox(QObject::tr("Every LOD/ALT combination as its own scene"), &dlg);
    form->addRow(QString(), variants);
    auto* faction = new QCheckBox(QObject::tr("Bake the faction colour %1").arg(vs.factionColor.name()), &dlg);
    faction->setChecked(true);
    form->addRow(QString(), faction);
    auto* current = new QRadioButton(QObject::tr("Current clip"), &dlg);
    auto* all = new QRadioButton(QObject::tr("Every clip of the model (beside it and inside the file)"), &dlg);
    (w->clip() ? current : all)->setChecked(true);
    current->setEnabled(w->clip() != nullptr);
    form->addRow(QObject::tr("Clips"), current);
    form->addRow(QString(), all);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dlg);
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dlg, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dlg, &QDialog::reject);
    if (dlg.exec() != QDialog::Accepted) return;

    gltf::ExportOptions opt;
    opt.lod = lod->value();
    opt.alt = alt->value();
    opt.allVariants = variants->isChecked();
    opt.haveFactionColor = faction->isChecked();
    opt.factionColor = glm::vec3(vs.factionColor.redF(), vs.factionColor.greenF(), vs.factionColor.blueF());
    try {
        const gltf::ExportStats st = exportOpenModel(w, opt, current->isChecked(), out->text());
        rememberOutputFolder(kExportDirKey, out->text());
        QString msg = QObject::tr("%1: %2 meshes, %3 vertices, %4 textures, %5 animations")
                          .arg(out->text())
                          .arg(st.meshes)
                          .arg(st.vertices)
                          .arg(st.images)
                          .arg(st.animations);
        for (const std::string& wn : st.warnings)
            msg += "\n" + QString::fromStdString(wn);
        QMessageBox::information(w, QObject::tr("Export"), msg);
    } catch (const std::exception& e) {
        QMessageBox::warning(w, QObject::tr("Export"), QString::fromStdString(e.what()));
    }
}

} // namespace rs::ui
