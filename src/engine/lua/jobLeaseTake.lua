-- Takes the lease for ARGV[1] when it is free, already this job's, or held by a job that has
-- finished (its hash gone, or `finishedOn` set: completed or failed for good — but a job failed
-- for stalling, ARGV[4], is finished only once its log says its failure was told). ARGV[3] is the
-- queue's key prefix, so the holder's job hash is ARGV[3] .. holder. The log is the job's progress
-- (stepLog.ts), JSON as BullMQ keeps it.
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then
  local job = ARGV[3] .. holder
  if redis.call('EXISTS', job) == 1 then
    if not redis.call('HGET', job, 'finishedOn') then return 0 end
    if redis.call('HGET', job, 'failedReason') == ARGV[4] then
      local log = redis.call('HGET', job, 'progress') or ''
      if not string.find(log, '"failedTold":true', 1, true) then return 0 end
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
