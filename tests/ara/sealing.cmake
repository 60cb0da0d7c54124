# Included by tests/ara/CMakeLists.txt: the attacks of one class of the
# kernel-interface audit (docs/security.md), each with its _unprotected twin.
#
# Class 2: mapping calls that unmap, move, replace, shrink, discard or seal
# ARA's pages. ARA seals its ranges with mseal (libara/src/dom0/seal.c) and
# the filter's range block refuses the calls it knows; the no-seal variant
# has neither wall.
ara_test_app(attack_seal attack_seal.c)
target_link_libraries(attack_seal PRIVATE ara_attack)
ara_variant_manifest(attack_seal no-seal)
ara_variant_manifest(attack_seal no-seccomp)
ara_attack_pair(attack_seal shmat_remap no-seal "${ara_leak}" WITH_LIBARA)
ara_attack_pair(attack_seal mremap_away no-seal "${ara_leak}" WITH_LIBARA)
foreach(attack mremap_shrink madvise_arena)
  ara_attack_pair(attack_seal ${attack} no-seal "was not refused" WITH_LIBARA)
endforeach()
# What mseal does not cover, which only the filter refuses: advice that is
# not destructive (MADV_KEEPONFORK, MADV_DODUMP), and the exec staging
# window, which DOM0 remaps at run time and so leaves unsealed. Against the
# no-seccomp variant (sealed, no filter) they get through.
foreach(attack madvise_arena_flags munmap_staging mseal_staging)
  ara_attack_pair(attack_seal ${attack} no-seccomp "was not refused" WITH_LIBARA)
endforeach()

# The seal alone: the mapping attacks on sealed ranges, against the
# no-seccomp variant (no filter), are refused all the same.
function(ara_sealed_only app attack)
  add_test(NAME ara_attack_${attack}_sealed_only
    COMMAND ara-loader --manifest $<TARGET_FILE:${app}>.no-seccomp.ara-manifest
            $<TARGET_FILE:${app}> ${attack} $<TARGET_FILE:ara_variant_no-seccomp>)
  set_tests_properties(ara_attack_${attack}_sealed_only PROPERTIES
    ENVIRONMENT "ARA_ALLOW_TEST_VARIANT=1"
    FAIL_REGULAR_EXPRESSION "ARA-DOM0-CANARY|BREACH|LEAK|was not refused|not EPERM" TIMEOUT 300)
endfunction()
foreach(attack shmat_remap mremap_away mremap_shrink madvise_arena)
  ara_sealed_only(attack_seal ${attack})
endforeach()
foreach(attack munmap munmap_tagged mmap_fixed mremap_fixed mprotect pkey_mprotect)
  ara_sealed_only(attack_kernel ${attack})
endforeach()
