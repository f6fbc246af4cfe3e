#include "material_dock.h"

#include "common/cp1252.h"
#include "formats/shader_registry.h"
#include "w3d/w3d_mapper.h"
#include "w3d/w3d_reader.h"

#include "game_text.h"

#include "scene_view.h"
#include "textures.h"

#include <QAction>
#include <QColorDialog>
#include <QComboBox>
#include <QCompleter>
#include <QEvent>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPointer>
#include <QResizeEvent>
#include <QSet>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTimer>
#include <QTreeWidget>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstring>
#include <functional>

namespace rs::ui {

namespace {
constexpr int kTextureRole = Qt::UserRole + 2;       // resolved file
constexpr int kTextureNameRole = Qt::UserRole + 3;   // name as stored
constexpr int kMeshNameRole = Qt::UserRole + 4;      // mesh rows: the mesh's name as stored
constexpr int kTextureBytesRole = Qt::UserRole + 5;  // texture rows: the name's bytes as stored (CP-1252)
constexpr int kShaderRole = Qt::UserRole + 9;        // sub-mesh rows: the shader's name as shown
constexpr int kEditKindRole = Qt::UserRole + 6;      // what editing the row's value does (EditKind)
constexpr int kEditTargetRole = Qt::UserRole + 7;    // sub-mesh and parameter rows: EditOp::target ("MESH#1", bytes)
constexpr int kParamNameRole = Qt::UserRole + 8;     // parameter rows: the parameter's name as stored (bytes)
constexpr int kTextureEntryRole = Qt::UserRole + 10; // texture rows: edited as the file's own entry (SetParam
                                                     // kParamNameRole on kEditTargetRole), not renamed everywhere
constexpr int kColour255Role = Qt::UserRole + 11;    // colour rows shown and edited as 0..255 (W3D vertex materials)
constexpr int kChoiceFieldRole = Qt::UserRole + 12;  // choice rows: the W3D shader field (kW3dShaderFields index)
constexpr int kChoiceValueRole = Qt::UserRole + 13;  // choice rows: the value stored
constexpr int kUnusedRole = Qt::UserRole + 14;       // rows whose value does not change the picture: why (text)
enum EditKind {
    kNotEditable = 0,
    kEditTexture = 1,
    kEditNumbers = 2,
    kEditColour = 3,
    kEditShader = 4,
    kEditChoice = 5
};

// The W3D shader fields the panel offers (the names of w3d_source.cpp's SetParam, the values of W3dShaderBits as
// ww3d2's shader.h names them). The first 11 are drawn as stored; the last 3 (`stored`) the scene model does not
// keep: ww3d2's W3dUtilityClass::Convert_Shader writes colour whatever ColorMask says and takes the post-detail
// functions from the detail ones, so the panel reads them from the file's bytes and says they are not used.
struct W3dShaderField {
    const char* name;
    std::vector<const char*> values; // value i's name
    bool stored = false;             // read from the file (w3d::Shader), not from the pass the reader built
    const char* unused = nullptr;    // why ww3d2 does not use it (null: used)
};
const std::vector<W3dShaderField>& w3dShaderFields() {
    static const std::vector<const char*> detailColour = {"disable",
                                                          "detail",
                                                          "scale",
                                                          "inverse scale",
                                                          "add",
                                                          "subtract",
                                                          "reverse subtract",
                                                          "blend",
                                                          "detail blend",
                                                          "add signed",
                                                          "add signed 2x",
                                                          "scale 2x",
                                                          "modulate alpha add colour"};
    static const std::vector<const char*> detailAlpha = {"disable", "detail", "scale", "inverse scale"};
    static const std::vector<W3dShaderField> f = {
        {"DepthCompare",
         {"never", "less", "equal", "less or equal", "greater", "not equal", "greater or equal", "always"}},
        {"DepthMask", {"no depth write", "depth write"}},
        {"SrcBlend", {"zero", "one", "source alpha", "one minus source alpha"}},
        {"DestBlend",
         {"zero", "one", "source colour", "one minus source colour", "source alpha", "one minus source alpha"}},
        {"AlphaTest", {"off", "on"}},
        {"PriGradient",
         {"disable (decal)", "modulate", "add", "bump env map", "bump env map luminance", "modulate 2x"}},
        {"SecGradient", {"disable", "enable"}},
        {"Texturing", {"disable", "enable"}},
        {"FogFunc", {"disable", "enable", "scale fragment", "white"}},
        {"DetailColorFunc", detailColour},
        {"DetailAlphaFunc", detailAlpha},
        {"ColorMask",
         {"no colour write", "colour write"},
         true,
         "not used: ww3d2 writes colour whatever this says (Convert_Shader)"},
        {"PostDetailColorFunc", detailColour, true,
         "not used: ww3d2 draws with DetailColorFunc (Convert_Shader copies it here)"},
        {"PostDetailAlphaFunc", detailAlpha, true,
         "not used: ww3d2 draws with DetailAlphaFunc (Convert_Shader copies it here)"},
    };
    return f;
}
uint8_t w3dShaderValue(const W3dShaderBits& b, const w3d::Shader* stored, size_t field) {
    const uint8_t v[] = {b.depthCompare, b.depthMask, b.srcBlend, b.destBlend,       b.alphaTest,      b.priGradient,
                         b.secGradient,  b.texturing, b.fogFunc,  b.detailColorFunc, b.detailAlphaFunc};
    if (field < sizeof v) return v[field];
    if (!stored) return 0;
    const uint8_t s[] = {stored->colorMask, stored->postDetailColorFunc, stored->postDetailAlphaFunc};
    return field - sizeof v < sizeof s ? s[field - sizeof v] : 0;
}
// The choice row of a W3D mesh's two-sided flag (EditOp::SetMeshTwoSided), beside the shader fields' indices.
constexpr size_t kTwoSidedField = 1000;
const std::vector<const char*>& choiceValues(size_t field) {
    static const std::vector<const char*> twoSided = {"no: back faces culled", "yes: back faces drawn"};
    return field == kTwoSidedField ? twoSided : w3dShaderFields()[field].values;
}
QString w3dChoiceText(size_t field, int value) {
    const auto& names = choiceValues(field);
    return value >= 0 && size_t(value) < names.size()
               ? QStringLiteral("%1 (%2)").arg(QLatin1String(names[size_t(value)])).arg(value)
               : QStringLiteral("unknown (%1)").arg(value);
}

// The Value column of a texture row, edited: the name alone (no "→ file"), with the mounted textures offered as
// the user types. Committing asks the window to rename (the row itself is rebuilt from the edited file).
class TextureNameDelegate : public QStyledItemDelegate {
  public:
    explicit TextureNameDelegate(MaterialDock* dock) : QStyledItemDelegate(dock), dock_(dock) {}
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex& index) const override {
        const int kind = index.siblingAtColumn(0).data(kEditKindRole).toInt();
        if (kind == kEditShader) {
            auto* c = new QComboBox(parent);
            c->setObjectName(QStringLiteral("shaderEditor"));
            c->setEditable(true); // the registry's shaders, or any name
            c->setInsertPolicy(QComboBox::NoInsert);
            c->addItems(dock_->shaderChoices());
            return c;
        }
        if (kind == kEditChoice) {
            auto* c = new QComboBox(parent);
            c->setObjectName(QStringLiteral("choiceEditor"));
            const size_t field = size_t(index.siblingAtColumn(0).data(kChoiceFieldRole).toInt());
            const int stored = index.siblingAtColumn(0).data(kChoiceValueRole).toInt();
            const auto& names = choiceValues(field);
            for (size_t v = 0; v < names.size(); ++v)
                c->addItem(w3dChoiceText(field, int(v)), int(v));
            if (size_t(stored) >= names.size()) c->addItem(w3dChoiceText(field, stored), stored); // kept as stored
            return c;
        }
        if (kind == kEditNumbers || kind == kEditColour) {
            auto* e = new QLineEdit(parent);
            e->setObjectName(QStringLiteral("parameterEditor"));
            e->setToolTip(tr("Numbers separated by spaces or commas, or #RRGGBB(AA) for a colour"));
            return e;
        }
        auto* e = new QLineEdit(parent);
        e->setObjectName(QStringLiteral("textureNameEditor"));
        auto* c = new QCompleter(dock_->textureChoices(), e);
        c->setCaseSensitivity(Qt::CaseInsensitive);
        c->setFilterMode(Qt::MatchContains);
        e->setCompleter(c);
        return e;
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override {
        const int kind = index.siblingAtColumn(0).data(kEditKindRole).toInt();
        if (kind == kEditShader) {
            auto* c = static_cast<QComboBox*>(editor);
            c->setCurrentText(index.siblingAtColumn(0).data(kShaderRole).toString());
            c->lineEdit()->selectAll();
            return;
        }
        if (kind == kEditChoice) {
            auto* c = static_cast<QComboBox*>(editor);
            c->setCurrentIndex(c->findData(index.siblingAtColumn(0).data(kChoiceValueRole)));
            return;
        }
        if (kind == kEditNumbers || kind == kEditColour) {
            auto* e = static_cast<QLineEdit*>(editor);
            e->setText(index.data(Qt::DisplayRole).toString());
            e->selectAll();
            return;
        }
        auto* e = static_cast<QLineEdit*>(editor);
        e->setText(QString::fromStdString(
            cp1252ToUtf8(index.siblingAtColumn(0).data(kTextureBytesRole).toByteArray().toStdString())));
        e->selectAll();
    }
    void setModelData(QWidget* editor, QAbstractItemModel*, const QModelIndex& index) const override {
        const QModelIndex first = index.siblingAtColumn(0);
        const int kind = first.data(kEditKindRole).toInt();
        const bool entry = kind == kEditTexture && first.data(kTextureEntryRole).toBool();
        if (kind == kEditShader || kind == kEditNumbers || kind == kEditColour || kind == kEditChoice || entry) {
            EditOp op;
            op.target = first.data(kEditTargetRole).toByteArray().toStdString();
            QString text;
            if (kind == kEditChoice) {
                op.kind = size_t(first.data(kChoiceFieldRole).toInt()) == kTwoSidedField ? EditOp::Kind::SetMeshTwoSided
                                                                                         : EditOp::Kind::SetParam;
                op.name = first.data(kParamNameRole).toByteArray().toStdString();
                const QVariant v = static_cast<QComboBox*>(editor)->currentData();
                if (!v.isValid() || v.toInt() == first.data(kChoiceValueRole).toInt()) return;
                text = QString::number(v.toInt());
            } else if (entry) {
                op.kind = EditOp::Kind::SetParam;
                op.name = first.data(kParamNameRole).toByteArray().toStdString();
                const QString to = static_cast<QLineEdit*>(editor)->text().trimmed();
                const std::string from = first.data(kTextureBytesRole).toByteArray().toStdString();
                if (to.isEmpty() || to == QString::fromStdString(cp1252ToUtf8(from))) return;
                std::string bytes;
                if (!utf8ToCp1252(to.toStdString(), bytes)) return; // not storable: the game's files are CP-1252
                op.value = bytes;
                QPointer<MaterialDock> dock = dock_;
                QTimer::singleShot(0, dock_, [dock, op] {
                    if (dock) emit dock->editRequested(op);
                });
                return;
            } else if (kind == kEditShader) {
                op.kind = EditOp::Kind::SetShader;
                text = static_cast<QComboBox*>(editor)->currentText().trimmed();
                if (text.isEmpty() || text == first.data(kShaderRole).toString()) return;
            } else {
                op.kind = EditOp::Kind::SetParam;
                op.name = first.data(kParamNameRole).toByteArray().toStdString();
                text = static_cast<QLineEdit*>(editor)->text().trimmed();
                if (text.isEmpty() || text == index.data(Qt::DisplayRole).toString()) return;
            }
            op.value = text.toStdString();
            QPointer<MaterialDock> dock = dock_;
            QTimer::singleShot(0, dock_, [dock, op] {
                if (dock) emit dock->editRequested(op);
            });
            return;
        }
        const QByteArray from = index.siblingAtColumn(0).data(kTextureBytesRole).toByteArray();
        const QString to = static_cast<QLineEdit*>(editor)->text().trimmed();
        if (to.isEmpty() || to == QString::fromStdString(cp1252ToUtf8(from.toStdString()))) return;
        // After the editor is gone: the rename rebuilds the tree.
        QPointer<MaterialDock> dock = dock_;
        QTimer::singleShot(0, dock_, [dock, from, to] {
            if (dock) emit dock->textureRenameRequested(from, to);
        });
    }

  private:
    MaterialDock* dock_;
};

QIcon swatch(const glm::vec4& v, bool alpha) {
    QPixmap pm(16, 16);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    auto c = [](float f) { return std::clamp(f, 0.0f, 1.0f); };
    p.setPen(Qt::black);
    p.setBrush(QColor::fromRgbF(c(v.x), c(v.y), c(v.z), alpha ? c(v.w) : 1.0f));
    p.drawRect(1, 1, 13, 13);
    return QIcon(pm);
}

// Colour-like parameters: named so, or three/four components within 0..1.
bool looksLikeColour(const MaterialParam& p) {
    if (p.type != ParamType::Float3 && p.type != ParamType::Float4) return false;
    const std::string n = toLower(p.name);
    for (const char* k : {"color", "colour", "diffuse", "specular", "emissive", "ambient"})
        if (n.find(k) != std::string::npos) return true;
    return false;
}
} // namespace

MaterialDock::MaterialDock(QWidget* parent) : QDockWidget(tr("Materials"), parent) {
    setObjectName(QStringLiteral("materialDock"));
    auto* split = new QSplitter(Qt::Vertical, this);
    tree_ = new QTreeWidget(split);
    tree_->setColumnCount(3);
    tree_->setHeaderLabels({tr("Item"), tr("Type"), tr("Value")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    tree_->header()->setStretchLastSection(false); // fitColumns gives Value the rest
    tree_->setColumnWidth(0, 190);
    tree_->setColumnWidth(1, 90);
    // Thumbnails as large as a row of text and a half: more rows in a short panel (the preview shows them large).
    tree_->setIconSize(QSize(20, 20));
    // Item and Type follow their content (Item at most half the panel) and Value takes the rest, eliding what does
    // not fit (its tooltip has all): no column beyond the panel's right edge.
    tree_->viewport()->installEventFilter(this);
    connect(tree_, &QTreeWidget::itemExpanded, this, [this] { fitColumns(); });
    // A texture's name is edited in place: double-click or F2 (or the context menu) on its row.
    tree_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    tree_->setItemDelegateForColumn(2, new TextureNameDelegate(this));
    // A colour opens the colour picker; F2 edits its numbers as text.
    connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* it) {
        if (!pickColour(it)) editTexture(it);
    });
    auto* rename = new QAction(tr("Edit value…"), tree_);
    rename->setShortcut(Qt::Key_F2);
    rename->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(rename, &QAction::triggered, this, [this] { editTexture(tree_->currentItem()); });
    tree_->addAction(rename);
    tree_->setContextMenuPolicy(Qt::ActionsContextMenu);
    preview_ = new QLabel(split);
    preview_->setAlignment(Qt::AlignCenter);
    preview_->setMinimumSize(64, preview_->fontMetrics().height() + 8);
    preview_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored); // the pixmap follows the label's size
    preview_->setText(tr("Select a texture to preview it"));
    preview_->installEventFilter(this);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    setWidget(split);
    // QSplitter keeps the sizes it first gave when the panel grows; until the user moves the handle, every resize
    // gives the preview 2/5 of the panel once a texture is selected, and one line before (the list keeps the room
    // of a short panel, 1280x800 with the Scene panel above it, for the materials).
    split_ = split;
    split->installEventFilter(this);
    connect(split, &QSplitter::splitterMoved, this, [this] { splitMoved_ = true; });
    pool_.setMaxThreadCount(1);
    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* it) { showPreview(it); });
    connect(&watcher_, &QFutureWatcher<QHash<QString, QImage>>::finished, this, [this] {
        if (watcher_.property("generation").toInt() != generation_) return;
        const QHash<QString, QImage> decoded = watcher_.result(); // merged: an edit decodes only its new files
        for (auto d = decoded.begin(); d != decoded.end(); ++d)
            thumbs_.insert(d.key(), d.value());
        for (QTreeWidgetItemIterator it(tree_); *it; ++it) {
            const QString path = (*it)->data(0, kTextureRole).toString();
            if (!path.isEmpty() && thumbs_.contains(path))
                (*it)->setIcon(0, QIcon(QPixmap::fromImage(thumbs_.value(path).scaled(20, 20, Qt::KeepAspectRatio))));
        }
        showPreview(tree_->currentItem());
        thumbnailsReady_ = true;
        emit thumbnailsLoaded();
    });
}

