-- Adds a poller (due now when the lane has room, else somewhere in the stretched interval) or
-- changes its interval and data, its rate kept in the host's demand.
-- KEYS: due, polls, demand, stretch, lane
-- ARGV: id, everyMs, value, now, capacity, windowMs, random (0 <= r < 1), headroom
--- @include "pollRate"
local id = ARGV[1]
local every = tonumber(ARGV[2])
local now = tonumber(ARGV[4])
local stretch = tonumber(redis.call('GET', KEYS[4]) or '1')
local old = redis.call('HGET', KEYS[2], id)
if old then
  local oldEvery = tonumber(string.match(old, '^(%d+)'))
  if oldEvery ~= every then
    redis.call('INCRBY', KEYS[3], rate(every) - rate(oldEvery))
    local due = tonumber(redis.call('ZSCORE', KEYS[1], id) or tostring(now))
    local sooner = now + every * stretch
    if sooner < due then redis.call('ZADD', KEYS[1], sooner, id) end
  end
else
  local demand = redis.call('INCRBY', KEYS[3], rate(every))
  -- Due now when the lane has room. When pollers ask for more than it gives, the first turn
  -- falls somewhere in the stretched interval, as everyone's does: many pollers added at once
  -- (a migration, a large workspace) spread over it instead of queueing as one backlog.
  -- the lane the dispatcher saw last (what people and others left), else the whole lane
  local lane = tonumber(redis.call('GET', KEYS[5]) or ARGV[5])
  local asked = demand / 1e12 * tonumber(ARGV[6]) / (lane * tonumber(ARGV[8]))
  local s = math.max(stretch, asked)
  local due = now
  if s > 1 then due = now + math.floor(tonumber(ARGV[7]) * every * s) end
  redis.call('ZADD', KEYS[1], due, id)
end
redis.call('HSET', KEYS[2], id, ARGV[2] .. '|' .. ARGV[3])
return 1
