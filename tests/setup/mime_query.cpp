// mime_query FILE...: prints "FILE<TAB>mime/type" as the shared-mime-info database in $XDG_DATA_DIRS says
// (QMimeDatabase reads the same mime.cache/XML that file managers use). Used by install_test.sh.
#include <QCoreApplication>
#include <QMimeDatabase>

#include <cstdio>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QMimeDatabase db;
    for (int i = 1; i < argc; ++i) {
        const QString path = QString::fromLocal8Bit(argv[i]);
        std::printf("%s\t%s\n", argv[i], qPrintable(db.mimeTypeForFile(path).name()));
    }
    return 0;
}
