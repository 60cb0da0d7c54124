# The RTS's DOM0 part (docs/rts.md): sealed chunk streams and Common
# Encryption, in a domain of its own, on the content keys provisioning
# hands it through the core (slots.c's rules, ara_handover).
ara_dom0_service(rts DOMAIN rts SOURCES chunk_format.c slots.c streams.c cenc_sample.c cenc.c)
