#include "material_dock.h"

#include "common/cp1252.h"
#include "formats/shader_registry.h"

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
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTimer>
#include <QTreeWidget>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace rs::ui {

namespace {
constexpr int kTextureRole = Qt::UserRole + 2;      // resolved file
constexpr int kTextureNameRole = Qt::UserRole + 3;  // name as stored
constexpr int kMeshNameRole = Qt::UserRole + 4;     // mesh rows: the mesh's name as stored
constexpr int kTextureBytesRole = Qt::UserRole + 5; // texture rows: the name's bytes as stored (CP-1252)
constexpr int kShaderRole = Qt::UserRole + 9;       // sub-mesh rows: the shader's name as shown
constexpr int kEditKindRole = Qt::UserRole + 6;     // what editing the row's value does (EditKind)
constexpr int kEditTargetRole = Qt::UserRole + 7;   // sub-mesh and parameter rows: EditOp::target ("MESH#1", bytes)
constexpr int kParamNameRole = Qt::UserRole + 8;    // parameter rows: the parameter's name as stored (bytes)
enum EditKind { kNotEditable = 0, kEditTexture = 1, kEditNumbers = 2, kEditColour = 3, kEditShader = 4 };

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
        if (kind == kEditShader || kind == kEditNumbers || kind == kEditColour) {
            EditOp op;
            op.target = first.data(kEditTargetRole).toByteArray().toStdString();
            QString text;
            if (kind == kEditShader) {
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
        thumbs_ = watcher_.result();
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
    const QString modelPath = QString::fromStdString(model_->sourcePath);
    QStringList toDecode;
    const QFont mono(QStringLiteral("monospace"));
    for (const Mesh& m : model_->meshes) {
        auto* mi = new QTreeWidgetItem(tree_);
        mi->setText(0, rs::gameText(m.name));
        QStringList tags;
        if (m.lod >= 0) tags << QStringLiteral("LOD%1").arg(m.lod);
        if (m.alt >= 0) tags << QStringLiteral("ALT%1").arg(m.alt);
        if (m.colorize) tags << tr("faction colour");
        if (m.hidden) tags << tr("hidden");
        if (m.shadowOrCollision) tags << tr("shadow/collision");
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
            s->setToolTip(0, tr("shader %1 (double-click or F2 to change it)").arg(rs::gameText(sm.material.shader)));
            s->setData(0, kEditKindRole, int(kEditShader));
            s->setData(0, kEditTargetRole, QByteArray::fromStdString(m.name + "#" + std::to_string(si)));
            s->setData(0, kShaderRole, QString::fromStdString(cp1252ToUtf8(sm.material.shader)));
            s->setFlags(s->flags() | Qt::ItemIsEditable);
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
            for (const MaterialParam& p : sm.material.params) {
                auto* pi = new QTreeWidgetItem(s);
                pi->setText(0, rs::gameText(p.name));
                pi->setText(1, QLatin1String(rs::paramTypeName(p.type)));
                pi->setFont(2, mono);
                pi->setData(0, kEditTargetRole, QByteArray::fromStdString(m.name + "#" + std::to_string(si)));
                pi->setData(0, kParamNameRole, QByteArray::fromStdString(p.name));
                if (p.type != ParamType::Texture) {
                    pi->setData(0, kEditKindRole, int(looksLikeColour(p) ? kEditColour : kEditNumbers));
                    pi->setFlags(pi->flags() | Qt::ItemIsEditable);
                }
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
                case ParamType::Texture: {
                    const QString name = QString::fromStdString(p.texture);
                    QString file = resolved_.value(name, QStringLiteral("\x01"));
                    if (file == QLatin1String("\x01")) {
                        file = QFile::decodeName(QByteArray::fromStdString(
                            resolver_->findTexture(p.texture, QFile::encodeName(modelPath).toStdString())));
                        resolved_.insert(name, file);
                        if (!file.isEmpty() && !toDecode.contains(file)) toDecode << file;
                    }
                    pi->setText(2, file.isEmpty() ? tr("%1 → missing").arg(name) : tr("%1 → %2").arg(name, file));
                    pi->setToolTip(2, file.isEmpty()
                                          ? tr("not found beside the model, in the game's texture folders "
                                               "(Data/Art/Textures, compiledtextures) or the texture folders")
                                          : file);
                    if (file.isEmpty()) pi->setForeground(2, QColor(220, 70, 60));
                    pi->setData(0, kTextureRole, file);
                    pi->setData(0, kTextureNameRole, name);
                    pi->setData(0, kTextureBytesRole, QByteArray::fromStdString(p.texture));
                    pi->setData(0, kEditKindRole, int(kEditTexture));
                    pi->setFlags(pi->flags() | Qt::ItemIsEditable);
                    pi->setToolTip(0, tr("Double-click or F2 to rename this texture in the file"));
                    break;
                }
                }
            }
        }
    }
    tree_->expandToDepth(model_->meshes.size() > 12 ? -1 : 0);
    // Values the column may show shortened: whole in their tooltip.
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        if ((*it)->toolTip(2).isEmpty() && !(*it)->text(2).isEmpty()) (*it)->setToolTip(2, (*it)->text(2));
    fitColumns();
    thumbnailsReady_ = false;
    heldDecode_.clear();
    if (holdThumbnails_)
        heldDecode_ = toDecode.isEmpty() ? QStringList{QString()} : toDecode; // {""}: nothing to decode, still held
    else
        startDecode(toDecode);
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
    for (const QString& p : parts)
        v << p.trimmed().toDouble();
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
