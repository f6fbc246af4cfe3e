#include "bone_tree_dock.h"

#include "game_text.h"

#include <QColorDialog>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeyEvent>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTreeWidget>

#define GLM_ENABLE_EXPERIMENTAL
#include <glm/gtx/matrix_decompose.hpp>

#include <algorithm>
#include <cmath>

namespace rs::ui {

namespace {
constexpr int kBoneRole = Qt::UserRole + 1;
constexpr int kNameRole = Qt::UserRole + 2;   // a bone's or object's name as stored (CP-1252 bytes)
constexpr int kObjectRole = Qt::UserRole + 3; // an attachment row: which kind of object (ObjectKind)
constexpr int kIndexRole = Qt::UserRole + 4;  // ... and its index in the model's list of that kind
enum ObjectKind { kMesh = 1, kLight, kProxy, kDazzle };

// Billboard modes by their stored value (scene/model.h BillboardMode).
const char* const kBillboardNames[] = {"None",           "Parallel",      "Face camera",   "Z axis (view)",
                                       "Z axis (light)", "Z axis (wind)", "Sunlight glow", "Sun"};

QString numbers(std::initializer_list<float> v) {
    QStringList out;
    for (float f : v)
        out << QString::number(double(f), 'g', 7);
    return out.join(QLatin1Char(' '));
}

// A number short enough for a narrow panel: five significant digits without an exponent (12346, 12.5, 0.7071),
// trailing zeros dropped, "0" for what rounds to zero.
QString num(double v) {
    if (!std::isfinite(v)) return QString::number(v);
    const double a = std::abs(v);
    if (a < 5e-5) return QStringLiteral("0");
    const int decimals = std::clamp(4 - int(std::floor(std::log10(a))), 0, 4);
    QString s = QString::number(v, 'f', decimals);
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.'))) s.chop(1);
    }
    return s == QLatin1String("-0") ? QStringLiteral("0") : s;
}

QString vec3Text(const glm::vec3& v) {
    return QStringLiteral("(%1, %2, %3)").arg(num(double(v.x)), num(double(v.y)), num(double(v.z)));
}

QString quatText(const glm::quat& q) {
    return QStringLiteral("w %1 x %2 y %3 z %4")
        .arg(num(double(q.w)), num(double(q.x)), num(double(q.y)), num(double(q.z)));
}

// Translation, rotation (quaternion and Euler angles), scale, then the matrix by rows, its columns aligned: short
// lines, so that the text fits the panel's width at 1280x800.
QString transformText(const char* title, const glm::mat4& m) {
    glm::vec3 scale, translation, skew;
    glm::vec4 persp;
    glm::quat rot;
    QString s = QStringLiteral("%1\n").arg(QLatin1String(title));
    if (glm::decompose(m, scale, rot, translation, skew, persp)) {
        const glm::vec3 euler = glm::degrees(glm::eulerAngles(rot));
        s += QStringLiteral("  T %1\n  R %2\n    euler° %3\n  S %4\n")
                 .arg(vec3Text(translation), quatText(rot), vec3Text(euler), vec3Text(scale));
    }
    QString cells[4][4];
    int wide = 1;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) {
            cells[r][c] = num(double(m[c][r]));
            wide = std::max(wide, int(cells[r][c].size()));
        }
    for (int r = 0; r < 4; ++r)
        s += QStringLiteral("  %1 %2 %3 %4\n")
                 .arg(cells[r][0], wide)
                 .arg(cells[r][1], wide)
                 .arg(cells[r][2], wide)
                 .arg(cells[r][3], wide);
    return s;
}
} // namespace