MaterialDock::~MaterialDock() { watcher_.waitForFinished(); }

int MaterialDock::missingTextureCount() const {
    return int(std::count_if(resolved_.begin(), resolved_.end(), [](const QString& s) { return s.isEmpty(); }));
}

void MaterialDock::setModel(std::shared_ptr<const Model> model, std::shared_ptr<const Resolver> resolver) {
    model_ = std::move(model);
    if (resolver) resolver_ = std::move(resolver);
    ++generation_;
    tree_->clear();
    resolved_.clear();
    thumbs_.clear();
    preview_->setPixmap({});
    preview_->setText(tr("Select a texture to preview it"));
    previewOpen_ = false;
    fitSplit();
    thumbnailsReady_ = true;
    heldDecode_.clear();
    if (!model_) return;
    QStringList toDecode;
    buildRows(tree_->invisibleRootItem(), toDecode);
    tree_->expandToDepth(model_->meshes.size() > 12 ? -1 : 0);
    fitColumns();
    thumbnailsReady_ = false;
    heldDecode_.clear();
    if (holdThumbnails_)
        heldDecode_ = toDecode.isEmpty() ? QStringList{QString()} : toDecode; // {""}: nothing to decode, still held
    else
        startDecode(toDecode);
}

void MaterialDock::buildRows(QTreeWidgetItem* root, QStringList& toDecode) {
    const QString modelPath = QString::fromStdString(model_->sourcePath);
    const QFont mono(QStringLiteral("monospace"));
    // W3D: the file's meshes as stored, for the shader fields the scene model does not keep (read from the
    // document's bytes as they are now, so an edit of them shows at once).
    w3d::File stored;
    if (model_->format == Format::W3d && sourceBytes_) {
        const std::vector<uint8_t> bytes = sourceBytes_();
        try {
            if (!bytes.empty()) stored = w3d::readFile(ByteSpan(bytes), model_->sourcePath);
        } catch (const std::exception&) {
            stored = {}; // the rows that need it are left out
        }
    }
    auto storedShader = [&](const std::string& mesh, int index) -> const w3d::Shader* {
        for (const w3d::RawMesh& r : stored.meshes)
            if (r.name == mesh)
                return index >= 0 && size_t(index) < r.shaders.size() ? &r.shaders[size_t(index)] : nullptr;
        return nullptr;
    };
    // A row whose value does not change the picture: greyed, and why in its tooltip and kUnusedRole.
    auto markUnused = [](QTreeWidgetItem* it, const QString& why) {
        for (int c = 0; c < 3; ++c)
            it->setForeground(c, QColor(150, 150, 150));
        it->setToolTip(0, why);
        it->setToolTip(2, why);
        it->setData(0, kUnusedRole, why);
    };
    for (const Mesh& m : model_->meshes) {
        auto* mi = new QTreeWidgetItem(root);
        mi->setText(0, rs::gameText(m.name));
        QStringList tags;
        if (m.lod >= 0) tags << QStringLiteral("LOD%1").arg(m.lod);
        if (m.alt >= 0) tags << QStringLiteral("ALT%1").arg(m.alt);
        if (m.colorize) tags << tr("faction colour");
        if (m.hidden) tags << tr("hidden");
        if (m.shadowOrCollision) tags << tr("shadow/collision");
        if (m.twoSided) tags << tr("two-sided");
        mi->setText(1, tr("mesh"));
        mi->setData(0, kMeshNameRole, QString::fromUtf8(m.name.data(), int(m.name.size())));
        mi->setText(2, tags.join(QStringLiteral(", ")));
        for (size_t si = 0; si < m.subMeshes.size(); ++si) {
            const SubMesh& sm = m.subMeshes[si];
            auto* s = new QTreeWidgetItem(mi);
            s->setText(0, tr("sub-mesh %1: %2").arg(si).arg(rs::gameText(sm.material.shader)));
            s->setText(1, QString::fromStdString(sm.vertexFormat));
            s->setText(2, tr("%1 vertices, %2 triangles%3")
                              .arg(sm.vertexCount())
                              .arg(sm.triangleCount())
                              .arg(sm.skinned() ? tr(", skinned (%1 bones)").arg(sm.boneMap.size()) : QString()));
            // The target of the sub-mesh's edits: Alamo names the sub-mesh; W3D the mesh's shader material, B&W2
            // the model's material (Material::sourceIndex); W3D passes name their entries below.
            const bool w3dPasses = model_->format == Format::W3d && !sm.material.w3dPasses.empty();
            std::string target = m.name + "#" + std::to_string(si);
            if (model_->format == Format::W3d && sm.material.sourceIndex >= 0)
                target = m.name + "#" + std::to_string(sm.material.sourceIndex);
            if (model_->format == Format::Bw2Model && sm.material.sourceIndex >= 0)
                target = "material " + std::to_string(sm.material.sourceIndex);
            const bool shaderEditable =
                model_->format == Format::AlamoModel || (model_->format == Format::W3d && sm.material.sourceIndex >= 0);
            s->setData(0, kEditTargetRole, QByteArray::fromStdString(target));
            s->setData(0, kShaderRole, QString::fromStdString(cp1252ToUtf8(sm.material.shader)));
            if (shaderEditable) {
                s->setToolTip(0,
                              tr("shader %1 (double-click or F2 to change it)").arg(rs::gameText(sm.material.shader)));
                s->setData(0, kEditKindRole, int(kEditShader));
                s->setFlags(s->flags() | Qt::ItemIsEditable);
            }
            {
                // Which implementation draws it and how close that is to the game (core/formats/shader_registry.h).
                const rs::ShaderInfo info = rs::shaderInfo(model_->format, m, sm.material);
                auto* di = new QTreeWidgetItem(s);
                di->setText(0, tr("drawn by"));
                di->setText(1, QString::fromLatin1(rs::fidelityName(info.fidelity)));
                di->setText(2, QString::fromStdString(info.implementation +
                                                      (info.note.empty() ? std::string() : " — " + info.note)));
                di->setToolTip(2, QString::fromStdString(rs::fidelityText(info)));
                if (info.fidelity == rs::ShaderFidelity::Approximation) di->setForeground(1, QColor(220, 160, 40));
                if (info.fidelity == rs::ShaderFidelity::NotDrawn) di->setForeground(1, QColor(150, 150, 150));
            }
            // A texture row: the name as stored, where it was found, its thumbnail once decoded. `entry`: the
            // file's own texture entry/slot (SetParam `param` on `tgt`), else a rename of every reference.
            auto textureRow = [&](QTreeWidgetItem* parent, const QString& label, const std::string& stored,
                                  const std::string& tgt, const std::string& param, bool entry) {
                auto* pi = new QTreeWidgetItem(parent);
                pi->setText(0, label);
                pi->setText(1, QStringLiteral("texture"));
                pi->setFont(2, mono);
                pi->setData(0, kEditTargetRole, QByteArray::fromStdString(tgt));
                pi->setData(0, kParamNameRole, QByteArray::fromStdString(param));
                const QString name = QString::fromStdString(stored);
                QString file = resolved_.value(name, QStringLiteral("\x01"));
                if (file == QLatin1String("\x01")) {
                    file = QFile::decodeName(QByteArray::fromStdString(
                        resolver_->findTexture(stored, QFile::encodeName(modelPath).toStdString())));
                    resolved_.insert(name, file);
                    if (!file.isEmpty() && !toDecode.contains(file)) toDecode << file;
                }
                pi->setText(2, file.isEmpty() ? tr("%1 → missing").arg(name) : tr("%1 → %2").arg(name, file));
                pi->setToolTip(2, file.isEmpty() ? tr("not found beside the model, in the game's texture folders "
                                                      "(Data/Art/Textures, compiledtextures) or the texture folders")
                                                 : file);
                if (file.isEmpty()) pi->setForeground(2, QColor(220, 70, 60));
                pi->setData(0, kTextureRole, file);
                pi->setData(0, kTextureNameRole, name);
                pi->setData(0, kTextureBytesRole, QByteArray::fromStdString(stored));
                pi->setData(0, kEditKindRole, int(kEditTexture));
                pi->setData(0, kTextureEntryRole, entry);
                pi->setFlags(pi->flags() | Qt::ItemIsEditable);
                pi->setToolTip(0, entry ? tr("Double-click or F2 to change this texture of the material (%1)")
                                              .arg(QString::fromStdString(tgt))
                                        : tr("Double-click or F2 to rename this texture in the file"));
                return pi;
            };
            if (w3dPasses) {
                const std::vector<W3dPassState>& passes = sm.material.w3dPasses;
                for (size_t pass = 0; pass < passes.size(); ++pass) {
                    const W3dPassState& ps = passes[pass];
                    const QString prefix = passes.size() > 1 ? tr("pass %1: ").arg(pass) : QString();
                    if (ps.vmatIndex >= 0) {
                        auto* g = new QTreeWidgetItem(s);
                        g->setText(0, prefix + tr("vertex material %1").arg(ps.vmatIndex));
                        g->setText(1, tr("W3D 0x2B"));
                        g->setText(2, tr("colours 0..255; shared by the sub-meshes that use it"));
                        // With lighting off (a prelit vertex-lit pass, or vertex colours premultiplied by the
                        // emissive colour alone) Direct3D takes the pass's colour from the vertex colour array, or
                        // white without one: the material's colours light nothing. Only the one colour (and the
                        // opacity) that ww3d2's MeshMatDescClass::Post_Load_Process premultiplied into the array
                        // still changes the picture (core/w3d/w3d_mapper.h ColorRule).
                        const w3d::ColorRule rule = w3d::colorRule(passes, pass);
                        QString off;
                        if (!rule.lighting)
                            off = ps.lighting ? tr("vertex colours premultiplied by Emissive alone, lighting off")
                                              : tr("prelit (vertex-lit) pass, lighting off");
                        const char* scaleName = !rule.useColor                                     ? nullptr
                                                : rule.scaleFrom == w3d::ColorRule::From::Diffuse  ? "Diffuse"
                                                : rule.scaleFrom == w3d::ColorRule::From::Ambient  ? "Ambient"
                                                : rule.scaleFrom == w3d::ColorRule::From::Emissive ? "Emissive"
                                                                                                   : nullptr;
                        if (!off.isEmpty()) {
                            g->setText(2, scaleName ? tr("%1: only %2 and Opacity count (they scale the vertex "
                                                         "colours)")
                                                          .arg(off, QLatin1String(scaleName))
                                                    : tr("not used: %1").arg(off));
                            g->setToolTip(2, g->text(2));
                            if (!scaleName) g->setData(0, kUnusedRole, g->text(2));
                        }
                        auto note = [&](QTreeWidgetItem* it, const char* name) {
                            if (off.isEmpty()) return;
                            const bool used =
                                scaleName && (std::strcmp(name, scaleName) == 0 || std::strcmp(name, "Opacity") == 0);
                            if (used)
                                it->setToolTip(0, tr("used: scales the vertex colours (%1)").arg(off));
                            else
                                markUnused(it, tr("not used: %1").arg(off));
                        };
                        const std::string tgt = m.name + "#" + std::to_string(ps.vmatIndex);
                        const std::pair<const char*, glm::vec3> colours[] = {{"Ambient", ps.ambient},
                                                                             {"Diffuse", ps.diffuse},
                                                                             {"Specular", ps.specular},
                                                                             {"Emissive", ps.emissive}};
                        for (const auto& [cname, c] : colours) {
                            auto* ci = new QTreeWidgetItem(g);
                            ci->setText(0, QLatin1String(cname));
                            ci->setText(1, QStringLiteral("colour"));
                            ci->setFont(2, mono);
                            ci->setText(2, QStringLiteral("%1, %2, %3")
                                               .arg(std::lround(c.x * 255))
                                               .arg(std::lround(c.y * 255))
                                               .arg(std::lround(c.z * 255)));
                            ci->setIcon(2, swatch(glm::vec4(c, 1.0f), false));
                            ci->setData(0, kEditTargetRole, QByteArray::fromStdString(tgt));
                            ci->setData(0, kParamNameRole, QByteArray(cname));
                            ci->setData(0, kEditKindRole, int(kEditColour));
                            ci->setData(0, kColour255Role, true);
                            ci->setFlags(ci->flags() | Qt::ItemIsEditable);
                            note(ci, cname);
                        }
                        for (const auto& [fname, f] :
                             {std::pair<const char*, float>{"Shininess", ps.shininess}, {"Opacity", ps.opacity}}) {
                            auto* fi = new QTreeWidgetItem(g);
                            fi->setText(0, QLatin1String(fname));
                            fi->setText(1, QStringLiteral("float"));
                            fi->setFont(2, mono);
                            fi->setText(2, QString::number(double(f), 'g', 6));
                            fi->setData(0, kEditTargetRole, QByteArray::fromStdString(tgt));
                            fi->setData(0, kParamNameRole, QByteArray(fname));
                            fi->setData(0, kEditKindRole, int(kEditNumbers));
                            fi->setFlags(fi->flags() | Qt::ItemIsEditable);
                            note(fi, fname);
                        }
                    }
                    if (ps.shaderIndex >= 0) {
                        auto* g = new QTreeWidgetItem(s);
                        g->setText(0, prefix + tr("shader %1").arg(ps.shaderIndex));
                        g->setText(1, tr("W3D 0x29"));
                        g->setText(2, tr("shared by the sub-meshes that use it"));
                        const std::string tgt = m.name + "#" + std::to_string(ps.shaderIndex);
                        const w3d::Shader* fromFile = storedShader(m.name, ps.shaderIndex);
                        for (size_t f = 0; f < w3dShaderFields().size(); ++f) {
                            if (w3dShaderFields()[f].stored && !fromFile) continue; // not readable: not listed
                            const int v = w3dShaderValue(ps.shader, fromFile, f);
                            auto* fi = new QTreeWidgetItem(g);
                            fi->setText(0, QLatin1String(w3dShaderFields()[f].name));
                            fi->setText(1, QStringLiteral("choice"));
                            fi->setText(2, w3dChoiceText(f, v));
                            fi->setData(0, kEditTargetRole, QByteArray::fromStdString(tgt));
                            fi->setData(0, kParamNameRole, QByteArray(w3dShaderFields()[f].name));
                            fi->setData(0, kEditKindRole, int(kEditChoice));
                            fi->setData(0, kChoiceFieldRole, int(f));
                            fi->setData(0, kChoiceValueRole, v);
                            fi->setFlags(fi->flags() | Qt::ItemIsEditable);
                            if (w3dShaderFields()[f].unused) markUnused(fi, tr(w3dShaderFields()[f].unused));
                        }
                    }
                    for (int stage = 0; stage < 2; ++stage)
                        if (ps.textureIndex[stage] >= 0)
                            textureRow(s, prefix + tr("texture %1 (stage %2)").arg(ps.textureIndex[stage]).arg(stage),
                                       ps.textures[stage], m.name + "#" + std::to_string(ps.textureIndex[stage]),
                                       "Texture", true);
                }
                continue;
            }
            for (const MaterialParam& p : sm.material.params) {
                if (p.type == ParamType::Texture) {
                    // B&W2: the material's slot; elsewhere a rename of every reference to the texture.
                    textureRow(s, rs::gameText(p.name), p.texture, target, p.name,
                               model_->format == Format::Bw2Model && sm.material.sourceIndex >= 0);
                    continue;
                }
                auto* pi = new QTreeWidgetItem(s);
                pi->setText(0, rs::gameText(p.name));
                pi->setText(1, QLatin1String(rs::paramTypeName(p.type)));
                pi->setFont(2, mono);
                pi->setData(0, kEditTargetRole, QByteArray::fromStdString(target));
                pi->setData(0, kParamNameRole, QByteArray::fromStdString(p.name));
                pi->setData(0, kEditKindRole, int(looksLikeColour(p) ? kEditColour : kEditNumbers));
                pi->setFlags(pi->flags() | Qt::ItemIsEditable);
                switch (p.type) {
                case ParamType::Int:
                    pi->setText(2, QString::number(p.intValue));
                    break;
                case ParamType::Float:
                    pi->setText(2, QString::number(double(p.value.x), 'g', 6));
                    break;
                case ParamType::Float3:
                case ParamType::Float4: {
                    QString t = QStringLiteral("%1, %2, %3")
                                    .arg(double(p.value.x), 0, 'g', 4)
                                    .arg(double(p.value.y), 0, 'g', 4)
                                    .arg(double(p.value.z), 0, 'g', 4);
                    if (p.type == ParamType::Float4) t += QStringLiteral(", %1").arg(double(p.value.w), 0, 'g', 4);
                    pi->setText(2, t);
                    if (looksLikeColour(p))
                        pi->setIcon(2, swatch(p.value, false)); // alpha is often unused: opaque swatch
                    break;
                }
                case ParamType::Texture:
                    break;
                }
            }
        }
        // W3D: the mesh header's two-sided flag (after the sub-meshes: child i stays sub-mesh i).
        if (model_->format == Format::W3d) {
            auto* ti = new QTreeWidgetItem(mi);
            ti->setText(0, tr("Two-sided"));
            ti->setText(1, QStringLiteral("flag"));
            ti->setText(2, w3dChoiceText(kTwoSidedField, m.twoSided ? 1 : 0));
            ti->setToolTip(0, tr("W3D_MESH_FLAG_TWO_SIDED of the mesh header (0x1F): back faces drawn or culled"));
            ti->setData(0, kEditTargetRole, QByteArray::fromStdString(m.name));
            ti->setData(0, kEditKindRole, int(kEditChoice));
            ti->setData(0, kChoiceFieldRole, int(kTwoSidedField));
            ti->setData(0, kChoiceValueRole, m.twoSided ? 1 : 0);
            ti->setFlags(ti->flags() | Qt::ItemIsEditable);
        }
    }
    // Values the column may show shortened: whole in their tooltip.
    std::function<void(QTreeWidgetItem*)> tips = [&](QTreeWidgetItem* it) {
        if (it->toolTip(2).isEmpty() && !it->text(2).isEmpty()) it->setToolTip(2, it->text(2));
        for (int i = 0; i < it->childCount(); ++i)
            tips(it->child(i));
    };
    for (int i = 0; i < root->childCount(); ++i)
        tips(root->child(i));
}

