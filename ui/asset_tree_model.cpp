#include "asset_tree_model.h"

#include "formats/formats.h"
#include "vfs/mount.h"

#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace rs::ui {

namespace {

std::string extOf(const std::string& key) {
    const size_t dot = key.rfind('.'), slash = key.rfind('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    return key.substr(dot);
}

// Which formats of the registry a set of extensions is made from.
enum class Kinds {
    Listed, // every kind the viewer opens or draws a picture of: each format with a reader (models, clips, particle
            // systems, B&W2 libraries, AMAL banks and AMOS sources) and textures
    Opened, // what a double-click opens wherever it is stored: the formats with a reader but AMAL banks
    Disk,   // what a double-click opens only from a file on disk: AMAL banks (the 2D stage reads the file itself)
};

// The extensions (upper case, as the mount table's keys) of those formats.
std::vector<std::string> registryExtensions(Kinds kinds) {
    std::vector<std::string> out;
    for (const FormatInfo& f : formats()) {
        const bool take = kinds == Kinds::Listed   ? f.read != nullptr || f.id == Format::Texture
                          : kinds == Kinds::Opened ? f.read != nullptr && f.id != Format::Amal
                                                   : f.id == Format::Amal;
        if (!take) continue;
        for (const char* e : f.extensions) {
            std::string up(e);
            for (char& c : up)
                c = char(std::toupper(static_cast<unsigned char>(c)));
            if (std::find(out.begin(), out.end(), up) == out.end()) out.push_back(up);
        }
    }
    return out;
}

bool hasExtension(const std::vector<std::string>& exts, const std::string& key) {
    const std::string ext = extOf(key);
    return !ext.empty() && std::find(exts.begin(), exts.end(), ext) != exts.end();
}

bool isAsset(const std::string& key) {
    static const std::vector<std::string> exts = registryExtensions(Kinds::Listed);
    return hasExtension(exts, key);
}

// key: the upper-case name; path: where it is read from (a file on disk or "<archive>:<entry>").
bool opensInViewer(const std::string& key, const QString& path) {
    static const std::vector<std::string> opened = registryExtensions(Kinds::Opened);
    static const std::vector<std::string> disk = registryExtensions(Kinds::Disk);
    if (hasExtension(opened, key)) return true;
    return hasExtension(disk, key) && QFileInfo(path).isFile();
}

// The stored name's last component (original case; either separator).
QString fileNameOf(const std::string& stored) {
    const size_t cut = stored.find_last_of("/\\");
    return QString::fromStdString(cut == std::string::npos ? stored : stored.substr(cut + 1));
}

} // namespace

AssetTreeModel::AssetTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void AssetTreeModel::setTable(std::shared_ptr<const vfs::MountTable> table) {
    beginResetModel();
    table_ = std::move(table);
    files_.clear();
    nodes_.clear();
    top_.clear();
    folders_.clear();
    keys_.clear();
    std::vector<std::pair<const std::string*, const std::vector<vfs::Hit>*>> found;
    if (table_)
        table_->forEach([&](const std::string& key, const std::vector<vfs::Hit>& hits) {
            if (isAsset(key)) found.emplace_back(&key, &hits);
        });
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return *a.first < *b.first; });
    size_t bytes = 0;
    for (const auto& f : found)
        bytes += f.first->size();
    keys_.reserve(bytes);
    files_.reserve(found.size());
    for (const auto& [key, hits] : found) {
        const size_t slash = key->rfind('/');
        files_.push_back({uint32_t(keys_.size()), uint32_t(key->size()),
                          slash == std::string::npos ? 0u : uint32_t(slash + 1), 0, hits});
        keys_ += *key;
    }
    // Folder nodes by path prefix ("DATA/ART/"), created parent first.
    std::unordered_map<std::string, uint32_t> folders;
    folders.reserve(files_.size() / 8 + 16);
    auto folderFor = [&](std::string_view key) -> int32_t {
        // The folder node of key (ending in '/'), creating it and its parents.
        int32_t parent = -1;
        size_t start = 0;
        while (start < key.size()) {
            const size_t slash = key.find('/', start);
            const std::string prefix(key.substr(0, slash + 1));
            auto it = folders.find(prefix);
            if (it == folders.end()) {
                Node n;
                n.parent = parent;
                n.folderName = std::string(key.substr(start, slash - start));
                nodes_.push_back(std::move(n));
                const auto id = uint32_t(nodes_.size() - 1);
                folders_.push_back(id);
                (parent < 0 ? top_ : nodes_[size_t(parent)].children).push_back(id);
                it = folders.emplace(prefix, id).first;
            }
            parent = int32_t(it->second);
            start = slash + 1;
        }
        return parent;
    };
    nodes_.reserve(files_.size() + files_.size() / 4 + 16);
    std::string_view lastFolder; // keys are sorted: most files share the previous file's folder
    int32_t lastParent = -1;
    for (size_t i = 0; i < files_.size(); ++i) {
        const std::string_view folder = keyOf(files_[i]).substr(0, files_[i].nameStart);
        int32_t parent = -1;
        if (!folder.empty()) {
            if (folder != lastFolder) {
                lastParent = folderFor(folder);
                lastFolder = folder;
            }
            parent = lastParent;
        }
        Node n;
        n.parent = parent;
        n.file = int32_t(i);
        nodes_.push_back(std::move(n));
        const auto id = uint32_t(nodes_.size() - 1);
        files_[i].node = id;
        (parent < 0 ? top_ : nodes_[size_t(parent)].children).push_back(id);
    }
    visible_.assign(nodes_.size(), 0);
    // Folders before files; within each, by name (files arrive sorted by key, folders by first appearance).
    auto byKind = [&](std::vector<uint32_t>& v) {
        std::stable_sort(v.begin(), v.end(), [&](uint32_t a, uint32_t b) {
            const Node &x = nodes_[a], &y = nodes_[b];
            if ((x.file < 0) != (y.file < 0)) return x.file < 0;
            if (x.file < 0) return x.folderName < y.folderName;
            return x.file < y.file;
        });
    };
    byKind(top_);
    for (uint32_t f : folders_)
        byKind(nodes_[f].children);
    applyFilter(false);
    endResetModel();
}