BoneTreeDock::BoneTreeDock(QWidget* parent) : QDockWidget(tr("Bones"), parent) {
    setObjectName(QStringLiteral("boneDock"));
    auto* split = new QSplitter(Qt::Vertical, this);
    tree_ = new QTreeWidget(split);
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Bone"), tr("Attached")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    tree_->header()->setStretchLastSection(false); // fitColumns gives Attached the rest (a stretched last section
                                                   // keeps at least the default section size, beyond the panel)
    tree_->setColumnWidth(0, 150);
    tree_->setUniformRowHeights(true);
    tree_->setIndentation(12);
    // The Bone column follows its content until the user drags it (fitColumns).
    tree_->viewport()->installEventFilter(this);
    connect(tree_->header(), &QHeaderView::sectionResized, this, [this](int section) {
        if (section != 0 || fitting_) return;
        userSized_ = true;
        fitColumns(); // Attached follows
    });
    connect(tree_, &QTreeWidget::itemExpanded, this, [this] { fitColumns(); });
    connect(tree_, &QTreeWidget::itemCollapsed, this, [this] { fitColumns(); });
    details_ = new QPlainTextEdit(split);
    details_->setReadOnly(true);
    details_->setFont(QFont(QStringLiteral("monospace"), 8));
    // Short lines (transformText) fit a 1280x800 panel; a narrower one wraps them instead of cutting them.
    details_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    setWidget(split);

    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        int bone = -1;
        for (QTreeWidgetItem* it = item; it; it = it->parent())
            if (it->data(0, kBoneRole).isValid()) {
                bone = it->data(0, kBoneRole).toInt();
                break;
            }
        if (bone == selected_) return;
        selected_ = bone;
        refreshDetails();
        emit boneSelected(bone);
    });
    connect(tree_, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
        if (column != 0 || !item->data(0, kBoneRole).isValid()) return;
        const int bone = item->data(0, kBoneRole).toInt();
        const QByteArray stored = item->data(0, kNameRole).toByteArray();
        const QString shown = rs::gameText(stored.toStdString());
        if (item->text(0) != shown) { // the name edited in place: the row shows the file's name until the edit
            const QString typed = item->text(0).trimmed();
            {
                QSignalBlocker block(tree_);
                item->setText(0, shown);
            }
            if (!typed.isEmpty() && typed != shown) emit boneRenameRequested(stored, typed);
            return;
        }
        emit boneHiddenChanged(bone, item->checkState(0) == Qt::Unchecked);
    });
    // Names are edited by F2 or the menu only (a double-click expands the row, and the Attached column is not
    // editable).
    tree_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    tree_->installEventFilter(this);
    tree_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(tree_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        QTreeWidgetItem* item = tree_->itemAt(at);
        if (!item) return;
        QMenu* menu = editMenu(item, this);
        if (!menu) return;
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(tree_->viewport()->mapToGlobal(at));
    });
}

QString BoneTreeDock::prompt(const QString& what, const QString& current) {
    if (valuePrompt_) return valuePrompt_(what, current);
    bool ok = false;
    const QString v = QInputDialog::getText(this, what, what, QLineEdit::Normal, current, &ok);
    return ok ? v : QString();
}

bool BoneTreeDock::renameBone(int bone) {
    QTreeWidgetItem* item = itemForBone(bone);
    if (!item) return false;
    tree_->setCurrentItem(item);
    tree_->scrollToItem(item);
    tree_->editItem(item, 0);
    return true;
}

