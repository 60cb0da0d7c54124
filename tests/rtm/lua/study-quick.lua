-- The quick workload of the RTM case study (rtm_study.sh --quick and its
-- smoke test): a sort with a Lua comparator, small because every logged
-- transfer costs the IPC configuration a socket round trip.
local t = {}
for i = 1, 20 do t[i] = (i * 7) % 11 end
table.sort(t, function(a, b) return a > b end)
print(table.concat(t, ","))
