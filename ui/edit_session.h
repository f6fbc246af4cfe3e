// The edits of the open document and their safe save (docs/ARCHITECTURE.md, "Read, edit, write"; README,
// "Editing and saving"). Every file an edit touches is held as its source tree (the model file, and for edits
// carried into other files, those files too); an edit changes the trees, and the undo stack keeps each step as
// the trees before and after it, so that undo and redo give back exactly the bytes of that step. The window
// re-reads a changed document from its tree's bytes to show it.
//
// Save writes through writeFileSafely (temporary file in the destination's folder, flushed, read back, checked by
// the format's reader through the resolver, renamed): a file on disk over itself, unless it changed on disk since it
// was read (size and modification time); a file opened from inside a .meg/.big never into its archive, but as a
// loose file at its game path in the first mounted mod folder. The first save of a file in the session keeps a copy
// of what was there as NAME.bak beside it (setKeepBackups(false) turns that off). A failure leaves every file as it
// was and the edits unsaved.
#pragma once

#include "common/source_tree.h"
#include "resolve/resolver.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

class QUndoStack;

namespace rs::ui {

// A file's size and modification time when it was read; a file whose stamp differs at save time was changed by
// someone else meanwhile.
struct FileStamp {
    qint64 size = -1; // -1: no file (an archive entry, a new file)
    qint64 mtimeNs = 0;
    bool operator==(const FileStamp& o) const { return size == o.size && mtimeNs == o.mtimeNs; }
    bool operator!=(const FileStamp& o) const { return !(*this == o); }
};
// The stamp of a file on disk (size -1 when there is none).
FileStamp stampOf(const QString& diskPath);
// The file on disk holding `path` as `resolver` opens it: the file itself, or the archive holding the entry ("" when
// none).
QString diskFileHolding(const Resolver& resolver, const QString& path);

class EditSession : public QObject {
    Q_OBJECT
  public:
    explicit EditSession(QObject* parent = nullptr);
    ~EditSession() override;

    // Where files are read, checked and saved to (the window's resolver: its mounted mod folders).
    void setResolver(std::shared_ptr<const Resolver> resolver);
    // A new document: `path` as the window opened it (a file, "<archive>:<entry>", a game path), and the stamp of
    // the file on disk holding it when it was read (the archive's for an entry). Forgets every tree and the history;
    // what was saved this session (for the .bak rule) is kept. Empty path: nothing is editable.
    void reset(const QString& path, FileStamp stampAtRead);
    QString documentPath() const { return document_; }
    QUndoStack* undoStack() const { return stack_; }

    // One file's part of an edit: changes `tree` (of `format`) and returns what it changed (empty: nothing).
    using TreeEdit = std::function<std::vector<TextEdit>(Format format, SourceTree& tree)>;
    struct FileEdit {
        QString file; // a path the resolver opens; the document's own path for the document
        TreeEdit edit;
    };
    // Applies the edits as one undoable step named `text`. A file's tree is read on its first edit (the document
    // only while its stamp still holds: what is shown is what is edited). False when nothing changed or a file
    // could not be read or edited (*error says why; no file is changed then).
    bool apply(const QString& text, const std::vector<FileEdit>& edits, QString* error = nullptr);
    // The changes the last successful apply() made, file by file.
    const std::vector<std::pair<QString, std::vector<TextEdit>>>& lastChanges() const { return lastChanges_; }

    // Files with a tree (edited at some point of this document's history), the document first.
    QStringList files() const;
    // The file's bytes as edited now (its tree written); empty when it has no tree.
    std::vector<uint8_t> bytes(const QString& file) const;
    bool isModified(const QString& file) const;
    bool isModified() const { return !modifiedFiles().isEmpty(); }
    QStringList modifiedFiles() const;

    // Where save() writes `file` by default: the file on disk itself, or for an archive entry its game path under
    // the first mounted mod folder. Empty (and *why) when there is none.
    QString saveTarget(const QString& file, QString* why = nullptr) const;
    struct SaveResult {
        bool ok = false;
        QString dest;    // where it was (or would have been) written
        QString backup;  // the NAME.bak kept by this save ("" when none)
        QString message; // what happened, for the status bar or an error box
    };
    // Writes `file` to `dest` (empty: saveTarget). After a save to another place (Save As, an archive entry's
    // loose copy) the file is that place from then on: later saves go there and check its stamp.
    SaveResult save(const QString& file, const QString& dest = QString());

    // Whether the first save of a file in this session keeps NAME.bak (the Preferences setting; on by default).
    void setKeepBackups(bool on) { keepBackups_ = on; }
    bool keepBackups() const { return keepBackups_; }

    // Answers the question before files other than the document are saved (confirmSavingOthers, edit_panels.h)
    // instead of a dialog (tests): true to save them.
    using OthersPrompt = std::function<bool(const QStringList& others)>;
    void setOthersPrompt(OthersPrompt p) { othersPrompt_ = std::move(p); }
    const OthersPrompt& othersPrompt() const { return othersPrompt_; }

  signals:
    // After an edit, an undo or a redo: these files' bytes changed (re-read what shows them).
    void filesChanged(const QStringList& files);
    // A file became modified or unmodified (an edit, undo/redo, a save), or the document was renamed by Save As.
    void modifiedChanged();

  private:
    struct File {
        QString path;                    // as opened, or where Save As wrote it
        Format format = Format::Unknown; // Unknown for an object definition (text)
        bool text = false;               // an object definition (XML/INI): one tree node per line
        SourceTree tree;
        quint64 revision = 0;      // the tree's step (each apply gives its trees a new one)
        quint64 savedRevision = 0; // the revision on disk at `path`
        FileStamp stamp;           // of the file on disk it was read from (or last saved to)
        QString diskPath;          // that file ("" for an archive entry not saved yet)
    };
    class Step;
    File* find(const QString& path);
    const File* find(const QString& path) const;
    // The file's entry, reading its tree when it has none (throws ParseError).
    File& load(const QString& path);
    void setTree(const QString& path, const SourceTree& tree, quint64 revision); // undo/redo
    QString firstModFolder() const;

    std::shared_ptr<const Resolver> resolver_;
    QUndoStack* stack_;
    QString document_;
    FileStamp documentStamp_;
    std::vector<std::unique_ptr<File>> files_;
    QSet<QString> backedUp_; // destinations whose .bak this session made (or whose first save it was)
    bool keepBackups_ = true;
    OthersPrompt othersPrompt_;
    quint64 nextRevision_ = 1;
    std::vector<std::pair<QString, std::vector<TextEdit>>> lastChanges_;
};

} // namespace rs::ui
