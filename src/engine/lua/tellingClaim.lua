-- Claims the tellings marked before ARGV[1] (at most ARGV[2]). Of a job that completed, that
-- completed and was trimmed away since (gone), or that failed, the telling is taken out and
-- answered (id, then telling): a run marks its telling only once it has done its work, and no
-- failure is told after that mark (the job's log says the telling began), so a job that stalled
-- out or failed later is told the outcome its run reached. Of a job that runs again, it is left
-- in with the time ARGV[4], to be looked at again (its new run tells, and overwrites it). Job
-- hashes are `ARGV[3] .. id`, in the queue's slot.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(due) do
  if redis.call('ZSCORE', KEYS[3], id) or redis.call('ZSCORE', KEYS[4], id)
    or redis.call('EXISTS', ARGV[3] .. id) == 0 then
    table.insert(out, id)
    table.insert(out, redis.call('HGET', KEYS[2], id) or '')
    redis.call('ZREM', KEYS[1], id)
    redis.call('HDEL', KEYS[2], id)
  else
    redis.call('ZADD', KEYS[1], ARGV[4], id)
  end
end
return out
