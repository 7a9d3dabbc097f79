-- Takes the host's due pollers as the background lane allows, and stretches every interval so
-- that the pollers fit the lane.
-- KEYS: due, polls, demand, stretch, log, bg (this window), bgPrev, runs (this window), runsPrev,
--       runLog, lane (polls per window it leaves, for SET)
-- ARGV: now, windowMs, capacity, max, member, headroom
-- Answers {stretch * 1000, id1, value1, id2, value2, ...}.
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local capacity = tonumber(ARGV[3])
local max = tonumber(ARGV[4])
local frac = (now % window) / window
local function n(key) return tonumber(redis.call('GET', key) or '0') end
-- requests a poll costs: background requests over polls taken, in the last window or so
local runsFixed = n(KEYS[8]) + n(KEYS[9]) * (1 - frac)
local perRun = 1
if runsFixed >= 1 then perRun = math.max(1, (n(KEYS[6]) + n(KEYS[7]) * (1 - frac)) / runsFixed) end
-- polls taken in the last window, exactly (one entry per look: "time:count")
redis.call('ZREMRANGEBYSCORE', KEYS[10], '-inf', now - window)
local runs = 0
for _, entry in ipairs(redis.call('ZRANGE', KEYS[10], 0, -1)) do
  runs = runs + tonumber(string.match(entry, ':(%d+)$'))
end
-- what was sent in the last window that polls did not send (people, digests, unfurls) leaves
-- that much less of the lane to polls
local sent = redis.call('ZCOUNT', KEYS[5], '(' .. (now - window), '+inf')
local others = math.max(0, sent - runs * perRun)
local lane = math.max(1, capacity - others)
local pollsPerWindow = n(KEYS[3]) / 1e12 * window
-- A little short of the lane: a queue fed at exactly its pace never drains a backlog, and a
-- backlog delays the pollers behind it more than the others.
local stretch = math.max(1, pollsPerWindow * perRun / (lane * tonumber(ARGV[6])))
redis.call('SET', KEYS[4], tostring(stretch), 'PX', window * 4)
redis.call('SET', KEYS[11], tostring(lane / perRun), 'PX', window * 4)
local out = {math.floor(stretch * 1000)}
-- as many as the lane has room for now (the log holds every request of the last window)
local take = math.min(max, math.floor((capacity - sent) / perRun))
if take <= 0 then return out end
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, take)
if #due == 0 then return out end
for _, id in ipairs(due) do
  local value = redis.call('HGET', KEYS[2], id)
  if value then
    local every = tonumber(string.match(value, '^(%d+)'))
    redis.call('ZADD', KEYS[1], now + math.floor(every * stretch), id)
    table.insert(out, id)
    table.insert(out, value)
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
local taken = (#out - 1) / 2
redis.call('INCRBY', KEYS[8], taken)
redis.call('PEXPIRE', KEYS[8], window * 2)
redis.call('ZADD', KEYS[10], now, ARGV[5] .. ':' .. taken)
redis.call('PEXPIRE', KEYS[10], window * 2)
return out
