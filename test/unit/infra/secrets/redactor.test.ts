import { describe, expect, it } from "vitest";
import { createRedactor, REDACTED, redactSecrets } from "../../../../src/infra/secrets/redactor.js";
import { MIN_SECRET_CHARS } from "../../../../src/infra/secrets/secret-forms.js";

const SECRET = 's3cr3t/pa+ss wörd"x';

/** Every spelling an echoing upstream is known to use. */
function spellings(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  return [
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ v: secret }).toString().slice(2),
    json,
    json.replaceAll("/", "\\/"),
    JSON.stringify(JSON.stringify({ password: secret })),
  ];
}

describe("createRedactor", () => {
  const redactor = createRedactor({ secrets: [SECRET] });

  it.each(spellings(SECRET))("removes the spelling %s", (spelling) => {
    const out = redactor.redact(`before ${spelling} after`);
    expect(out).toContain(REDACTED);
    expect(out).not.toContain(spelling);
  });

  it("removes the secret base64'd inside a longer text, at every byte alignment, in both alphabets", () => {
    for (const prefix of ["", "a", "ab", "abc"]) {
      const whole = Buffer.from(`${prefix}${SECRET}-and-more`, "utf8");
      for (const encoded of [whole.toString("base64"), whole.toString("base64url")]) {
        const out = redactor.redact(encoded);
        expect(out).toContain(REDACTED);
        // At most one character at each end of the encoded secret stays.
        const inner = Buffer.from(SECRET, "utf8").toString("base64").slice(2, -3);
        expect(out.replaceAll(REDACTED, "|")).not.toContain(inner.slice(0, 6));
      }
    }
  });

  it("removes a Basic pair", () => {
    const pair = Buffer.from("some-client:the-client-secret").toString("base64");
    expect(createRedactor({ secrets: [], basicPairs: [["some-client", "the-client-secret"]] }).redact(`Basic ${pair}`)).toBe(
      `Basic ${REDACTED}`,
    );
  });

  it(`leaves secrets shorter than ${MIN_SECRET_CHARS} characters alone (they would blank everything)`, () => {
    const short = createRedactor({ secrets: ["ab", "xyz"] });
    expect(short.empty).toBe(true);
    expect(short.redact("abc xyz")).toBe("abc xyz");
  });

  it("removes a longer secret whole when it contains a shorter one", () => {
    expect(createRedactor({ secrets: ["token", "token-long-part"] }).redact("a token-long-part b")).toBe(`a ${REDACTED} b`);
  });

  it("scrubs an error's message, stack, bodyExcerpt and causes in place", () => {
    const inner = new Error(`inner ${SECRET}`);
    const outer = Object.assign(new Error(`outer ${encodeURIComponent(SECRET)}`, { cause: inner }), { bodyExcerpt: `body ${SECRET}` });
    expect(redactor.redactError(outer)).toBe(outer);
    for (const text of [outer.message, outer.stack ?? "", outer.bodyExcerpt, inner.message, inner.stack ?? ""]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(encodeURIComponent(SECRET));
    }
  });

  it("scrubs values and keys of plain data, leaving the rest as it was", () => {
    const value = { reason: `x ${SECRET}`, list: [1, SECRET, null], [SECRET]: true, nested: { ok: "fine" } };
    expect(redactor.redactValue(value)).toEqual({
      reason: `x ${REDACTED}`,
      list: [1, REDACTED, null],
      [REDACTED]: true,
      nested: { ok: "fine" },
    });
  });

  it("redactSecrets (the former helper) goes through the same implementation", () => {
    expect(redactSecrets(`a ${encodeURIComponent(SECRET)}`, [SECRET, undefined])).toBe(`a ${REDACTED}`);
  });
});
