/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by attack_ldso.c and the payload it writes into ld.so (attack_ldso_payload.S). */
#ifndef ARA_TEST_ATTACK_LDSO_H
#define ARA_TEST_ATTACK_LDSO_H

/* Where the payload keeps its descriptor of /proc/self/mem for the App. */
#define ATTACK_LDSO_MEM_FD 900

#endif
