-- postShowing.lua with a job's fenced step-log write between its reads and its write
-- (store/fence.ts); answers 0, having written nothing, when the job's lock is not the run's.
-- KEYS: cards, state, unfurls, job, lock. ARGV: state JSON, its ttl, token, lockMs, log, field.
--- @include "fence"
local cards = redis.call('SMEMBERS', KEYS[1])
local unfurls = redis.call('SMEMBERS', KEYS[3])
if not fenced(KEYS[4], KEYS[5], ARGV[3], ARGV[4], ARGV[6], ARGV[5]) then return 0 end
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2])
return {cards, unfurls}
