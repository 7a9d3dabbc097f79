-- A job's fenced step-log write with its outcome kept pending (pendingTellings.ts).
-- KEYS: job, lock, index, messages. ARGV: token, lockMs, log, field, jobId, at, telling, then
-- the ids confirmed told since.
-- Answers 1, or 0 (nothing written) when the lock is not the run's.
--- @include "fence"
--- @include "pending"
if not fenced(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[4], ARGV[3]) then return 0 end
keepPending(KEYS[3], KEYS[4], ARGV[5], ARGV[6], ARGV[7], 8)
return 1