namespace {
// Whether two rows have the same children, row for row (the same rows after an edit of values).
bool sameShape(const QTreeWidgetItem* a, const QTreeWidgetItem* b) {
    if (a->childCount() != b->childCount()) return false;
    for (int i = 0; i < a->childCount(); ++i)
        if (!sameShape(a->child(i), b->child(i))) return false;
    return true;
}
constexpr int kRoles[] = {kTextureRole,     kTextureNameRole, kMeshNameRole,  kTextureBytesRole, kShaderRole,
                          kEditKindRole,    kEditTargetRole,  kParamNameRole, kTextureEntryRole, kColour255Role,
                          kChoiceFieldRole, kChoiceValueRole, kUnusedRole};
} // namespace

bool MaterialDock::updateModel(std::shared_ptr<const Model> model) {
    if (!model || !model_ || model->sourcePath != model_->sourcePath || model->format != model_->format ||
        tree_->topLevelItemCount() == 0) {
        setModel(std::move(model), nullptr);
        return false;
    }
    model_ = std::move(model);
    // The rows of the edited model, off screen (texture names resolved before are not looked up again).
    QTreeWidgetItem fresh;
    QStringList toDecode;
    buildRows(&fresh, toDecode);
    // Names no row names any more (a rename's old name) leave the resolved list (missingTextureCount, live reload).
    QSet<QString> named;
    std::function<void(QTreeWidgetItem*)> names = [&](QTreeWidgetItem* it) {
        if (it->text(1) == QLatin1String("texture")) named.insert(it->data(0, kTextureNameRole).toString());
        for (int i = 0; i < it->childCount(); ++i)
            names(it->child(i));
    };
    names(&fresh);
    for (auto it = resolved_.begin(); it != resolved_.end();)
        it = named.contains(it.key()) ? std::next(it) : resolved_.erase(it);
    QTreeWidgetItem* shown = tree_->invisibleRootItem();
    if (!sameShape(shown, &fresh)) { // rows came or went (an edit that changes what is listed): all again
        setModel(model_, nullptr);
        return false;
    }
    // Row by row: only a row whose text or data changed is touched; the columns are fitted again only when the
    // Item or Type text of a row changed (Value takes the rest of the width whatever it holds).
    lastUpdatedRows_ = 0;
    bool widen = false;
    std::function<void(QTreeWidgetItem*, QTreeWidgetItem*)> update = [&](QTreeWidgetItem* old, QTreeWidgetItem* now) {
        bool changed = false;
        for (int c = 0; c < 3 && !changed; ++c)
            changed = old->text(c) != now->text(c) || old->toolTip(c) != now->toolTip(c);
        for (int r : kRoles)
            changed = changed || old->data(0, r) != now->data(0, r);
        changed = changed || old->foreground(2) != now->foreground(2);
        if (changed && old != shown) {
            ++lastUpdatedRows_;
            for (int c = 0; c < 3; ++c) {
                if (c < 2 && old->text(c) != now->text(c)) widen = true;
                old->setText(c, now->text(c));
                old->setToolTip(c, now->toolTip(c));
                old->setForeground(c, now->foreground(c));
            }
            const QString file = now->data(0, kTextureRole).toString();
            if (now->text(1) == QLatin1String("texture")) {
                // A thumbnail already decoded for the file, else none until the decode below is done.
                old->setIcon(0, thumbs_.contains(file)
                                    ? QIcon(QPixmap::fromImage(thumbs_.value(file).scaled(20, 20, Qt::KeepAspectRatio)))
                                    : QIcon());
            } else {
                old->setIcon(2, now->icon(2)); // a colour's swatch
            }
            for (int r : kRoles)
                old->setData(0, r, now->data(0, r));
            if (old == tree_->currentItem()) showPreview(old);
        }
        for (int i = 0; i < old->childCount(); ++i)
            update(old->child(i), now->child(i));
    };
    update(shown, &fresh);
    if (widen) fitColumns(); // a sub-mesh's label (its shader) changed: the Item column may need more room
    // Thumbnails of files not decoded yet (a texture an edit names anew, or a decode still running or held): decoded
    // and applied when done; the others keep theirs.
    QStringList pending;
    for (QTreeWidgetItemIterator it(tree_); *it; ++it) {
        const QString file = (*it)->data(0, kTextureRole).toString();
        if (!file.isEmpty() && !thumbs_.contains(file) && !pending.contains(file)) pending << file;
    }
    if (!pending.isEmpty()) {
        ++generation_;
        thumbnailsReady_ = false;
        if (holdThumbnails_)
            heldDecode_ = pending;
        else
            startDecode(pending);
    }
    return true;
}

