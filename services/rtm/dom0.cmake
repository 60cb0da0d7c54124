# The RTM's DOM0 part (docs/rtm.md): the log, its documents, signed by
# provisioning's instance key (provision_calls.h, calls the core relays),
# the report service, the code modules at initialisation; the chain step
# with the ARMv8 SHA-256 instructions (sha256_ce.c), the gate scrubbing the
# vector registers after its services. In a domain of its own: the gate's
# append lane is the core's, which the core sets for it (ara_append_lane_set).
ara_dom0_service(rtm DOMAIN rtm USES provision SOURCES log.c doc.c report.c modules.c SIMD sha256_ce.c)
