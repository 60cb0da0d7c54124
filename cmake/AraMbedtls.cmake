# Pinned mbedtls source built twice: for tools and for DOM0 (filled in by issue 3 work).
