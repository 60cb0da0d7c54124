/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the synthetic IMA log of the swtpm end-to-end test holds, shared by
 * the program that writes it and extends the TPM (tpm_synth_log.c) and the
 * verifier cases (tpm_verify_cases.c): digests that appear in the log but
 * must never satisfy a policy, because the quote does not vouch for them.
 */
#ifndef ARA_TESTS_SYNTH_LOG_H
#define ARA_TESTS_SYNTH_LOG_H

/* SHA-256 of these strings: in a violation entry's d-ng (extended as
 * 0xFF.., so the claim is unproven), and in an entry of PCR 11 (not
 * quoted). */
#define SYNTH_DECOY_VIOLATION "decoy: violation"
#define SYNTH_DECOY_PCR11 "decoy: pcr 11"

#endif
