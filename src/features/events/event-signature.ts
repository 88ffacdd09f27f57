import { createHmac, timingSafeEqual } from "node:crypto";

/** The signature headers of the Event Platform (lower case, as Node gives them). */
export const SIGNATURE_HEADERS = ["x-akeneo-signature-primary", "x-akeneo-signature-secondary"] as const;

/** The hex HMAC-SHA256 of the raw body, as the Event Platform signs it. */
export function signBody(body: Buffer | string, secret: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

/**
 * Whether any signature the request carries is the body's HMAC under any configured secret.
 * Either header against either secret: while a secret is rotated, the platform and this config
 * change at different times. Compared in constant time over equal-length buffers.
 */
export function signatureMatches(rawBody: Buffer, signatures: readonly (string | undefined)[], secrets: readonly string[]): boolean {
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(signBody(rawBody, secret), "utf8");
    for (const signature of signatures) {
      if (signature === undefined) continue;
      const given = Buffer.from(signature.trim().toLowerCase(), "utf8");
      // Every pair is compared, so the time taken says nothing of which one matched.
      if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
    }
  }
  return matched;
}
