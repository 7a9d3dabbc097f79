-- Failed jobs with scores in [ARGV[1], ARGV[2]] (the time they failed), at most ARGV[3] and then
-- every other with the last one's score; answers the last score read, whether the page was full
-- (1 or 0), then the id and score of each failed as stalled (its hash's field ARGV[6] is ARGV[5]).
-- KEYS: failed. ARGV: from, to, page, job prefix, reason, field. Job hashes (ARGV[4] .. id)
-- share the failed set's hash tag (one slot on a cluster).
local page = tonumber(ARGV[3])
local read = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES', 'LIMIT', 0, page)
local out = {'', 0}
if #read >= 2 * page then
  out[2] = 1
  local last = read[#read]
  local tail = 0
  for i = #read, 2, -2 do
    if read[i] ~= last then break end
    tail = tail + 1
  end
  local rest = redis.call('ZRANGEBYSCORE', KEYS[1], last, last, 'WITHSCORES', 'LIMIT', tail, -1)
  for i = 1, #rest do read[#read + 1] = rest[i] end
end
for i = 1, #read, 2 do
  out[1] = read[i + 1]
  if redis.call('HGET', ARGV[4] .. read[i], ARGV[6]) == ARGV[5] then
    table.insert(out, read[i])
    table.insert(out, read[i + 1])
  end
end
return out
