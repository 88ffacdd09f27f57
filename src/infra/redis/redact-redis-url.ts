/**
 * A Redis URL fit for messages and logs: the password (and a user name, which some managed
 * Redis services treat as part of the credential) is replaced by `***`. Text that does not
 * parse as a URL is not echoed at all, since it may still hold the secret.
 */
export function redactRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(an unparseable Redis URL)";
  }
  if (parsed.password !== "") parsed.password = "***";
  if (parsed.username !== "" && parsed.username !== "default") parsed.username = "***";
  return parsed.toString();
}
