-- Takes the lease for ARGV[1] when it is free, already this job's, or held by a job that has
-- finished (its hash gone, or its finished field set: completed or failed for good — but a job
-- failed for stalling, its reason ARGV[4], is finished only once its log says its failure was
-- told). ARGV[3] is the queue's job prefix, so the holder's job hash is ARGV[3] .. holder; the log
-- is the hash's field ARGV[7] (stepLog.ts), JSON as BullMQ keeps it.
-- KEYS: lease. ARGV: job id, lease ms, job prefix, stalled-out reason, finished field, reason
-- field, log field.
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then
  local job = ARGV[3] .. holder
  if redis.call('EXISTS', job) == 1 then
    if not redis.call('HGET', job, ARGV[5]) then return 0 end
    if redis.call('HGET', job, ARGV[6]) == ARGV[4] then
      local log = redis.call('HGET', job, ARGV[7]) or ''
      if not string.find(log, '"failedTold":true', 1, true) then return 0 end
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
