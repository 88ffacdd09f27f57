/**
 * Replaces every occurrence of the given secrets in a text meant for a log line or an error
 * message. Upstream error bodies are quoted in messages, and a proxy or a misconfigured PIM may
 * echo what it was sent; the credentials must never travel further than the request itself.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let redacted = text;
  // Longest first, so that a secret containing another is not left half-visible.
  const known = secrets.filter((secret): secret is string => secret !== undefined && secret.length > 0);
  for (const secret of known.sort((a, b) => b.length - a.length)) {
    redacted = redacted.split(secret).join("[redacted]");
  }
  return redacted;
}