QMenu* BoneTreeDock::editMenu(QTreeWidgetItem* item, QWidget* parent) {
    if (!model_ || !item) return nullptr;
    auto* menu = new QMenu(parent);
    auto emitOp = [this](EditOp::Kind kind, const std::string& target, const QString& value) {
        EditOp op;
        op.kind = kind;
        op.target = target;
        op.value = value.toStdString();
        emit editRequested(op);
    };
    auto check = [menu](const QString& text, const char* name, bool on) {
        QAction* a = menu->addAction(text);
        a->setObjectName(QLatin1String(name));
        a->setCheckable(true);
        a->setChecked(on);
        return a;
    };
    auto colourOf = [](const glm::vec3& c) {
        return QColor::fromRgbF(std::clamp(c.x, 0.0f, 1.0f), std::clamp(c.y, 0.0f, 1.0f), std::clamp(c.z, 0.0f, 1.0f));
    };
    // A colour from the picker as "R G B" (0..1), or "" when cancelled.
    auto pickColour = [this](const QColor& start, const QString& what) {
        const QColor c = colourPicker_ ? colourPicker_(start) : QColorDialog::getColor(start, this, what);
        return c.isValid() ? numbers({float(c.redF()), float(c.greenF()), float(c.blueF())}) : QString();
    };
    if (item->data(0, kBoneRole).isValid()) {
        const int b = item->data(0, kBoneRole).toInt();
        if (b < 0 || size_t(b) >= model_->skeleton.bones.size()) return delete menu, nullptr;
        const Bone& bone = model_->skeleton.bones[size_t(b)];
        const std::string name = bone.name;
        QAction* rename = menu->addAction(tr("Rename bone…"), this, [this, b] { renameBone(b); });
        rename->setObjectName(QStringLiteral("boneRename"));
        rename->setShortcut(Qt::Key_F2);
        connect(check(tr("Visible by default"), "boneVisible", bone.visible), &QAction::toggled, this,
                [emitOp, name](bool on) { emitOp(EditOp::Kind::SetBoneVisible, name, on ? "1" : "0"); });
        QMenu* bb = menu->addMenu(tr("Billboard"));
        bb->setObjectName(QStringLiteral("boneBillboard"));
        for (int m = 0; m < int(std::size(kBillboardNames)); ++m) {
            QAction* a = bb->addAction(tr(kBillboardNames[m]));
            a->setObjectName(QStringLiteral("billboard%1").arg(m));
            a->setCheckable(true);
            a->setChecked(bone.billboard == m);
            connect(a, &QAction::triggered, this,
                    [emitOp, name, m] { emitOp(EditOp::Kind::SetBoneBillboard, name, QString::number(m)); });
        }
        return menu;
    }
    const int kind = item->data(0, kObjectRole).toInt();
    const size_t i = size_t(item->data(0, kIndexRole).toInt());
    const std::string name = item->data(0, kNameRole).toByteArray().toStdString();
    if (kind == kMesh && i < model_->meshes.size()) {
        const Mesh& m = model_->meshes[i];
        connect(check(tr("Hidden"), "meshHidden", m.hidden), &QAction::toggled, this,
                [emitOp, name](bool on) { emitOp(EditOp::Kind::SetMeshHidden, name, on ? "1" : "0"); });
        connect(check(tr("Collision"), "meshCollision", m.collisionEnabled), &QAction::toggled, this,
                [emitOp, name](bool on) { emitOp(EditOp::Kind::SetMeshCollision, name, on ? "1" : "0"); });
        // W3D: the mesh header's W3D_MESH_FLAG_TWO_SIDED (back faces drawn, not culled).
        if (model_->format == Format::W3d)
            connect(check(tr("Two-sided (back faces drawn)"), "meshTwoSided", m.twoSided), &QAction::toggled, this,
                    [emitOp, name](bool on) { emitOp(EditOp::Kind::SetMeshTwoSided, name, on ? "1" : "0"); });
    } else if (kind == kProxy && i < model_->proxies.size()) {
        const Proxy& p = model_->proxies[i];
        menu->addAction(tr("Target…"), this,
                        [this, emitOp, name] {
                            const QString to =
                                prompt(tr("Proxy target (particle system or model)"), rs::gameText(name));
                            if (!to.isNull() && to != rs::gameText(name))
                                emitOp(EditOp::Kind::SetProxyTarget, name, to);
                        })
            ->setObjectName(QStringLiteral("proxyTarget"));
        connect(check(tr("Hidden"), "proxyHidden", p.hidden), &QAction::toggled, this,
                [emitOp, name](bool on) { emitOp(EditOp::Kind::SetProxyHidden, name, on ? "1" : "0"); });
    } else if (kind == kLight && i < model_->lights.size()) {
        const Light& l = model_->lights[i];
        const QColor start = colourOf(l.color);
        const float intensity = l.intensity;
        menu->addAction(tr("Colour…"), this,
                        [emitOp, name, start, pickColour] {
                            const QString v = pickColour(start, tr("Light colour"));
                            if (!v.isEmpty()) emitOp(EditOp::Kind::SetLightColor, name, v);
                        })
            ->setObjectName(QStringLiteral("lightColour"));
        menu->addAction(tr("Intensity…"), this,
                        [this, emitOp, name, intensity] {
                            const QString v = prompt(tr("Light intensity"), numbers({intensity}));
                            if (!v.isNull()) emitOp(EditOp::Kind::SetLightIntensity, name, v);
                        })
            ->setObjectName(QStringLiteral("lightIntensity"));
    } else if (kind == kDazzle && i < model_->dazzles.size()) {
        const Dazzle& d = model_->dazzles[i];
        const QColor start = colourOf(d.color);
        const float rate = d.frequency;
        const std::string target = std::to_string(i); // dazzles by index: names repeat
        menu->addAction(tr("Colour…"), this,
                        [emitOp, target, start, pickColour] {
                            const QString v = pickColour(start, tr("Dazzle colour"));
                            if (!v.isEmpty()) emitOp(EditOp::Kind::SetDazzleColor, target, v);
                        })
            ->setObjectName(QStringLiteral("dazzleColour"));
        menu->addAction(tr("Blink rate…"), this,
                        [this, emitOp, target, rate] {
                            const QString v = prompt(tr("Dazzle blink rate (per second)"), numbers({rate}));
                            if (!v.isNull()) emitOp(EditOp::Kind::SetDazzleRate, target, v);
                        })
            ->setObjectName(QStringLiteral("dazzleRate"));
    } else {
        delete menu;
        return nullptr;
    }
    return menu;
}

