import { redisScript } from "../redis/redis-script.js";

/**
 * The shared budgets' Lua scripts. Every script reads the time from Redis (TIME), so the
 * processes of a fleet count on one clock whatever their own clocks say. Times are in
 * milliseconds with microsecond fractions.
 *
 * The window (a sorted set) holds one member per request: while the request is in flight its
 * score is the end of its lease (renewed while the process lives), once answered the time of
 * the answer. A member leaves the window `windowMs` after its score: a request counts from the
 * moment it may start until a window after its answer, as the in-process sliding window does
 * (src/infra/http/sliding-window-limiter.ts), and a killed process's requests leave a window after
 * their lease ran out.
 */
const NOW = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
`;

/**
 * KEYS: window, pause, urgent. ARGV: limit, windowMs, leaseMs, member, urgent (1 or 0), reserve.
 * 0: taken. >0: wait this many ms (until enough answered requests have left the window).
 * -1: the requests that must leave first are in flight: room comes back when one is answered.
 * {'pause', ms}: the budget is paused for this many ms more (told apart from a window's wait,
 * since a pause longer than `http.max_retry_after_ms` is refused rather than waited for).
 *
 * Urgent requests (a small job's, request-urgency.ts) go ahead: one that finds no room marks the
 * budget (the urgent key), and while the mark is there the others leave the last `reserve`
 * requests of the window to it. The mark goes when an urgent request is granted (another still
 * waiting marks it again at its next ask) or a window and a margin after the last refused ask
 * (a caller that left). So an urgent request takes the next room that opens, in whichever
 * process, and the others keep the rest: the reserve is held back only while a small job waits.
 */
export const takeRequestScript = redisScript(`${NOW}
local paused = redis.call('PTTL', KEYS[2])
if paused > 0 then return {'pause', paused} end
local limit, windowMs, leaseMs = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local urgent = ARGV[5] == '1'
local room = limit
if not urgent and redis.call('EXISTS', KEYS[3]) == 1 then room = limit - tonumber(ARGV[6]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - windowMs)
local count = redis.call('ZCARD', KEYS[1])
if count < room then
  redis.call('ZADD', KEYS[1], now + leaseMs, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], math.ceil(leaseMs + windowMs + 1000))
  if urgent then redis.call('DEL', KEYS[3]) end
  return 0
end
if urgent then redis.call('SET', KEYS[3], '1', 'PX', math.ceil(windowMs + 250)) end
local first = count - room
local leaving = tonumber(redis.call('ZRANGE', KEYS[1], first, first, 'WITHSCORES')[2])
if leaving > now then return -1 end
return math.max(1, math.ceil(leaving + windowMs - now))
`);

/** KEYS: window. ARGV: member, ttlMs. The request was answered: it ages out of the window from now. */
export const settleRequestScript = redisScript(`${NOW}
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`);

/** KEYS: a window or a slot set. ARGV: member, leaseMs, ttlMs. Extends a held lease (not an answered request's). */
export const renewLeaseScript = redisScript(`${NOW}
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) > now - 1 then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 1
end
return 0
`);

/** KEYS: slots. ARGV: limit, leaseMs, member. 0: taken; -1: every slot is held. */
export const takeSlotScript = redisScript(`${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) * 2))
  return 0
end
return -1
`);

/**
 * KEYS: pause. ARGV: ms. Pauses the budget for every process, never shortening a longer pause
 * (the caller caps `ms` at `http.max_retry_after_ms`).
 */
export const pauseScript = redisScript(`
local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 0
`);
