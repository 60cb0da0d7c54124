# Included by tests/ara/CMakeLists.txt: the attacks on the filter's rules for
# the review's last findings (docs/security.md), each with its _unprotected
# twin (tests/ara/attack_filter.c).
ara_test_app(attack_filter attack_filter.c)
target_link_libraries(attack_filter PRIVATE ara_attack)
ara_variant_manifest(attack_filter no-seccomp)
ara_variant_manifest(attack_filter no-privilege-drop)
set(written_back "on /dev/tty1 \\(what it holds, written back\\) was not refused")
# A VT's keyboard tables, from a session whose controlling terminal is the
# VT. The string, keymap and scan-code tables also need CAP_SYS_TTY_CONFIG,
# which ARA drops: their twins run where neither the filter nor the drop is.
# Without a keyboard (the guest has none), the scan-code table answers
# ENODEV after the kernel's permission checks.
ara_attack_pair(attack_filter vt_func_string no-privilege-drop "${written_back}")
ara_attack_pair(attack_filter vt_keymap_entry no-privilege-drop "${written_back}")
ara_attack_pair(attack_filter vt_keycode no-privilege-drop
  "on /dev/tty1 \\(what it holds, written back\\) (was not refused|failed, but not with Operation not permitted)")
# The accent tables need no capability, only the VT as controlling terminal:
# against libara without the filter (the drop stays), they are written.
ara_attack_pair(attack_filter vt_accent_table no-seccomp "${written_back}")
ara_attack_pair(attack_filter vt_accent_table_unicode no-seccomp "${written_back}")
# One VT for all of them: a session cannot take /dev/tty1 as its controlling
# terminal while another test's session holds it, so they never run at once.
foreach(attack vt_func_string vt_keymap_entry vt_keycode vt_accent_table vt_accent_table_unicode)
  set_tests_properties(ara_attack_${attack} ara_attack_${attack}_services
    ara_attack_${attack}_unprotected PROPERTIES RESOURCE_LOCK ara_vt_tty1)
endforeach()
# Page presence: without the filter, the pages DOM0 touched for one call show.
ara_attack_pair(attack_filter mincore_dom0 no-seccomp
  "DISCLOSED: mincore: [1-9][0-9]* DOM0 pages became present")
ara_attack_pair(attack_filter move_pages_dom0 no-seccomp
  "DISCLOSED: move_pages: [1-9][0-9]* DOM0 pages became present")
# User namespaces: without the filter (the capability drop stays), the App
# has CAP_SYS_ADMIN again in one, and mounts a tmpfs.
foreach(attack userns_unshare userns_clone)
  ara_attack_pair(attack_filter ${attack} no-seccomp
    "a tmpfs mounted on /tmp/ara-userns-[A-Za-z0-9]+ \\(CAP_SYS_ADMIN regained\\)")
endforeach()
