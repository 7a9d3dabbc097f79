-- Pushes many entries, each onto its own key (KEYS[i] gets ARGV[i + 2]; a key may repeat, its
-- entries pushed in order), then trims and sets the lifetime of each list once: ARGV[1] the cap,
-- ARGV[2] the lifetime in seconds ('' for none).
local cap = tonumber(ARGV[1])
local ttl = ARGV[2]
local lists = {}
local seen = {}
for i, key in ipairs(KEYS) do
  redis.call('LPUSH', key, ARGV[i + 2])
  if not seen[key] then
    seen[key] = true
    lists[#lists + 1] = key
  end
end
for _, key in ipairs(lists) do
  redis.call('LTRIM', key, 0, cap - 1)
  if ttl ~= '' then redis.call('EXPIRE', key, ttl) end
end
return #KEYS
