# Which service modules libara.so holds (ara/service.h): this one list.
# Each folder's dom0.cmake names its DOM0 sources (ara_dom0_service,
# libara/dom0.cmake); the core names none of them. Cached: tests/variants
# builds its DOM0 runtimes from another directory.
set(ARA_DOM0_SERVICES provision rts rtm counter CACHE INTERNAL "")
