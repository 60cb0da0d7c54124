#!/bin/sh
# Enrols the guest TPM's attestation key for a provisioning test: makes (or
# finds) the AK at its persistent handle and writes its public key, PEM, to
# OUT for the provisioner's policy. This stands in for a real enrolment
# (EK certificate and TPM2_ActivateCredential, docs/evidence-tpm.md): the
# test trusts the TPM it runs on.
# Usage: tpm_enrol.sh BUILD_DIR OUT
set -u
[ -c /dev/tpmrm0 ] || { echo "tpm_enrol: no /dev/tpmrm0: this guest has no TPM (run-guest.sh --tpm)"; exit 1; }
exec "$1/services/evidence/ara-tpm-quote" enrol "$2"
