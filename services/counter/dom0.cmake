# Sealed monotonic counters (ara/counter.h): the module and its rules.
ara_dom0_service(counter DOMAIN extra SOURCES counter.c counter_ops.c)
