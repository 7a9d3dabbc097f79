-- A write fenced by a job's lock (store/fence.ts): made only while `lock` holds the writer's
-- `token`, and extending the lock by `lockMs`. `value` goes to the field `field` of the job's
-- hash `job` ('' writes nothing). Answers false, having written nothing, when the lock is not
-- the writer's.
local function fenced(job, lock, token, lockMs, field, value)
  if redis.call('GET', lock) ~= token then return false end
  redis.call('PEXPIRE', lock, lockMs)
  if value ~= '' then redis.call('HSET', job, field, value) end
  return true
end
