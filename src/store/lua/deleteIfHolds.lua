-- Releases a lock or lease: deletes KEYS[1] when it holds ARGV[1] (its owner), else leaves it.
-- Answers 1 when it deleted, 0 otherwise.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
