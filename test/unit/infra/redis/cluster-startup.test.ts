import { describe, expect, it } from "vitest";
import { clusterStartupOf } from "../../../../src/infra/redis/cluster-startup.js";

describe("clusterStartupOf", () => {
  it("takes host and port of each node, and gives every node (discovered ones too) the URLs' credentials", () => {
    expect(clusterStartupOf(["redis://app:p%40ss@10.0.0.1:7000", "redis://app:p%40ss@redis-2.internal"])).toEqual({
      nodes: [
        { host: "10.0.0.1", port: 7000 },
        { host: "redis-2.internal", port: 6379 },
      ],
      redisOptions: { username: "app", password: "p@ss" },
    });
  });

  it("turns TLS on for rediss://, and sets no credentials when the URLs carry none", () => {
    expect(clusterStartupOf(["rediss://[::1]:7001"])).toEqual({ nodes: [{ host: "::1", port: 7001 }], redisOptions: { tls: {} } });
  });
});
