# Checks that no service module built for a domain of its own (DOMAIN other
# than core: ara_dom0_service) defines writable static data: libara's
# .data and .bss are the core's, on DOM0's key, which a service domain's row
# may neither write nor read, so such data would fault the first time the
# module's code touched it (a variable, or the compiler's template for an
# initialised local array of pointers). A module keeps what it writes in its state
# (ara_module_state). Allowed: its descriptors (ara_modules, ara_services:
# read-only after initialisation) and .data.rel.ro (made read-only at load).
#
# Not checked: the core's code and mbedTLS's, which the modules call; data
# they write there faults at run time, as the service's fault.
#
# Inputs: READELF, OBJECTS (the domain modules' object files, their SIMD
# ones included).
foreach(o IN LISTS OBJECTS)
  execute_process(COMMAND ${READELF} -SW ${o} OUTPUT_VARIABLE sections RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${READELF} -SW ${o} failed")
  endif()
  string(REPLACE "\n" ";" rows "${sections}")
  foreach(row IN LISTS rows)
    # name, type, address, offset, size, entry size, flags
    if(NOT row MATCHES "\\] ([^ ]+) +[A-Z_]+ +[0-9a-f]+ [0-9a-f]+ ([0-9a-f]+) [0-9a-f]+ +([A-Z]*)")
      continue()
    endif()
    set(name "${CMAKE_MATCH_1}")
    set(size "${CMAKE_MATCH_2}")
    set(flags "${CMAKE_MATCH_3}")
    if(NOT flags MATCHES "W" OR size MATCHES "^0+$" OR name MATCHES "^(ara_modules|ara_services)$|^\\.data\\.rel\\.ro($|\\.)")
      continue()
    endif()
    message(FATAL_ERROR "${o}: section ${name} holds writable static data (0x${size} bytes), "
      "which a module in a domain of its own can neither read nor write: keep it in the "
      "module's state (ara_module_state), or build it on the stack")
  endforeach()
endforeach()
