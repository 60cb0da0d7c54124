-- The Lua workload of the RTM case study (tests/rtm/study, docs/rtm.md
-- "The case study"): ROUNDS (arg[1]) rounds of closures, metatables, a
-- table.sort with a Lua comparator, string work and a coroutine
-- generator, so that the run's logged transfers grow with ROUNDS. Its
-- output depends on every step and not on the build or the run (no
-- addresses, no pairs() order, a fixed seed): the study compares it with
-- the build machine's lua5.4's.
local rounds = math.tointeger(tonumber(arg[1] or ""))
if not rounds or rounds < 1 then
  io.stderr:write("usage: lua study.lua ROUNDS (a positive integer)\n")
  os.exit(2)
end
math.randomseed(20240601)

local function fnv(acc, s)
  s = tostring(s)
  for i = 1, #s do acc = ((acc ~ s:byte(i)) * 16777619) & 0xffffffff end
  return acc
end

local Vec = {}
Vec.__index = Vec
local function vec(x, y) return setmetatable({x = x, y = y}, Vec) end
Vec.__add = function(a, b) return vec(a.x + b.x, a.y + b.y) end
Vec.__lt = function(a, b) return a.x * a.x + a.y * a.y < b.x * b.x + b.y * b.y end

local h = 2166136261
for round = 1, rounds do
  -- Closures sharing an upvalue.
  local n = 0
  local incs = {}
  for s = 1, 10 do incs[s] = function() n = n + s + round; return n end end
  for _, f in ipairs(incs) do f() end
  -- Metatables: arithmetic and comparison through metamethods.
  local acc, smaller = vec(0, 0), 0
  for i = 1, 20 do
    local v = vec(i % 7 - 3, (i + round) % 5 - 2)
    if v < acc then smaller = smaller + 1 end
    acc = acc + v
  end
  -- table.sort with a Lua comparator.
  local recs = {}
  for i = 1, 20 do recs[i] = {name = string.format("r%03d", (i * 37 + round) % 101), score = math.random(1, 50)} end
  table.sort(recs, function(a, b)
    if a.score ~= b.score then return a.score > b.score end
    return a.name < b.name
  end)
  -- Strings: gsub with a function.
  local text = string.rep(recs[1].name .. " ", 4):gsub("(%a)(%d)", function(a, d) return d .. a end)
  -- A coroutine generator.
  local gen = coroutine.wrap(function() for i = 1, 10 do coroutine.yield(i * round % 97) end end)
  local g = 0
  for _ = 1, 10 do g = g + gen() end
  h = fnv(h, n .. ":" .. acc.x .. "," .. acc.y .. ":" .. smaller .. ":" .. recs[1].name .. ":" .. text .. ":" .. g)
end
print(string.format("rounds %d checksum %08x", rounds, h))
