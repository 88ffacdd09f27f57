/**
 * Secrets shorter than this are not looked for. A two-letter password would otherwise blank
 * every "pa" of every message, and in its base64 forms match random text; such a secret gives
 * no protection anyway. Four keeps usernames like `sync` or `akeneo` covered.
 */
export const MIN_SECRET_CHARS = 4;

/**
 * Every spelling under which a secret that was sent may come back in an echoed request: as
 * is, URL-encoded (encodeURIComponent and form encoding, upper and lower-case hex), JSON-escaped
 * (also with `/` escaped, as PHP does, with non-ASCII as `\uXXXX`, and escaped twice, as in a
 * JSON body quoted inside a JSON log line), and base64/base64url at each of the three byte
 * alignments (see base64Cores).
 */
export function formsOf(secret: string): string[] {
  if (secret.length < MIN_SECRET_CHARS) return [];
  const forms = new Set<string>([secret]);
  const encoded = [encodeURIComponent(secret), new URLSearchParams([["", secret]]).toString().slice(1)];
  for (const form of encoded) {
    forms.add(form);
    forms.add(form.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
  }
  const json = JSON.stringify(secret).slice(1, -1);
  forms.add(json);
  forms.add(json.replaceAll("/", "\\/"));
  forms.add(json.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`));
  forms.add(JSON.stringify(json).slice(1, -1));
  for (const core of base64Cores(secret)) forms.add(core);
  return [...forms].filter((form) => form.length >= MIN_SECRET_CHARS);
}

/** `user:pass` as an HTTP Basic header carries it, in base64 (both alphabets). */
export function basicPairForms(user: string, password: string): string[] {
  if (user.length === 0 || password.length < MIN_SECRET_CHARS) return [];
  const base64 = Buffer.from(`${user}:${password}`, "utf8").toString("base64");
  return [base64, base64.replace(/=+$/, ""), toBase64Url(base64)];
}

/**
 * The base64 characters that depend on the secret's bytes alone, for each of the three
 * positions the secret may start at within a longer encoded text (an echoed body base64'd as a
 * whole). Each character carries 6 bits; those that straddle a neighbour's bytes are left out,
 * so at most one character at each end of an encoded secret stays visible.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    const encoded = padded.toString("base64");
    const firstBit = offset * 8;
    const endBit = firstBit + bytes.length * 8;
    const first = Math.ceil(firstBit / 6);
    const end = Math.floor(endBit / 6);
    const core = encoded.slice(first, end);
    cores.push(core, toBase64Url(core));
  }
  return cores;
}

function toBase64Url(base64: string): string {
  return base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