void MaterialDock::holdThumbnails(bool hold) {
    holdThumbnails_ = hold;
    if (hold || heldDecode_.isEmpty()) return;
    QStringList files = heldDecode_;
    heldDecode_.clear();
    files.removeAll(QString());
    startDecode(files);
}

void MaterialDock::startDecode(const QStringList& toDecode) {
    watcher_.setProperty("generation", generation_);
    thumbnailsReady_ = false;
    watcher_.setFuture(QtConcurrent::run(&pool_, [toDecode, resolver = resolver_] {
        QHash<QString, QImage> out;
        // The render layer's CPU decoders (DDS DXT1/3/5 and uncompressed, TGA, Qt formats).
        for (const QString& f : toDecode) {
            QString error;
            QImage img = render::decodeTextureFile(*resolver, f, &error);
            if (!img.isNull() && (img.width() > 192 || img.height() > 192))
                img = img.scaled(512, 512, Qt::KeepAspectRatio, Qt::SmoothTransformation);
            out.insert(f, img);
        }
        return out;
    }));
}

bool MaterialDock::selectFirstFoundTexture() {
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        if (!(*it)->data(0, kTextureRole).toString().isEmpty()) {
            tree_->setCurrentItem(*it);
            tree_->scrollToItem(*it);
            showPreview(*it);
            return true;
        }
    return false;
}