void BoneTreeDock::setModel(std::shared_ptr<const Model> model) {
    model_ = std::move(model);
    clip_.reset();
    binding_ = {};
    selected_ = -1;
    position_ = 0.0f;
    QSignalBlocker block(tree_);
    tree_->clear();
    boneItems_.clear();
    proxyItems_.clear();
    attachmentTexts_.clear();
    if (!model_) {
        refreshDetails();
        return;
    }
    const auto& bones = model_->skeleton.bones;
    pose_.resize(bones.size());
    boneItems_.assign(bones.size(), nullptr);
    std::vector<QStringList> attached(bones.size());
    struct Attached {
        QString kind;
        std::string name;
        int object = 0; // ObjectKind (0: a marker, not editable)
        size_t index = 0;
    };
    std::vector<std::vector<Attached>> children(bones.size());
    auto attach = [&](int bone, const QString& kind, const std::string& name, int object, size_t index) {
        if (bone < 0 || size_t(bone) >= bones.size()) return;
        attached[size_t(bone)] << kind;
        children[size_t(bone)].push_back({kind, name, object, index});
    };
    for (size_t i = 0; i < model_->meshes.size(); ++i) {
        const Mesh& m = model_->meshes[i];
        QString kind = tr("mesh");
        if (m.lod >= 0) kind += QStringLiteral(" LOD%1").arg(m.lod);
        if (m.alt >= 0) kind += QStringLiteral(" ALT%1").arg(m.alt);
        attach(m.bone, kind, m.name, kMesh, i);
    }
    for (size_t i = 0; i < model_->lights.size(); ++i)
        attach(model_->lights[i].bone, tr("light"), model_->lights[i].name, kLight, i);
    std::vector<std::pair<int, size_t>> proxyAt; // (bone, index among its children) per proxy
    for (size_t i = 0; i < model_->proxies.size(); ++i) {
        const Proxy& p = model_->proxies[i];
        const bool ok = p.bone >= 0 && size_t(p.bone) < bones.size();
        proxyAt.emplace_back(ok ? p.bone : -1, ok ? children[size_t(p.bone)].size() : 0);
        attach(p.bone, tr("proxy"), p.name, kProxy, i);
    }
    for (size_t i = 0; i < model_->dazzles.size(); ++i)
        attach(model_->dazzles[i].bone, tr("dazzle"), model_->dazzles[i].name, kDazzle, i);
    for (const Marker& mk : model_->markers)
        attach(mk.bone, mk.kind.empty() ? tr("marker") : rs::gameText(mk.kind), mk.name, 0, 0);

    for (size_t b = 0; b < bones.size(); ++b) {
        const Bone& bone = bones[b];
        auto* item = new QTreeWidgetItem;
        item->setText(0, rs::gameText(bone.name));
        item->setData(0, kBoneRole, int(b));
        item->setData(0, kNameRole, QByteArray::fromStdString(bone.name));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable | Qt::ItemIsEditable);
        item->setCheckState(0, Qt::Checked);
        item->setToolTip(0, tr("bone %1%2").arg(b).arg(bone.visible ? QString() : tr(" (hidden in bind pose)")));
        if (!bone.visible) item->setForeground(0, QColor(140, 140, 140));
        QStringList summary;
        for (const QString& k : attached[b])
            if (!summary.contains(k)) summary << k;
        item->setText(1, summary.join(QStringLiteral(", ")));
        if (!summary.isEmpty()) item->setToolTip(1, item->text(1)); // the column may show it shortened
        for (const Attached& a : children[b]) {
            auto* c = new QTreeWidgetItem(item);
            const QString name = rs::gameText(a.name);
            c->setText(0, name);
            c->setText(1, a.kind);
            c->setToolTip(0, name);
            if (a.object) {
                c->setData(0, kObjectRole, a.object);
                c->setData(0, kIndexRole, int(a.index));
                c->setData(0, kNameRole, QByteArray::fromStdString(a.name));
            }
            c->setForeground(0, QColor(110, 150, 200));
            c->setFlags(c->flags() & ~Qt::ItemIsUserCheckable);
        }
        boneItems_[b] = item;
        const int parent = bone.parent;
        if (parent >= 0 && size_t(parent) < b && boneItems_[size_t(parent)])
            boneItems_[size_t(parent)]->addChild(item);
        else
            tree_->addTopLevelItem(item);
    }
    proxyItems_.assign(proxyAt.size(), nullptr);
    for (size_t i = 0; i < proxyAt.size(); ++i) {
        const auto [bone, child] = proxyAt[i];
        QTreeWidgetItem* b = bone >= 0 ? boneItems_[size_t(bone)] : nullptr;
        // Children of a bone item: its attachments first (in attach order), then child bones.
        if (b && int(child) < b->childCount()) proxyItems_[i] = b->child(int(child));
    }
    tree_->expandToDepth(bones.size() > 60 ? 1 : 8);
    fitColumns();
    setFrame(0.0f, LoopMode::Loop);
    refreshDetails();
}

