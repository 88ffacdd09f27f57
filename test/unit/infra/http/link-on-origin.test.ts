import { describe, expect, it } from "vitest";
import { isOnOrigin, linkOnOrigin } from "../../../../src/infra/http/link-on-origin.js";

const BASE = "https://pim.example.com/api/rest/v1/";

describe("linkOnOrigin", () => {
  it.each([
    [
      "a link on the configured origin",
      "https://pim.example.com/api/rest/v1/attributes?page=2",
      "https://pim.example.com/api/rest/v1/attributes?page=2",
      false,
    ],
    ["a relative link", "attributes?page=2", "https://pim.example.com/api/rest/v1/attributes?page=2", false],
    [
      "an http link behind a TLS-terminating proxy (no downgrade)",
      "http://pim.example.com/api/rest/v1/attributes?page=2",
      "https://pim.example.com/api/rest/v1/attributes?page=2",
      true,
    ],
    [
      "another host (a wrong Host header)",
      "https://internal-node:8080/api/rest/v1/attributes?page=2",
      "https://pim.example.com/api/rest/v1/attributes?page=2",
      true,
    ],
    [
      "another port",
      "https://pim.example.com:8443/api/rest/v1/attributes?search_after=x",
      "https://pim.example.com/api/rest/v1/attributes?search_after=x",
      true,
    ],
    [
      "credentials in the link",
      "https://user:pw@evil.example/api/rest/v1/attributes",
      "https://pim.example.com/api/rest/v1/attributes",
      true,
    ],
  ])("%s", (_what, href, url, rewritten) => {
    expect(linkOnOrigin(href, BASE)).toEqual({ url, rewritten });
  });

  it("drops the fragment and keeps the query as sent", () => {
    expect(linkOnOrigin("http://x/api?a=1&b=%2F#frag", BASE).url).toBe("https://pim.example.com/api?a=1&b=%2F");
  });
});

describe("isOnOrigin", () => {
  it("accepts paths and same-origin URLs, refuses any other scheme, host or port", () => {
    expect(isOnOrigin("attributes", BASE)).toBe(true);
    expect(isOnOrigin("https://pim.example.com/x", BASE)).toBe(true);
    expect(isOnOrigin("http://pim.example.com/x", BASE)).toBe(false);
    expect(isOnOrigin("https://pim.example.com:444/x", BASE)).toBe(false);
    expect(isOnOrigin("//evil.example/x", BASE)).toBe(false);
  });
});
