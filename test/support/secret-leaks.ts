/**
 * Which of `secrets` can be read back from `text` in any spelling: as is, JSON-unescaped (once or
 * twice), URL- or form-decoded, or base64/base64url-decoded from any run of base64 characters at
 * any of its alignments. Decoding the text, rather than encoding the secrets, keeps this check
 * independent of the redactor it tests.
 */
export function leakedSecrets(text: string, secrets: readonly string[]): string[] {
  const views = [
    text,
    unescapeJson(text),
    unescapeJson(unescapeJson(text)),
    percentDecode(text),
    percentDecode(text.replaceAll("+", " ")),
    base64Decodings(text),
  ];
  return secrets.filter((secret) => views.some((view) => view.includes(secret)));
}

function unescapeJson(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (_match, escape: string) => {
    if (escape.startsWith("u")) return String.fromCharCode(parseInt(escape.slice(1), 16));
    return ({ b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" } as Record<string, string>)[escape] ?? escape;
  });
}

function percentDecode(text: string): string {
  return text.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

function base64Decodings(text: string): string {
  const decoded: string[] = [];
  for (const run of text.match(/[A-Za-z0-9+/_-]{6,}/g) ?? []) {
    const standard = run.replaceAll("-", "+").replaceAll("_", "/");
    for (let start = 0; start < 4; start += 1) decoded.push(Buffer.from(standard.slice(start), "base64").toString("utf8"));
  }
  return decoded.join("\n");
}
