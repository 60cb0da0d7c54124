#!/bin/sh
# rtm_relro.sh LOADER FULL LAZY: the same instrumented App linked with full
# RELRO runs under ara-loader; linked without (-z lazy), the RTM runtime
# stops it at start, naming why, with ARA_RTM_EXIT_NO_EVIDENCE (97).
loader=$1 full=$2 lazy=$3
fail() { echo "rtm_relro: FAIL: $*"; exit 1; }

out=$(ARA_EVIDENCE=dev-insecure "$loader" "$full" 2>&1); rc=$?
echo "$out"
[ "$rc" = 0 ] || fail "$full exited $rc"
case $out in *"rtm_relro_app: ran (42)"*) ;; *) fail "$full did not run" ;; esac

out=$(ARA_EVIDENCE=dev-insecure "$loader" "$lazy" 2>&1); rc=$?
echo "$out"
[ "$rc" = 97 ] || fail "$lazy exited $rc, not 97"
case $out in
*"rtm_relro_app: ran"*) fail "$lazy ran its main" ;;
*"ara-rtm: this program: not linked with full RELRO"*) ;;
*) fail "$lazy did not say why it stopped" ;;
esac
echo "rtm_relro: PASS"