bool MaterialDock::editTexture(QTreeWidgetItem* item) {
    if (!item || item->data(0, kEditKindRole).toInt() == kNotEditable || !(item->flags() & Qt::ItemIsEditable))
        return false;
    tree_->setCurrentItem(item, 2);
    tree_->editItem(item, 2);
    return true;
}

bool MaterialDock::pickColour(QTreeWidgetItem* item) {
    if (!item || item->data(0, kEditKindRole).toInt() != kEditColour || !model_) return false;
    // The row's numbers (as shown) for the dialog's start; 4 of them: the alpha channel too.
    const QStringList parts = item->text(2).split(QLatin1Char(','), Qt::SkipEmptyParts);
    QList<double> v;
    const bool w255 = item->data(0, kColour255Role).toBool(); // W3D: 0..255, one byte per channel, no alpha
    for (const QString& p : parts)
        v << p.trimmed().toDouble() / (w255 ? 255.0 : 1.0);
    if (v.size() < 3) return false;
    auto c01 = [](double d) { return std::clamp(d, 0.0, 1.0); };
    const bool alpha = v.size() >= 4;
    const QColor start =
        QColor::fromRgbF(float(c01(v[0])), float(c01(v[1])), float(c01(v[2])), alpha ? float(c01(v[3])) : 1.0f);
    const QColor c = colourPicker_ ? colourPicker_(start, alpha)
                                   : QColorDialog::getColor(start, this, tr("%1").arg(item->text(0)),
                                                            alpha ? QColorDialog::ShowAlphaChannel
                                                                  : QColorDialog::ColorDialogOptions());
    if (!c.isValid() || c == start) return false;
    EditOp op;
    op.kind = EditOp::Kind::SetParam;
    op.target = item->data(0, kEditTargetRole).toByteArray().toStdString();
    op.name = item->data(0, kParamNameRole).toByteArray().toStdString();
    if (w255) {
        op.value = c.name(QColor::HexRgb).toStdString(); // "#rrggbb": the bytes the picker chose
        emit editRequested(op);
        return true;
    }
    op.value = QStringLiteral("%1 %2 %3")
                   .arg(c.redF(), 0, 'g', 4)
                   .arg(c.greenF(), 0, 'g', 4)
                   .arg(c.blueF(), 0, 'g', 4)
                   .toStdString();
    if (alpha) op.value += " " + QString::number(c.alphaF(), 'g', 4).toStdString();
    emit editRequested(op);
    return true;
}

