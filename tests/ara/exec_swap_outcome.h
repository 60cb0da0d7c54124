/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How one attempt of attack_exec_swap ended, as its child's exit status:
 * exec_swap_target's when the exec ran it, the attempt's own when the exec
 * was refused.
 */
#ifndef ARA_TESTS_EXEC_SWAP_OUTCOME_H
#define ARA_TESTS_EXEC_SWAP_OUTCOME_H

#define EXEC_SWAP_RAN_CHECKED 65 /* the program ARA checked ran: the attack's race was missed */
#define EXEC_SWAP_RAN_REFUSED 66 /* the program ARA refuses ran: BREACH */
#define EXEC_SWAP_REFUSED 100 /* plus errno: the execve returned */
#define EXEC_SWAP_ERRNO_MAX 155 /* 100 + errno stays an exit status */

#endif /* ARA_TESTS_EXEC_SWAP_OUTCOME_H */
