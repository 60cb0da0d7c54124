# Included by tests/ara/CMakeLists.txt: the attacks of one class of the
# kernel-interface audit (docs/security.md), each with its _unprotected twin.
#
# Class 3, IV1 on load-time code: ARA replaces the code mapped before the
# App runs with sealed, scanned copies that no file is behind
# (libara/src/dom0/code_copy.c). attack_code is linked against a library of
# its own (code_victim.c), so that ld.so maps it before ARA initialises, and
# holds a POR_EL0 write in its own text (attack_code_gadget.S). Each attack
# brings back, extends or rewrites load-time code past the scan; against the
# no-code-copy variant (load-time code patched in place, still views of
# their files) each must print DOM0's canary.
add_library(ara_code_victim SHARED code_victim.c)
ara_test_app(attack_code attack_code.c attack_code_gadget.S)
# -z now: code_mremap_grow moves the library's code, symbol tables included,
# so nothing may be bound lazily after it.
target_link_libraries(attack_code PRIVATE ara_attack ara_code_victim -Wl,-z,now)
ara_variant_manifest(attack_code no-code-copy)
foreach(attack code_dontneed code_dontneed_locked code_mremap_grow code_file_write)
  ara_attack_pair(attack_code ${attack} no-code-copy "${ara_leak}")
endforeach()
# code_file_write rewrites the library's file and puts it back: one at a time.
set_tests_properties(ara_attack_code_file_write ara_attack_code_file_write_services
  ara_attack_code_file_write_unprotected PROPERTIES RESOURCE_LOCK ara_code_victim_file)
