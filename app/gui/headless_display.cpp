#include "headless_display.h"

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rs::app {

namespace {

pid_t serverPid = 0;
std::string serverDisplay;
QtMessageHandler previousHandler = nullptr;
std::atomic<bool> ending{false};

bool isSet(const char* name) { return !qEnvironmentVariableIsEmpty(name); }

// The first platform of QT_QPA_PLATFORM ("xcb", "offscreen", ...; Qt accepts "a;b" lists and "name:options").
std::string requestedPlatform() {
    std::string p = qEnvironmentVariable("QT_QPA_PLATFORM").toStdString();
    p = p.substr(0, p.find_first_of(";:"));
    for (char& c : p)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return p;
}

// The last non-empty line Xvfb wrote to log (a file descriptor positioned anywhere), at most 200 characters.
std::string lastLine(int log) {
    std::string text;
    char buf[4096];
    ::lseek(log, 0, SEEK_SET);
    for (ssize_t n; (n = ::read(log, buf, sizeof buf)) > 0 && text.size() < (1u << 20);)
        text.append(buf, size_t(n));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.pop_back();
    const size_t nl = text.find_last_of('\n');
    std::string line = nl == std::string::npos ? text : text.substr(nl + 1);
    if (line.size() > 200) line = line.substr(0, 200) + "...";
    return line;
}

// Waits for pid at most ms milliseconds; true when it ended (reaped).
bool waitFor(pid_t pid, int ms, int* status = nullptr) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    for (;;) {
        int st = 0;
        const pid_t r = ::waitpid(pid, &st, WNOHANG);
        if (r == pid || (r < 0 && errno == ECHILD)) {
            if (status) *status = st;
            return true;
        }
        if (std::chrono::steady_clock::now() >= until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

// Starts Xvfb with a screen of at least w x h; returns "" and sets serverPid/serverDisplay, or the reason.
std::string startXvfb(int w, int h) {
    int ready[2];
    if (::pipe2(ready, O_CLOEXEC) != 0) return std::string("cannot start Xvfb: pipe: ") + std::strerror(errno);
    // Xvfb's own messages go to an unlinked temporary file: quiet when it works, its last line when it does not.
    char logName[] = "/tmp/rigscope-xvfb-XXXXXX";
    const int log = ::mkostemp(logName, O_CLOEXEC);
    if (log >= 0) ::unlink(logName);
    const std::string screen = std::to_string(std::max(w, 1280)) + "x" + std::to_string(std::max(h, 1024)) + "x24";
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(ready[0]);
        ::close(ready[1]);
        if (log >= 0) ::close(log);
        return std::string("cannot start Xvfb: fork: ") + std::strerror(errno);
    }
    if (pid == 0) {
        // The child: only async-signal-safe calls until exec. It ends when rigscope ends, however it ends.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) ::_exit(1);
        ::setpgid(0, 0); // not in the terminal's process group: Ctrl+C reaches rigscope, which then stops it
        const int null = ::open("/dev/null", O_RDWR);
        if (null >= 0) {
            ::dup2(null, 0);
            ::dup2(null, 1);
        }
        ::dup2(log >= 0 ? log : null, 2);
        ::dup2(ready[1], 3); // dup2 clears close-on-exec on the copy
        char fd[] = "3";
        char* argv[] = {const_cast<char*>("Xvfb"),
                        const_cast<char*>("-displayfd"),
                        fd,
                        const_cast<char*>("-screen"),
                        const_cast<char*>("0"),
                        const_cast<char*>(screen.c_str()),
                        const_cast<char*>("-nolisten"),
                        const_cast<char*>("tcp"),
                        const_cast<char*>("-noreset"),
                        nullptr};
        ::execvp("Xvfb", argv);
        const char msg[] = "exec failed\n";
        ssize_t ignored = ::write(2, msg, sizeof msg - 1);
        (void)ignored;
        ::_exit(127);
    }
    ::close(ready[1]);
    // The server writes its display number and a newline once it accepts connections.
    std::string number;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    bool eof = false;
    while (number.find('\n') == std::string::npos && !eof) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
        if (left.count() <= 0) break;
        pollfd p{ready[0], POLLIN, 0};
        const int r = ::poll(&p, 1, int(left.count()));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        char buf[32];
        const ssize_t n = ::read(ready[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            eof = true;
        else
            number.append(buf, size_t(n));
    }
    ::close(ready[0]);
    const size_t nl = number.find('\n');
    if (nl != std::string::npos && nl > 0 && number.find_first_not_of("0123456789") == nl) {
        serverPid = pid;
        serverDisplay = ":" + number.substr(0, nl);
        if (log >= 0) ::close(log);
        return {};
    }
    // No display: say why (Xvfb missing, or what it printed last).
    int status = 0;
    bool ended = waitFor(pid, eof ? 2000 : 0, &status);
    if (!ended) {
        ::kill(pid, SIGKILL);
        ended = waitFor(pid, 2000, &status);
    }
    std::string why;
    if (ended && WIFEXITED(status) && WEXITSTATUS(status) == 127)
        why = "Xvfb is not installed (Debian/Ubuntu: apt install xvfb)";
    else if (!eof)
        why = "Xvfb did not start within 10 s";
    else {
        why = "Xvfb failed to start";
        const std::string line = log >= 0 ? lastLine(log) : std::string();
        if (!line.empty()) why += " (" + line + ")";
    }
    if (log >= 0) ::close(log);
    return why;
}

bool isMakeCurrentFailure(const QString& msg) {
    return msg.contains(QLatin1String("makeCurrent failed"), Qt::CaseInsensitive) ||
           msg.contains(QLatin1String("Failed to make context current"), Qt::CaseInsensitive) ||
           msg.contains(QLatin1String("makeCurrent() failed"), Qt::CaseInsensitive);
}

// The last problem Qt's platform layer reported (qt.qpa.* warnings: "could not connect to display", "Could not
// find the Qt platform plugin"), said instead of Qt's generic fatal message.
std::mutex platformMutex;
std::string platformProblem;

void headlessMessageHandler(QtMsgType type, const QMessageLogContext& context, const QString& msg) {
    const bool fatal = type == QtFatalMsg;
    if (!fatal && type != QtDebugMsg && context.category && std::strncmp(context.category, "qt.qpa.", 7) == 0) {
        if (type != QtInfoMsg) { // "Could not load the Qt platform plugin" (info) follows the reason (a warning)
            std::lock_guard<std::mutex> lock(platformMutex);
            platformProblem = msg.toStdString();
        }
        return;
    }
    // Noise of a headless run: a missing XDG_RUNTIME_DIR (Qt then uses /tmp/runtime-USER).
    if (type == QtWarningMsg && msg.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set"))) return;
    if (fatal || isMakeCurrentFailure(msg)) {
        if (ending.exchange(true)) { // another thread is already ending the process
            for (;;)
                std::this_thread::sleep_for(std::chrono::seconds(1));
        }
        const std::string platform = qEnvironmentVariable("QT_QPA_PLATFORM").toStdString();
        const std::string display = qEnvironmentVariable("DISPLAY").toStdString();
        std::string where = "platform " + (platform.empty() ? std::string("(default)") : platform) +
                            (display.empty() ? std::string(", DISPLAY unset") : ", DISPLAY=" + display);
        std::string first = msg.toStdString();
        first = first.substr(0, first.find('\n'));
        if (fatal) {
            std::lock_guard<std::mutex> lock(platformMutex);
            if (!platformProblem.empty()) first = platformProblem.substr(0, platformProblem.find('\n'));
        }
        if (const size_t r = first.find(" Reinstalling the application"); r != std::string::npos) first.resize(r);
        if (first.size() > 200) first = first.substr(0, 200) + "...";
        if (fatal)
            std::fprintf(stderr, "rigscope: cannot draw headless (%s): %s\n", where.c_str(), first.c_str());
        else
            std::fprintf(stderr,
                         "rigscope: no OpenGL on this display (%s: %s); unset DISPLAY and QT_QPA_PLATFORM to let "
                         "rigscope start its own Xvfb\n",
                         where.c_str(), first.c_str());
        exitHeadless(1);
    }
    if (previousHandler) previousHandler(type, context, msg);
}

} // namespace

std::string ensureHeadlessDisplay(int width, int height) {
    if (serverPid > 0) return {};
    const std::string platform = requestedPlatform();
    const bool x11 = isSet("DISPLAY"), wayland = isSet("WAYLAND_DISPLAY");
    bool need = false;
    if (platform.empty())
        need = !x11 && !wayland;
    else if (platform == "xcb")
        need = !x11;
    else if (platform == "offscreen" || platform == "minimal")
        need = true; // Qt's offscreen and minimal platforms draw no OpenGL of their own here
    if (!need) return {};
    const std::string why = startXvfb(width, height);
    if (!why.empty()) {
        const char* what = platform == "offscreen" || platform == "minimal"
                               ? "QT_QPA_PLATFORM has no OpenGL"
                               : "no display (DISPLAY and WAYLAND_DISPLAY are unset)";
        return std::string(what) + " and " + why + ": run under xvfb-run, or set DISPLAY";
    }
    std::atexit(stopPrivateDisplay);
    qputenv("DISPLAY", QByteArray::fromStdString(serverDisplay));
    qputenv("QT_QPA_PLATFORM", "xcb");
    qunsetenv("WAYLAND_DISPLAY");
    return {};
}

void stopPrivateDisplay() {
    const pid_t pid = serverPid;
    if (pid <= 0) return;
    serverPid = 0;
    ::kill(pid, SIGTERM);
    if (!waitFor(pid, 2000)) {
        ::kill(pid, SIGKILL);
        waitFor(pid, 1000);
    }
}

std::string privateDisplay() { return serverPid > 0 ? serverDisplay : std::string(); }

void installHeadlessMessageHandler() {
    QtMessageHandler old = qInstallMessageHandler(headlessMessageHandler);
    if (old != headlessMessageHandler) previousHandler = old;
}

void exitHeadless(int rc) {
    std::fflush(stdout);
    std::fflush(stderr);
    stopPrivateDisplay();
    std::_Exit(rc);
}

} // namespace rs::app
