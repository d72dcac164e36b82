/**
 * Each end-to-end file runs in its own worker, two at a time. Servers a file starts (in process or as child
 * processes, which inherit this environment) count rate limits under a prefix of that worker's own, so two
 * files logging in from 127.0.0.1 at once never share a per-IP counter in Redis.
 */
process.env['REDIS_PREFIX'] = `strata-rl-e2e-${process.pid}-`;
