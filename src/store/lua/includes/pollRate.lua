-- A poller's rate as an integer (polls per 10^12 ms), so adding and removing it is exact.
local function rate(every) return math.floor(1e12 / every) end
