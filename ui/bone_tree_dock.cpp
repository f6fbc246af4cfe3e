#include "bone_tree_dock.h"

#include "game_text.h"

#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
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
        emit boneHiddenChanged(item->data(0, kBoneRole).toInt(), item->checkState(0) == Qt::Unchecked);
    });
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
    std::vector<std::vector<std::pair<QString, QString>>> children(bones.size());
    auto attach = [&](int bone, const QString& kind, const std::string& name) {
        if (bone < 0 || size_t(bone) >= bones.size()) return;
        attached[size_t(bone)] << kind;
        children[size_t(bone)].emplace_back(kind, rs::gameText(name));
    };
    for (const Mesh& m : model_->meshes) {
        QString kind = tr("mesh");
        if (m.lod >= 0) kind += QStringLiteral(" LOD%1").arg(m.lod);
        if (m.alt >= 0) kind += QStringLiteral(" ALT%1").arg(m.alt);
        attach(m.bone, kind, m.name);
    }
    for (const Light& l : model_->lights)
        attach(l.bone, tr("light"), l.name);
    std::vector<std::pair<int, size_t>> proxyAt; // (bone, index among its children) per proxy
    for (const Proxy& p : model_->proxies) {
        const bool ok = p.bone >= 0 && size_t(p.bone) < bones.size();
        proxyAt.emplace_back(ok ? p.bone : -1, ok ? children[size_t(p.bone)].size() : 0);
        attach(p.bone, tr("proxy"), p.name);
    }
    for (const Dazzle& d : model_->dazzles)
        attach(d.bone, tr("dazzle"), d.name);
    for (const Marker& mk : model_->markers)
        attach(mk.bone, mk.kind.empty() ? tr("marker") : rs::gameText(mk.kind), mk.name);

    for (size_t b = 0; b < bones.size(); ++b) {
        const Bone& bone = bones[b];
        auto* item = new QTreeWidgetItem;
        item->setText(0, rs::gameText(bone.name));
        item->setData(0, kBoneRole, int(b));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(0, Qt::Checked);
        item->setToolTip(0, tr("bone %1%2").arg(b).arg(bone.visible ? QString() : tr(" (hidden in bind pose)")));
        if (!bone.visible) item->setForeground(0, QColor(140, 140, 140));
        QStringList summary;
        for (const QString& k : attached[b])
            if (!summary.contains(k)) summary << k;
        item->setText(1, summary.join(QStringLiteral(", ")));
        if (!summary.isEmpty()) item->setToolTip(1, item->text(1)); // the column may show it shortened
        for (const auto& [kind, name] : children[b]) {
            auto* c = new QTreeWidgetItem(item);
            c->setText(0, name);
            c->setText(1, kind);
            c->setToolTip(0, name);
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
