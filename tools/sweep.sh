#!/usr/bin/env bash
# Sweeps folders as a user would: `rigscope-cli info --json` on every file the project reads (.w3d .alo .ala
# .bwm .al .abk .amos .dds .tga; `rigscope-cli ls` on .meg/.big archives), on both cores by default, and
# prints a table by format -- read, read with warnings, refused, crashed -- and the most common refusal and
# warning messages (numbers shown as N, the file's own name left out).
#
#   tools/sweep.sh [--cli PATH] [--jobs N] [--timeout S] [--keep FILE] [--no-textures] DIR...
#
# read        exit 0, every "warnings" list in the JSON empty
# warnings    exit 0, some "warnings" list not empty
# refused     exit 1 with a "rigscope-cli: ..." message (the file's own reason)
# crashed     anything else: a signal, a timeout, exit 1 without a message, another exit code
# Empty files are counted apart ("empty"): no game loads them either.
# --keep FILE writes one line per file (format, class, exit code, path, message or warnings) to FILE.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cli="$here/build/bin/rigscope-cli" # the README's build; a core-only build (build-core) when that is all there is
[ -x "$cli" ] || [ ! -x "$here/build-core/bin/rigscope-cli" ] || cli="$here/build-core/bin/rigscope-cli"
jobs=2
timeout_s=120
keep=""
textures=1
dirs=()
while [ $# -gt 0 ]; do
    case "$1" in
    --cli) cli=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --no-textures) textures=0; shift ;;
    -h | --help) sed -n '2,15p' "$0"; exit 0 ;;
    *) dirs+=("$1"); shift ;;
    esac
done
usage="usage: tools/sweep.sh [--cli PATH] [--jobs N] [--timeout S] [--keep FILE] [--no-textures] DIR..."
[ ${#dirs[@]} -gt 0 ] || { echo "$usage" >&2; exit 2; }
[ -x "$cli" ] || { echo "sweep.sh: $cli is not built (cmake --build build-core --target rigscope-cli)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "sweep.sh: needs python3" >&2; exit 2; }

exec python3 - "$cli" "$jobs" "$timeout_s" "$keep" "$textures" "${dirs[@]}" <<'EOF'
import collections, concurrent.futures, json, os, re, subprocess, sys

cli, jobs, timeout_s, keep, textures = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5] == '1'
dirs = sys.argv[6:]
exts = {'w3d', 'alo', 'ala', 'bwm', 'al', 'abk', 'amos', 'meg', 'big'} | ({'dds', 'tga'} if textures else set())

files = []
for d in dirs:
    for root, _, names in os.walk(d):
        for n in names:
            e = n.rsplit('.', 1)[-1].lower() if '.' in n else ''
            if e in exts: files.append(os.path.join(root, n))
files.sort()

def warnings_of(o, out):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == 'warnings' and isinstance(v, list): out.extend(str(s) for s in v)
            else: warnings_of(v, out)
    elif isinstance(o, list):
        for v in o: warnings_of(v, out)
    return out

def one(path):
    fmt = path.rsplit('.', 1)[-1].lower()
    try:
        if os.path.getsize(path) == 0: return fmt, 'empty', 0, path, []
    except OSError as e:
        return fmt, 'refused', 1, path, [str(e)]
    cmd = [cli, 'ls', path] if fmt in ('meg', 'big') else [cli, 'info', '--json', path]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return fmt, 'crashed', 'timeout', path, ['timed out after %gs' % timeout_s]
    err = p.stderr.decode('utf-8', 'replace').strip()
    if p.returncode == 0:
        w = []
        if fmt not in ('meg', 'big'):
            try: w = warnings_of(json.loads(p.stdout), [])
            except ValueError: return fmt, 'crashed', 0, path, ['exit 0 but the output is not JSON']
        return fmt, 'warnings' if w else 'read', 0, path, w
    if p.returncode == 1 and err.startswith('rigscope-cli: '):
        return fmt, 'refused', 1, path, [err.splitlines()[0]]
    return fmt, 'crashed', p.returncode, path, [err[:300] or 'no message']

with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    rows = list(pool.map(one, files))

if keep:
    with open(keep, 'w', encoding='utf-8') as f:
        for fmt, cls, rc, path, msgs in rows:
            f.write('%s\t%s\t%s\t%s\t%s\n' % (fmt, cls, rc, path, ' | '.join(m.replace('\n', ' ') for m in msgs)))

classes = ['read', 'warnings', 'refused', 'crashed', 'empty']
table = collections.defaultdict(collections.Counter)
for fmt, cls, *_ in rows: table[fmt][cls] += 1
print('| format | files | read | with warnings | refused | crashed | empty |')
print('|---|---:|---:|---:|---:|---:|---:|')
total = collections.Counter()
for fmt in sorted(table):
    c = table[fmt]
    total.update(c)
    print('| %s | %d | %s |' % (fmt, sum(c.values()), ' | '.join(str(c[k]) for k in classes)))
print('| all | %d | %s |' % (sum(total.values()), ' | '.join(str(total[k]) for k in classes)))

def shape(msg, path):
    msg = msg.replace('rigscope-cli: ', '', 1)
    for p in (path, os.path.basename(path)): msg = msg.replace(p, '<file>')
    msg = re.sub(r"'[^']*'", "'…'", msg)
    msg = re.sub(r'\b(skin|HLOD|hierarchy|mesh|emitter) [^ :;]+( [0-9]+)?', r'\1 NAME', msg)
    return re.sub(r'0x[0-9A-Fa-f]+|\d+(\.\d+)?', 'N', msg).strip()

for cls, title in (('refused', 'refusals'), ('crashed', 'crashes'), ('warnings', 'warnings')):
    msgs, example = collections.Counter(), {}
    for fmt, c, rc, path, ms in rows:
        if c != cls: continue
        for m in ms:
            k = '[%s] %s' % (fmt, shape(m, path))
            msgs[k] += 1
            example.setdefault(k, path)
    if not msgs: continue
    print('\nMost common %s:' % title)
    for k, n in msgs.most_common(12):
        print('  %5d  %s\n         e.g. %s' % (n, k[:260], example[k]))
EOF
