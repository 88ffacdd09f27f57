/** The tests' own redis-server lives with the benchmark, which starts one too (bench/redis/own-redis-server.ts). */
export * from "../../bench/redis/own-redis-server.js";
