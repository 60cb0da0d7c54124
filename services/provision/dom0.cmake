# Provisioning's DOM0 part (docs/provisioning.md): the instance and its
# evidence, the sessions, the secrets and what the other modules may ask of
# them (provision_calls.h), with the crypto and wire format it shares with
# the provisioner. In a domain of its own: the content keys it receives for
# the RTS leave it through the core (ara_handover).
ara_dom0_service(provision DOMAIN provision SOURCES hpke.c wire.c p256.c binding.c dev_evidence.c
  instance.c session.c secret_services.c internal.c tpm_evidence.c)
