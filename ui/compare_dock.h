// The Differences panel of File → Compare with…: the summary rigscope-cli diff prints (core/compare/compare.h),
// grouped by section, with the clip pairs compared and the notes on matching.
#pragma once

#include "compare/compare.h"

#include <QDockWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace rs::ui {

class DifferencesDock : public QDockWidget {
    Q_OBJECT
  public:
    explicit DifferencesDock(QWidget* parent = nullptr);

    // Shows `summary` of A (labelA) against B (labelB); an empty summary with empty labels clears the panel.
    void setSummary(const compare::Summary& summary, const QString& labelA, const QString& labelB);
    // What the views show (file and clip of each), above the list.
    void setCaptions(const QString& labelA, const QString& labelB);
    const compare::Summary& summary() const { return summary_; }
    QTreeWidget* tree() const { return tree_; }
    QLabel* header() const { return header_; }
    // The rows listing differences, in order (section headers, clip pairs and notes left out).
    QList<QTreeWidgetItem*> differenceItems() const;
    // The difference a row shows (null for other rows).
    const compare::Difference* differenceOf(const QTreeWidgetItem* item) const;

  signals:
    // A row was chosen (clicked, or made current with the keyboard).
    void differenceChosen(const rs::compare::Difference& difference);

  private:
    QLabel* header_;
    QTreeWidget* tree_;
    compare::Summary summary_;
};

} // namespace rs::ui
