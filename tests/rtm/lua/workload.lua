-- The Lua workload of the RTM's third-party test (tests/rtm/lua/lua_rtm.sh):
-- closures, metatables, string operations, table.sort with a Lua
-- comparator, pcall/error and coroutines, each printing results that
-- depend on every step. Its output must not depend on the build or the
-- run: no addresses, no pairs() order (string hashes are seeded per run),
-- no time, and the pseudo-random generator has a fixed seed. The test
-- compares the output of the instrumented interpreter in the guest with
-- that of the build machine's Debian lua5.4.

math.randomseed(20240601)

-- A checksum over strings and numbers, in pure Lua (FNV-1a, 32 bits).
local function fnv(acc, s)
  s = tostring(s)
  for i = 1, #s do
    acc = ((acc ~ s:byte(i)) * 16777619) & 0xffffffff
  end
  return acc
end

local function report(name, ...)
  local parts = table.pack(...)
  for i = 1, parts.n do parts[i] = tostring(parts[i]) end
  print(string.format("%-12s %s", name, table.concat(parts, " ")))
end

-- Closures: counters sharing and not sharing upvalues, a compose chain.
do
  local function counter(step)
    local n = 0
    return function() n = n + step; return n end,
           function() return n end
  end
  local incs, total = {}, 0
  for s = 1, 40 do
    local inc, get = counter(s)
    incs[#incs + 1] = {inc = inc, get = get}
  end
  for round = 1, 100 do
    for i, c in ipairs(incs) do
      if (round + i) % 3 ~= 0 then c.inc() end
    end
  end
  for _, c in ipairs(incs) do total = total + c.get() end
  local f = function(x) return x end
  for k = 1, 50 do
    local g = f
    f = function(x) return g(x) * 3 % 1000003 + k end
  end
  report("closures", total, f(7), f(11))
end

-- Metatables: a vector type with arithmetic, comparison, indexing,
-- __call and __tostring, and a memoising table with __index.
do
  local Vec = {}
  Vec.__index = Vec
  local function vec(x, y) return setmetatable({x = x, y = y}, Vec) end
  Vec.__add = function(a, b) return vec(a.x + b.x, a.y + b.y) end
  Vec.__mul = function(a, k) return vec(a.x * k, a.y * k) end
  Vec.__eq = function(a, b) return a.x == b.x and a.y == b.y end
  Vec.__lt = function(a, b) return a:len2() < b:len2() end
  Vec.__le = function(a, b) return a:len2() <= b:len2() end
  Vec.__tostring = function(a) return string.format("(%d,%d)", a.x, a.y) end
  Vec.__call = function(a, k) return a.x * k + a.y end
  function Vec:len2() return self.x * self.x + self.y * self.y end

  local acc, smaller = vec(0, 0), 0
  for i = 1, 400 do
    local v = vec(i % 17 - 8, i % 13 - 6) * 3
    if v < acc then smaller = smaller + 1 end
    acc = acc + v
    if acc == vec(0, 0) then smaller = smaller + 1000 end
  end
  local fib = setmetatable({[0] = 0, [1] = 1}, {
    __index = function(t, n) local v = (t[n - 1] + t[n - 2]) % 1000000007; t[n] = v; return v end,
  })
  local sum = 0
  for n = 1, 180 do sum = (sum + fib[n]) % 1000000007 end
  report("metatables", tostring(acc), smaller, acc(5), fib[90], sum)
end

-- Strings: build, format, search, gsub with a function, byte-level work.
do
  local words = {}
  for i = 1, 200 do
    local w = {}
    for j = 1, 3 + i % 7 do
      w[#w + 1] = string.char(97 + (i * 7 + j * 13) % 26)
    end
    words[#words + 1] = table.concat(w)
  end
  local text = table.concat(words, " ")
  local vowels = select(2, text:gsub("[aeiou]", ""))
  local upper = text:gsub("%f[%a]%a", string.upper)
  local swapped = text:gsub("(%a)(%a)", function(a, b) return b .. a end)
  local nums = {}
  for i = 1, 200 do nums[#nums + 1] = string.format("%05d:%x:%.3f", i * 37, i * 91, i / 7) end
  local joined = table.concat(nums, ",")
  local found, pos = 0, 1
  while true do
    local s, e = joined:find("%d%d7", pos)
    if not s then break end
    found, pos = found + 1, e + 1
  end
  local h = 2166136261
  h = fnv(h, upper)
  h = fnv(h, swapped)
  h = fnv(h, joined:rep(2, "|"))
  report("strings", #text, vowels, found, upper:sub(1, 24), string.format("%08x", h))
end

-- table.sort with a Lua comparator: records ordered by score, then name.
do
  local recs = {}
  for i = 1, 250 do
    recs[i] = {name = string.format("r%04d", (i * 7919) % 10007), score = math.random(1, 500)}
  end
  table.sort(recs, function(a, b)
    if a.score ~= b.score then return a.score > b.score end
    return a.name < b.name
  end)
  local h = 2166136261
  for i = 1, #recs do h = fnv(h, recs[i].name .. recs[i].score) end
  local ints = {}
  for i = 1, 300 do ints[i] = math.random(-100000, 100000) end
  table.sort(ints, function(a, b) return a % 1000 < b % 1000 or (a % 1000 == b % 1000 and a < b) end)
  report("sort", recs[1].name, recs[1].score, recs[#recs].name, ints[1], ints[#ints],
         string.format("%08x", h))
end

-- pcall/error: error values of each kind, nested handlers, xpcall, errors
-- raised by the VM and by the C library, and recovery after each.
do
  local caught, sum = {}, 0
  local function risky(i)
    if i % 5 == 0 then error({code = i}) end
    if i % 7 == 0 then error("seven:" .. i, 0) end
    if i % 11 == 0 then local t = nil; return t.field end -- a VM error
    if i % 13 == 0 then return ("x"):rep(-1, nil) .. math.floor("no") end -- a library error
    return i * 2
  end
  for i = 1, 1000 do
    local ok, v = pcall(risky, i)
    if ok then
      sum = sum + v
    else
      local kind
      if type(v) == "table" then kind = "table"
      elseif v:match("^seven:") then kind = "string"
      elseif v:match("attempt to index") then kind = "index"
      elseif v:match("bad argument") then kind = "argument"
      else kind = "other:" .. v end
      caught[kind] = (caught[kind] or 0) + 1
    end
  end
  local depth = 0
  local function nest(n)
    if n == 0 then error("bottom", 0) end
    local ok, e = pcall(nest, n - 1)
    depth = depth + 1
    error(e .. "<" .. n, 0)
  end
  local _, chain = pcall(nest, 30)
  local handled = select(2, xpcall(function() error({msg = "x"}) end,
                                   function(e) return "handled " .. e.msg end))
  local kinds = {}
  for k, n in pairs(caught) do kinds[#kinds + 1] = k .. "=" .. n end
  table.sort(kinds)
  report("errors", sum, table.concat(kinds, ","), depth, #chain, chain:sub(-12), handled)
end

-- Coroutines: generators, a producer/consumer pipeline, yields across
-- pcall and through a metamethod, and a coroutine that dies with an error.
do
  local function gen(n)
    return coroutine.wrap(function()
      for i = 1, n do coroutine.yield(i * i % 97) end
    end)
  end
  local total = 0
  for v in gen(1000) do total = total + v end

  local producer = coroutine.create(function()
    for i = 1, 500 do coroutine.yield(string.format("item%d", i)) end
    return "done"
  end)
  local filter = coroutine.wrap(function()
    while true do
      local ok, item = coroutine.resume(producer)
      if coroutine.status(producer) == "dead" then return item end
      if #item % 2 == 1 then coroutine.yield(item:upper()) end
    end
  end)
  local h, n, last = 2166136261, 0, nil
  while true do
    local item = filter()
    if item == "done" then last = item; break end
    h, n = fnv(h, item), n + 1
  end

  local across = coroutine.wrap(function()
    local acc = 0
    for i = 1, 200 do
      local ok, v = pcall(function() return coroutine.yield(i) end)
      acc = acc + (ok and v or 0)
    end
    return acc
  end)
  local r = across()
  while true do
    local nxt = across(r * 2)
    if nxt > 200 or nxt == r then r = nxt; break end
    r = nxt
  end

  local lazy = setmetatable({}, {__index = function(_, k) return coroutine.yield(k) end})
  local meta = coroutine.wrap(function() return lazy.a .. lazy.b end)
  meta()
  meta("A")
  local via_meta = meta("B")

  local dying = coroutine.create(function() coroutine.yield(1); error("died", 0) end)
  coroutine.resume(dying)
  local ok, err = coroutine.resume(dying)
  report("coroutines", total, n, last, r, via_meta, tostring(ok), err, coroutine.status(dying))
end

-- A compute loop: the bulk of the log (every VM instruction is one logged
-- computed goto), with a result that depends on every iteration.
do
  local sieve, primes = {}, 0
  for i = 2, 5000 do
    if not sieve[i] then
      primes = primes + 1
      for j = i * i, 5000, i do sieve[j] = true end
    end
  end
  local x = 0
  for i = 1, 5000 do x = (x * 31 + i) % 2147483647 end
  report("compute", primes, x)
end
print("workload: done")
