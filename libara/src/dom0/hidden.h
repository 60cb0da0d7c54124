/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Forced into every DOM0 translation unit (-include): every declaration,
 * extern ones included, gets hidden visibility. -fvisibility=hidden alone
 * covers only definitions; an extern declaration without it is reached
 * through a GOT entry. (libara's GOT is DOM0 and read-only, so this is not
 * what protects it; it keeps DOM0's own references direct and the GOT
 * small. The DOM0 mbedtls archive is built without it, so that its test can
 * link it against libc.)
 */
#pragma GCC visibility push(hidden)
