-- Takes a poller out, its rate out of the host's demand. KEYS: due, polls, demand. ARGV: id
--- @include "pollRate"
local old = redis.call('HGET', KEYS[2], ARGV[1])
if not old then return 0 end
redis.call('INCRBY', KEYS[3], -rate(tonumber(string.match(old, '^(%d+)'))))
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
return 1