void BoneTreeDock::setClip(std::shared_ptr<const Clip> clip) {
    clip_ = std::move(clip);
    binding_ = (clip_ && model_) ? bindClip(model_->skeleton, *clip_) : ClipBinding{};
    setFrame(0.0f, mode_);
}

void BoneTreeDock::setFrame(float position, LoopMode mode) {
    position_ = position;
    mode_ = mode;
    if (!model_) return;
    // Only evaluated when someone looks at the values.
    if (selected_ >= 0 && isVisible()) refreshDetails();
}

void BoneTreeDock::setProxyParticles(const std::vector<ProxyParticles>& systems) {
    QSignalBlocker block(tree_);
    for (const ProxyParticles& p : systems) {
        QTreeWidgetItem* item = itemForProxy(p.proxy);
        if (!item) continue;
        if (p.emitters > 0) {
            item->setText(1, tr("proxy: particles %1 (%n emitter(s))", nullptr, p.emitters)
                                 .arg(QFileInfo(p.file.section(QLatin1Char(':'), -1)).fileName()));
            item->setToolTip(1, QDir::toNativeSeparators(p.file));
            item->setForeground(1, QColor(120, 200, 120));
        } else {
            item->setText(1, p.error.isEmpty() ? tr("proxy: particle system not found")
                                               : tr("proxy: particle system unreadable"));
            item->setToolTip(1, p.error.isEmpty() ? tr("Not found beside the model, in the texture folders or the "
                                                       "mounted game folders")
                                                  : p.error);
            item->setForeground(1, QColor(220, 120, 90));
        }
    }
}

void BoneTreeDock::setObjectAttachments(const std::vector<std::pair<int, QString>>& boneLabels) {
    QSignalBlocker block(tree_);
    for (const auto& [bone, label] : boneLabels) {
        QTreeWidgetItem* b = itemForBone(bone);
        if (!b) continue;
        const QString text = QStringLiteral("\u2190 ") + label;
        attachmentTexts_ << text;
        b->setText(1, b->text(1).isEmpty() ? text : text + QStringLiteral(", ") + b->text(1));
        b->setToolTip(1, tr("The game object attaches %1 at this bone\n%2").arg(label, b->text(1)));
        auto* c = new QTreeWidgetItem;
        c->setText(0, text);
        c->setText(1, tr("object attachment"));
        c->setForeground(0, QColor(220, 180, 90));
        c->setFlags(c->flags() & ~Qt::ItemIsUserCheckable);
        b->insertChild(0, c);
        b->setExpanded(true);
    }
}

void BoneTreeDock::fitColumns() {
    // The Bone column as wide as its widest shown name (indentation and check box included), but at most 3/5 of the
    // panel (or as the user sized it): the Attached column has the rest, eliding what does not fit (its tooltip
    // has all).
    const int view = tree_->viewport()->width();
    if (view <= 0) return;
    fitting_ = true;
    if (userSized_) {
        tree_->setColumnWidth(1, std::max(view - tree_->columnWidth(0), 30));
        fitting_ = false;
        return;
    }
    // (QTreeView::sizeHintForColumn is protected; the base class's is public and virtual.)
    const int want =
        std::max(static_cast<QAbstractItemView*>(tree_)->sizeHintForColumn(0), tree_->header()->sectionSizeHint(0));
    tree_->setColumnWidth(0, std::clamp(want, std::min(80, view / 2), view * 3 / 5));
    tree_->setColumnWidth(1, std::max(view - tree_->columnWidth(0), 30));
    fitting_ = false;
}

