// Issue 12 ("the first ten minutes in the viewer") tests, run by ui_tests' main.
#pragma once

// Runs the FirstUseTest class with QTest's arguments; returns QTest::qExec's result.
int runFirstUseTests(int argc, char** argv);