QStringList MaterialDock::shaderChoices() const {
    QStringList out;
    if (model_ && (model_->format == Format::AlamoModel))
        for (const std::string& n : alamoShaderNames())
            out << QString::fromStdString(n);
    return out;
}

QList<int> MaterialDock::currentItemPath() const {
    QList<int> path;
    for (QTreeWidgetItem* it = tree_->currentItem(); it; it = it->parent())
        path.prepend(it->parent() ? it->parent()->indexOfChild(it) : tree_->indexOfTopLevelItem(it));
    return path;
}

void MaterialDock::setCurrentItemPath(const QList<int>& path) {
    QTreeWidgetItem* it = nullptr;
    for (int i = 0; i < path.size(); ++i) {
        QTreeWidgetItem* next =
            i == 0 ? tree_->topLevelItem(path[i]) : (path[i] < it->childCount() ? it->child(path[i]) : nullptr);
        if (!next) break;
        it = next;
    }
    if (!it) return;
    for (QTreeWidgetItem* p = it->parent(); p; p = p->parent())
        p->setExpanded(true);
    tree_->setCurrentItem(it);
    tree_->scrollToItem(it);
    showPreview(it);
}

bool MaterialDock::selectTexture(const QString& storedName) {
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        if ((*it)->text(1) == QLatin1String("texture") && (*it)->data(0, kTextureNameRole).toString() == storedName) {
            tree_->setCurrentItem(*it);
            tree_->scrollToItem(*it);
            showPreview(*it);
            return true;
        }
    return false;
}

