-- Sets the state when it is newer than the one stored (or none is); answers 1 when set.
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if raw then
  local ok, current = pcall(cjson.decode, raw)
  if ok and type(current) == 'table' and tonumber(current.at) and tonumber(current.at) > tonumber(ARGV[3]) then
    return 0
  end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