bool BoneTreeDock::eventFilter(QObject* watched, QEvent* e) {
    if (watched == tree_->viewport() && e->type() == QEvent::Resize) fitColumns();
    if (watched == tree_ && e->type() == QEvent::KeyPress && static_cast<QKeyEvent*>(e)->key() == Qt::Key_F2) {
        QTreeWidgetItem* item = tree_->currentItem();
        if (item && item->data(0, kBoneRole).isValid()) {
            tree_->editItem(item, 0);
            return true;
        }
    }
    return QDockWidget::eventFilter(watched, e);
}

QTreeWidgetItem* BoneTreeDock::itemForProxy(int proxy) const {
    return proxy >= 0 && size_t(proxy) < proxyItems_.size() ? proxyItems_[size_t(proxy)] : nullptr;
}

QTreeWidgetItem* BoneTreeDock::itemForBone(int bone) const {
    return bone >= 0 && size_t(bone) < boneItems_.size() ? boneItems_[size_t(bone)] : nullptr;
}

void BoneTreeDock::selectBone(int bone) {
    QTreeWidgetItem* item = itemForBone(bone);
    if (item) {
        tree_->setCurrentItem(item);
        tree_->scrollToItem(item);
    } else {
        tree_->setCurrentItem(nullptr);
    }
}

QString BoneTreeDock::detailsText() const { return details_->toPlainText(); }

void BoneTreeDock::refreshDetails() {
    if (!model_ || selected_ < 0 || size_t(selected_) >= model_->skeleton.bones.size()) {
        details_->setPlainText(model_ ? tr("Select a bone to see its transforms.") : QString());
        return;
    }
    const Clip* c = clip_.get();
    evaluatePose(model_->skeleton, c, c ? &binding_ : nullptr, position_, mode_, pose_.view());
    const size_t b = size_t(selected_);
    const Bone& bone = model_->skeleton.bones[b];
    QString s = QStringLiteral("%1  (index %2, parent %3%4)\n")
                    .arg(rs::gameText(bone.name))
                    .arg(b)
                    .arg(bone.parent)
                    .arg(bone.billboard ? QStringLiteral(", billboard %1").arg(bone.billboard) : QString());
    s += QStringLiteral("visible: %1\n").arg(pose_.visible[b] ? tr("yes") : tr("no"));
    s += transformText("local (current frame)", pose_.local[b]);
    s += transformText("world (current frame)", pose_.world[b]);
    s += transformText("bind local", bone.bindLocal);
    if (c && b < binding_.trackForBone.size() && binding_.trackForBone[b] >= 0 &&
        size_t(binding_.trackForBone[b]) < c->tracks.size()) {
        const BoneTrack& t = c->tracks[size_t(binding_.trackForBone[b])];
        const float f = wrapFrame(position_, c->frameCount, mode_);
        const size_t fi = size_t(std::floor(f));
        auto at = [fi](const auto& v) { return v.size() == 1 ? v[0] : v[std::min(fi, v.size() - 1)]; };
        s += QStringLiteral("animated at frame %1 (%2):\n")
                 .arg(double(f), 0, 'f', 2)
                 .arg(t.mode == TrackMode::Replace ? QStringLiteral("replace") : QStringLiteral("additive"));
        s += QStringLiteral("  T %1\n")
                 .arg(t.hasTranslation() ? vec3Text(at(t.translation))
                                         : tr("constant ") + vec3Text(t.defaultTranslation));
        s += QStringLiteral("  R %1\n")
                 .arg(t.hasRotation() ? quatText(at(t.rotation)) : tr("constant ") + quatText(t.defaultRotation));
        s += QStringLiteral("  S %1\n")
                 .arg(t.hasScale() ? vec3Text(at(t.scale)) : tr("constant ") + vec3Text(t.defaultScale));
        if (!t.visibility.empty()) s += QStringLiteral("  visibility %1\n").arg(int(at(t.visibility)));
        if (!t.step.empty()) s += QStringLiteral("  step key %1\n").arg(int(at(t.step)));
    } else if (c) {
        s += tr("not animated by this clip\n");
    }
    details_->setPlainText(s);
}

} // namespace rs::ui
