-- Takes told ids (ARGV) out of the index and its tellings: one command, one round trip.
redis.call('ZREM', KEYS[1], unpack(ARGV))
redis.call('HDEL', KEYS[2], unpack(ARGV))
return 1
