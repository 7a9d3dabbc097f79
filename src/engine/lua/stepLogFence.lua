-- The step log's fenced write (runLog.ts): checks the lock is the run's and extends it, and
-- writes the log when one is given.
-- KEYS: job, lock. ARGV: token, lockMs, log ('' for none), field.
-- Answers 1, or 0 (nothing written) when the lock is not the run's.
--- @include "fence"
if not fenced(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[4], ARGV[3]) then return 0 end
return 1
