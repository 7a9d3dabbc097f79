-- Takes a thread's pairing with its members only while it is still that thread's.
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('DEL', KEYS[2])
return 1
