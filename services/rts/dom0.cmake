# The RTS's DOM0 part (docs/rts.md): sealed chunk streams and Common
# Encryption, on content keys provisioning hands over (provision_calls.h).
ara_dom0_service(rts DOMAIN core USES provision SOURCES chunk_format.c slots.c streams.c cenc_sample.c cenc.c)
