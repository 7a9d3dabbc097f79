-- An outcome kept until its telling is confirmed (store/fence.ts `PendingTelling`): `telling`
-- kept under `jobId` in `messages`, `jobId` in the index `index` at `at`, and the ids told since
-- (ARGV from `confirmedFrom` on) taken out of both.
local function keepPending(index, messages, jobId, at, telling, confirmedFrom)
  redis.call('ZADD', index, at, jobId)
  redis.call('HSET', messages, jobId, telling)
  if #ARGV >= confirmedFrom then
    redis.call('ZREM', index, unpack(ARGV, confirmedFrom))
    redis.call('HDEL', messages, unpack(ARGV, confirmedFrom))
  end
end
