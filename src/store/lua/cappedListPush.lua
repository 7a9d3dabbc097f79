-- Pushes an entry, trims the list to its cap and sets its lifetime: one command (by its SHA).
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[2]) - 1)
if ARGV[3] ~= '' then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return 1
