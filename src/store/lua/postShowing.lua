-- Sets the post's shown state (feeds.ts), answers its cards and unfurls: one command where three
-- were. What can fail (a key of the wrong type) is read before anything is written: the script
-- writes all or nothing.
-- KEYS: cards, state, unfurls. ARGV: state JSON, its ttl in seconds.
local cards = redis.call('SMEMBERS', KEYS[1])
local unfurls = redis.call('SMEMBERS', KEYS[3])
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2])
return {cards, unfurls}
