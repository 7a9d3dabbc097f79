-- Moves the value forward only: a late or repeated run never moves the window back.
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local wanted = tonumber(ARGV[1])
if wanted > current then redis.call('SET', KEYS[1], ARGV[1]) return 1 end
return 0
