-- KEYS: log, pause, personWaiting, teamLog, teams, bgCount
-- ARGV: now, windowMs, laneLimit, personLane (1/0), team, member, personLimit, want
-- Answers {0 (the turn is taken) or the ms to wait, the time the log counts it at, turns taken}:
-- `want` turns (a lease; members `member`, `member.1`, …) while the window stays under half the
-- limit, else one.
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local laneLimit = tonumber(ARGV[3])
local person = ARGV[4] == '1'
local team = ARGV[5]
local member = ARGV[6]
local personLimit = tonumber(ARGV[7])
local want = tonumber(ARGV[8] or '1')
local function untilNow(key)
  local at = tonumber(redis.call('GET', key) or '0')
  return at - now
end
-- Time never runs backwards in the log: a request stamped a little earlier by another process's
-- clock counts as sent at the newest time seen (else the trim below would already have dropped
-- turns its window still holds).
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if newest[2] and tonumber(newest[2]) > now then now = tonumber(newest[2]) end
local paused = untilNow(KEYS[2])
if paused > 0 then return {paused, now, 0} end
if not person then
  local waiting = untilNow(KEYS[3])
  if waiting > 0 then return {waiting, now, 0} end
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local function waitFor(key, n, limit)
  local at = redis.call('ZRANGE', key, n - limit, n - limit, 'WITHSCORES')
  local wait = 1
  if at[2] then wait = math.max(1, tonumber(at[2]) + window - now) end
  return wait
end
if count >= laneLimit then
  local wait = waitFor(KEYS[1], count, laneLimit)
  if person and team ~= '' then
    -- a workspace that waits counts among those sharing the window's next turns
    redis.call('ZADD', KEYS[5], now, team)
    redis.call('PEXPIRE', KEYS[5], window)
  end
  if person then
    -- held a little past the turn it waits for, so that the person comes back to take it
    local endAt = now + wait + 1000
    if endAt > tonumber(redis.call('GET', KEYS[3]) or '0') then
      redis.call('SET', KEYS[3], tostring(endAt), 'PX', window)
    end
  end
  return {wait, now, 0}
end
-- A lease only while the window stays under half of it (fair shares and people's precedence
-- never come into play there); else one turn.
local n = 1
if want > 1 and (count + want) * 2 < math.min(personLimit, laneLimit) then n = want end
local members = {}
for i = 1, n do
  members[#members + 1] = now
  members[#members + 1] = i == 1 and member or (member .. '.' .. i)
end
if person and team ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now - window)
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - window)
  if count * 2 >= personLimit then
    local active = redis.call('ZCARD', KEYS[5])
    if not redis.call('ZSCORE', KEYS[5], team) then active = active + 1 end
    local share = math.ceil(personLimit / active)
    local mine = redis.call('ZCARD', KEYS[4])
    if mine >= share then return {waitFor(KEYS[4], mine, share), now, 0} end
  end
  redis.call('ZADD', KEYS[4], unpack(members))
  redis.call('PEXPIRE', KEYS[4], window)
  redis.call('ZADD', KEYS[5], now, team)
  redis.call('PEXPIRE', KEYS[5], window)
end
redis.call('ZADD', KEYS[1], unpack(members))
redis.call('PEXPIRE', KEYS[1], window)
if not person then
  redis.call('INCRBY', KEYS[6], n)
  redis.call('PEXPIRE', KEYS[6], window * 2)
end
return {0, now, n}