bool MaterialDock::selectSubMesh(const QString& mesh, int subMesh) {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* mi = tree_->topLevelItem(i);
        if (mi->data(0, kMeshNameRole).toString() != mesh) continue;
        QTreeWidgetItem* pick = subMesh < 0 ? mi : (subMesh < mi->childCount() ? mi->child(subMesh) : nullptr);
        if (!pick) return false;
        tree_->setCurrentItem(pick);
        pick->setExpanded(true);
        tree_->scrollToItem(pick);
        return true;
    }
    return false;
}

void MaterialDock::fitColumns() {
    const int view = tree_->viewport()->width();
    if (view <= 0 || tree_->topLevelItemCount() == 0) return;
    auto* v = static_cast<QAbstractItemView*>(tree_); // QTreeView::sizeHintForColumn is protected
    const int type = std::min(std::max(v->sizeHintForColumn(1), tree_->header()->sectionSizeHint(1)), view / 4);
    const int item = std::min(std::max(v->sizeHintForColumn(0), tree_->header()->sectionSizeHint(0)), view / 2);
    tree_->setColumnWidth(0, item);
    tree_->setColumnWidth(1, type);
    tree_->setColumnWidth(2, std::max(view - item - type, 40));
}

bool MaterialDock::eventFilter(QObject* watched, QEvent* e) {
    if (watched == tree_->viewport() && e->type() == QEvent::Resize) fitColumns();
    // The preview uses the room the panel gives it: rescale when it is resized.
    if (watched == preview_ && e->type() == QEvent::Resize && tree_->currentItem()) showPreview(tree_->currentItem());
    if (watched == split_ && e->type() == QEvent::Resize && !splitMoved_) {
        // After the splitter's own resize handling, which would otherwise redistribute the sizes again.
        QMetaObject::invokeMethod(
            this, [this] { fitSplit(); }, Qt::QueuedConnection);
    }
    return QDockWidget::eventFilter(watched, e);
}

