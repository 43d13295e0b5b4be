# Sourced by the scripts: puts the pinned tools first on PATH.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$root/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
