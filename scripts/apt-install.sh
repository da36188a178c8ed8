# Sourced by the install scripts: apt_install NAME PACKAGE... installs Debian packages as
# root (directly, or through sudo without a password), or says why it cannot and returns 1.
# NAME prefixes every message.

apt_install() {
    local name=$1
    shift
    local as_root=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            as_root=(sudo -n)
        else
            echo "$name: installing $* needs root (apt-get)" >&2
            return 1
        fi
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "$name: $* cannot be installed: this system has no apt-get" >&2
        return 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    echo "$name: apt-get update"
    "${as_root[@]}" apt-get update -q
    echo "$name: apt-get install -y $*"
    "${as_root[@]}" apt-get install -y -q --no-install-recommends "$@"
}
