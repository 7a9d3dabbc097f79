-- postShowingMarked.lua, and the outcome kept pending until it is told (store/fence.ts).
-- KEYS: cards, state, unfurls, job, lock, index, messages. ARGV: state JSON, its ttl, token,
-- lockMs, log, field, jobId, at, telling, then the ids confirmed told since.
--- @include "fence"
--- @include "pending"
local cards = redis.call('SMEMBERS', KEYS[1])
local unfurls = redis.call('SMEMBERS', KEYS[3])
if not fenced(KEYS[4], KEYS[5], ARGV[3], ARGV[4], ARGV[6], ARGV[5]) then return 0 end
keepPending(KEYS[6], KEYS[7], ARGV[7], ARGV[8], ARGV[9], 10)
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2])
return {cards, unfurls}