void AssetTreeModel::setFilter(const QString& text) {
    const std::string f = vfs::normalizePath(text.trimmed().toStdString());
    if (f == filter_) return;
    // Typing on: a substring that contains the previous one can only match names that matched before.
    const bool narrowing = !filter_.empty() && filter_.find_first_of("*?") == std::string::npos &&
                           f.find_first_of("*?") == std::string::npos && f.find(filter_) != std::string::npos;
    beginResetModel();
    filter_ = f;
    applyFilter(narrowing);
    endResetModel();
}

void AssetTreeModel::applyFilter(bool narrowing) {
    const bool glob = filter_.find_first_of("*?") != std::string::npos;
    std::vector<uint32_t> candidates;
    if (narrowing) candidates.swap(visibleFiles_);
    visibleFiles_.clear();
    std::fill(visible_.begin(), visible_.end(), uint8_t(0));
    const std::string_view pattern(filter_);
    const size_t count = narrowing ? candidates.size() : files_.size();
    for (size_t c = 0; c < count; ++c) {
        const size_t i = narrowing ? candidates[c] : c;
        const std::string_view k = keyOf(files_[i]);
        bool keep = pattern.empty();
        if (!keep && !glob) keep = k.find(pattern) != std::string_view::npos;
        if (!keep && glob) keep = vfs::globMatch(pattern, k.substr(files_[i].nameStart)) || vfs::globMatch(pattern, k);
        if (!keep) continue;
        visibleFiles_.push_back(uint32_t(i));
        // Mark the file and its folders (stop at the first folder already marked).
        for (int32_t n = int32_t(files_[i].node); n >= 0 && !visible_[size_t(n)]; n = nodes_[size_t(n)].parent)
            visible_[size_t(n)] = 1;
    }
    auto rebuild = [&](const std::vector<uint32_t>& all, std::vector<uint32_t>& shown) {
        shown.clear();
        for (uint32_t c : all)
            if (visible_[c]) {
                nodes_[c].row = int32_t(shown.size());
                shown.push_back(c);
            }
    };
    rebuild(top_, topShown_);
    for (uint32_t f : folders_)
        if (visible_[f] || !nodes_[f].shown.empty()) rebuild(nodes_[f].children, nodes_[f].shown);
}

QString AssetTreeModel::visiblePath(size_t i) const {
    if (i >= visibleFiles_.size()) return {};
    return QString::fromStdString(table_->describe(files_[visibleFiles_[i]].hits->front()));
}

QString AssetTreeModel::visibleName(size_t i) const {
    if (i >= visibleFiles_.size()) return {};
    return fileNameOf(table_->entry(files_[visibleFiles_[i]].hits->front()).name);
}

