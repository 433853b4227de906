# Sourced by .ci/run: puts Node 24 LTS first on PATH. The project runs and is
# tested on the Node that Electron 45 ships (24); a machine with another Node
# gets the official binary from the npm registry (the node-<os>-<arch>
# packages carry it, headers included), cached per version. Where the npm
# registry is unreachable too, it says what to install.
CHATOS_NODE_VERSION=24.22.3
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != 24 ]; then
  case "$(uname -m)" in
    x86_64) node_arch=x64 ;;
    aarch64 | arm64) node_arch=arm64 ;;
    *) echo "no Node $CHATOS_NODE_VERSION package for $(uname -m): install Node 24 yourself and put it first on PATH" >&2; exit 1 ;;
  esac
  node_os=$(uname -s | tr '[:upper:]' '[:lower:]')
  # As root (CI), in a folder every user may read: tests run the CLI as `nobody` too, and /root is not theirs to enter.
  if [ "$(id -u)" = 0 ]; then node_base=/usr/local/lib/chatos; else node_base="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/chatos"; fi
  node_dir="$node_base/node-$CHATOS_NODE_VERSION-$node_os-$node_arch"
  if [ ! -x "$node_dir/bin/node" ]; then
    node_tmp=$(mktemp -d)
    if ! (cd "$node_tmp" && npm pack --silent "node-$node_os-$node_arch@$CHATOS_NODE_VERSION" >/dev/null); then
      echo "could not fetch node-$node_os-$node_arch@$CHATOS_NODE_VERSION from the npm registry: install Node 24 (https://nodejs.org) and put it first on PATH" >&2
      exit 1
    fi
    mkdir -p "$node_dir.partial"
    chmod 755 "$node_base"
    tar xzf "$node_tmp"/*.tgz -C "$node_dir.partial" --strip-components=1
    rm -rf "$node_tmp" "$node_dir"
    mv "$node_dir.partial" "$node_dir"
  fi
  export PATH="$node_dir/bin:$PATH"
  # Native addons build against this Node's own headers, not a system Node's (npm's nodedir may name one).
  export npm_config_nodedir="$node_dir"
fi
echo "Node $(node -v), npm $(npm -v)"
