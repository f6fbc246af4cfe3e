// The asset browser's model: every model, clip and texture name of a mount table as a tree by folder, with the
// source that provides it and the sources it overrides (columns Name, Size, Source, Overrides).
//
// Built once per table over a flat vector of names (the mount table's normalised keys, which are the precomputed
// case-folded paths the filter compares against) and a vector of folder and file nodes. Filtering creates no item
// objects: it marks the matching names (one pass over the keys), marks their folders, rebuilds the per-folder
// lists of visible children and resets the model; views then ask only for the rows they show.
//
// Filter text: a substring of the game path (any case, either separator), or, with '*' or '?', a glob over the
// whole path or the file name alone (vfs::globMatch).
#pragma once

#include "vfs/mount.h"

#include <QAbstractItemModel>
#include <QString>

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rs::ui {

class AssetTreeModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    enum Column { NameColumn, SizeColumn, SourceColumn, OverridesColumn, ColumnCount };

    explicit AssetTreeModel(QObject* parent = nullptr);

    // Lists the table's assets: every kind of the format registry the viewer opens or draws a picture of (.alo .ala
    // .w3d .bwm .al .abk .amos .dds .tga); keeps the table alive.
    void setTable(std::shared_ptr<const vfs::MountTable> table);
    void setFilter(const QString& text);

    size_t total() const { return files_.size(); }               // assets listed
    size_t visibleFiles() const { return visibleFiles_.size(); } // assets passing the filter
    // The loadable path ("<archive>:<entry>" or a file on disk) of the i-th visible asset in path order.
    QString visiblePath(size_t i) const;
    QModelIndex visibleIndex(size_t i) const; // its index in the tree (column 0)
    QString visibleName(size_t i) const;      // its file name as stored (original case)
    // The folder a tree index stands for as a key prefix ("DATA/ART/MODELS/"; a file: its folder; invalid: "").
    std::string folderPrefix(const QModelIndex& index) const;
    // The visible assets whose key starts with `prefix`: [first, last) in visible order (keys sort by folder).
    std::pair<size_t, size_t> visibleRangeWithPrefix(const std::string& prefix) const;
    // What a double-click opens in the viewer: a model or clip, an AMAL bank stored as a file on disk (its 2D stage
    // reads the file itself, not an archive entry); not a folder or texture.
    bool isOpenable(const QModelIndex& index) const;
    // The same for a loadable path (by its extension, any case): what a double-click in the grid opens.
    static bool isOpenablePath(const QString& path);
    QString pathOf(const QModelIndex& index) const;  // "" for folders

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  private:
    struct File {
        uint32_t keyOffset, keyLength; // the table's key (upper-case game path) in keys_
        uint32_t nameStart;            // the file name's offset in the key
        uint32_t node;
        const std::vector<vfs::Hit>* hits; // winner first
    };
    std::string_view keyOf(const File& f) const { return std::string_view(keys_).substr(f.keyOffset, f.keyLength); }
    struct Node {
        int32_t parent = -1;    // node index; -1 for top-level nodes
        int32_t file = -1;      // index in files_ for a file, -1 for a folder
        int32_t row = 0;        // row among the parent's visible children
        uint32_t nameStart = 0; // the name is key.substr(nameStart) (files) or folderName
        std::string folderName;
        std::vector<uint32_t> children; // folders first, then files; each by name
        std::vector<uint32_t> shown;    // children passing the filter
    };
    QModelIndex indexOfNode(uint32_t node, int column) const;
    const std::vector<uint32_t>& shownOf(const QModelIndex& parent) const;
    // narrowing: only the names visible now can match (visibleFiles_ is the candidate list).
    void applyFilter(bool narrowing);

    std::shared_ptr<const vfs::MountTable> table_;
    std::string keys_;              // every listed key, back to back (scanned by the filter)
    std::vector<File> files_;       // sorted by key
    std::vector<uint8_t> visible_;  // per node
    std::vector<uint32_t> folders_; // folder nodes
    std::vector<Node> nodes_;
    std::vector<uint32_t> top_, topShown_;
    std::vector<uint32_t> visibleFiles_; // indices into files_, in key order
    std::string filter_;
};

} // namespace rs::ui