std::string AssetTreeModel::folderPrefix(const QModelIndex& index) const {
    if (!index.isValid()) return {};
    const Node& n = nodes_[size_t(index.internalId())];
    if (n.file >= 0) return std::string(keyOf(files_[size_t(n.file)]).substr(0, files_[size_t(n.file)].nameStart));
    std::string prefix;
    for (int32_t c = int32_t(index.internalId()); c >= 0; c = nodes_[size_t(c)].parent)
        prefix = nodes_[size_t(c)].folderName + "/" + prefix;
    return prefix;
}

std::pair<size_t, size_t> AssetTreeModel::visibleRangeWithPrefix(const std::string& prefix) const {
    const auto lo = std::lower_bound(visibleFiles_.begin(), visibleFiles_.end(), prefix,
                                     [&](uint32_t f, const std::string& p) { return keyOf(files_[f]) < p; });
    auto hi = lo;
    if (!prefix.empty())
        hi = std::partition_point(lo, visibleFiles_.end(),
                                  [&](uint32_t f) { return keyOf(files_[f]).substr(0, prefix.size()) == prefix; });
    else
        hi = visibleFiles_.end();
    return {size_t(lo - visibleFiles_.begin()), size_t(hi - visibleFiles_.begin())};
}

QModelIndex AssetTreeModel::visibleIndex(size_t i) const {
    if (i >= visibleFiles_.size()) return {};
    return indexOfNode(files_[visibleFiles_[i]].node, 0);
}

QModelIndex AssetTreeModel::indexOfNode(uint32_t node, int column) const {
    return createIndex(nodes_[node].row, column, quintptr(node));
}

const std::vector<uint32_t>& AssetTreeModel::shownOf(const QModelIndex& parent) const {
    if (!parent.isValid()) return topShown_;
    return nodes_[size_t(parent.internalId())].shown;
}

bool AssetTreeModel::isOpenable(const QModelIndex& index) const {
    if (!index.isValid()) return false;
    const Node& n = nodes_[size_t(index.internalId())];
    return n.file >= 0 && opensInViewer(std::string(keyOf(files_[size_t(n.file)])), pathOf(index));
}

bool AssetTreeModel::isOpenablePath(const QString& path) { return opensInViewer(path.toUpper().toStdString(), path); }

QString AssetTreeModel::pathOf(const QModelIndex& index) const {
    if (!index.isValid()) return {};
    const Node& n = nodes_[size_t(index.internalId())];
    if (n.file < 0) return {};
    return QString::fromStdString(table_->describe(files_[size_t(n.file)].hits->front()));
}

QModelIndex AssetTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= ColumnCount || row < 0) return {};
    if (parent.isValid() && parent.column() != 0) return {};
    const std::vector<uint32_t>& shown = shownOf(parent);
    if (size_t(row) >= shown.size()) return {};
    return createIndex(row, column, quintptr(shown[size_t(row)]));
}

QModelIndex AssetTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    const int32_t p = nodes_[size_t(child.internalId())].parent;
    return p < 0 ? QModelIndex() : indexOfNode(uint32_t(p), 0);
}

int AssetTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && (parent.column() != 0 || nodes_[size_t(parent.internalId())].file >= 0)) return 0;
    return int(shownOf(parent).size());
}

int AssetTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant AssetTreeModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Name", "Size", "Source", "Overrides"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

QVariant AssetTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) return {};
    const Node& n = nodes_[size_t(index.internalId())];
    if (n.file < 0) {
        if (index.column() == NameColumn) return QString::fromStdString(n.folderName);
        if (index.column() == SizeColumn && role == Qt::DisplayRole) return tr("%1 items").arg(n.shown.size());
        return {};
    }
    const File& f = files_[size_t(n.file)];
    const vfs::Hit& h = f.hits->front();
    const vfs::Entry& e = table_->entry(h);
    switch (index.column()) {
    case NameColumn:
        return role == Qt::ToolTipRole ? QString::fromStdString(table_->describe(h)) : fileNameOf(e.name);
    case SizeColumn:
        return QVariant::fromValue<qulonglong>(e.size);
    case SourceColumn:
        return QString::fromStdString(table_->mountOf(h).role + ": " + table_->mountOf(h).source->label());
    default: {
        QStringList over;
        for (size_t i = 1; i < f.hits->size(); ++i)
            over << QString::fromStdString(table_->mountOf((*f.hits)[i]).role + ": " + table_->describe((*f.hits)[i]));
        return over.join(QStringLiteral("; "));
    }
    }
}

} // namespace rs::ui