void MaterialDock::fitSplit() {
    if (splitMoved_ || !split_) return;
    const int h = split_->height();
    const int line = preview_->minimumHeight();
    // Open: 2/5 of a tall panel, and up to half of a short one (at 1280x800 the panel is under 200 px tall).
    const int p = previewOpen_ ? std::max({line, h * 2 / 5, std::min(140, h / 2)}) : std::min(line, h / 2);
    split_->setSizes({h - p, p});
}

void MaterialDock::showPreview(QTreeWidgetItem* item) {
    if (!item) return;
    const QString path = item->data(0, kTextureRole).toString();
    if (item->text(1) != QLatin1String("texture")) return;
    if (!previewOpen_) { // before the pixmap is scaled to the label
        previewOpen_ = true;
        fitSplit();
    }
    if (path.isEmpty()) {
        preview_->setPixmap({});
        preview_->setText(tr("missing: %1").arg(item->text(2)));
    } else if (const QImage img = thumbs_.value(path); !img.isNull()) {
        const int side = std::max(32, std::min(preview_->width(), preview_->height()) - 8);
        preview_->setPixmap(QPixmap::fromImage(img.scaled(side, side, Qt::KeepAspectRatio, Qt::SmoothTransformation)));
        preview_->setToolTip(tr("%1 (%2×%3 shown)").arg(path).arg(img.width()).arg(img.height()));
    } else {
        preview_->setPixmap({});
        preview_->setText(thumbs_.contains(path) ? tr("cannot decode %1").arg(path) : tr("loading %1…").arg(path));
    }
}

} // namespace rs::ui
