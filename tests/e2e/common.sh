# Shared by the end-to-end scripts (sourced, never run): the start of a script that tests the
# CLI, a failure counter and the device check. A script sources it after `set -u`, calls
# `fail "message"` for each failed check and ends with `finish`, which prints the count and sets
# the exit status.

failed=0

# `begin_cli_test "$@"`, first thing after sourcing: the script takes one argument, the
# beamscope-cli it tests (then in $cli), and works in a scratch directory $tmp, removed on exit.
begin_cli_test() {
    if [ $# -ne 1 ]; then
        echo "usage: $0 BEAMSCOPE_CLI" >&2
        exit 2
    fi
    cli=$1
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
}

fail() {
    failed=$((failed + 1))
    echo "FAIL: $1"
}

# PoCL is part of the test machine's set-up: no OpenCL device is an error, never a skip.
require_opencl() {
    if ! clinfo -l 2>/dev/null | grep -q "Device"; then
        echo "FAIL: no OpenCL device (clinfo lists none); PoCL is part of the test machine's set-up"
        exit 1
    fi
}

# `expect_error STATUS TEXT ARGS...`: "$cli" ARGS exits with STATUS and prints one line on stderr
# that contains TEXT (a fixed string). Uses $cli and the scratch directory $tmp of the script.
expect_error() {
    local want=$1 needle=$2
    shift 2
    "$cli" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    [ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want: $(head -c 300 "$tmp/err")"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "'$*': stderr is not one line: $(cat "$tmp/err")"
    grep -qF -- "$needle" "$tmp/err" || fail "'$*': stderr lacks '$needle': $(cat "$tmp/err")"
}

# The last line of a script: "NAME: all checks passed" and exit 0, or the count and exit 1.
finish() {
    if [ "$failed" -gt 0 ]; then
        echo "$1: $failed check(s) failed"
        exit 1
    fi
    echo "$1: all checks passed"
    exit 0
}
