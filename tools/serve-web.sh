#!/usr/bin/env bash
# Serves the built web viewer (build-web/site, made by `tools/bootstrap.sh web`) as static files:
#   tools/serve-web.sh [PORT] [DIR]     -> http://localhost:PORT/ (default 8080)
# Any static server does: the page needs no other service (its .wasm is served as application/wasm here, which
# browsers want for streaming compilation; others fall back to a plain compile).
set -euo pipefail
cd "$(dirname "$0")/.."
port=${1:-8080}
dir=${2:-build-web/site}
[ -f "$dir/index.html" ] || { echo "serve-web: $dir/index.html is missing; run tools/bootstrap.sh web" >&2; exit 1; }
exec python3 - "$port" "$dir" <<'PY'
import functools, http.server, sys
port, root = int(sys.argv[1]), sys.argv[2]
class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, '.wasm': 'application/wasm',
                      '.js': 'text/javascript', '.mjs': 'text/javascript'}
    def log_message(self, *a): pass
print(f"serving {root} at http://localhost:{port}/", flush=True)
http.server.ThreadingHTTPServer(('127.0.0.1', port), functools.partial(Handler, directory=root)).serve_forever()
PY
