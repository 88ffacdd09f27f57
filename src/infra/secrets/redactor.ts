import { basicPairForms, formsOf } from "./secret-forms.js";

export const REDACTED = "[redacted]";

/** How deep a cause chain or a nested value is followed (cycles stop there too). */
const MAX_DEPTH = 20;

/**
 * The one implementation that takes secrets out of text: error messages, stacks, log lines,
 * job data and API answers all go through a Redactor (see docs/how-a-sync-works.md, Safety). Upstreams may echo
 * what they were sent (many proxies and frameworks do on 400/500), so every spelling of every
 * secret is removed (see secret-forms.ts).
 */
export interface Redactor {
  /** True when there is nothing to look for: callers may skip the work. */
  readonly empty: boolean;
  redact(text: string): string;
  /** Scrubs message, stack, `bodyExcerpt` and every cause, in place; returns the same error. */
  redactError<E>(error: E): E;
  /** A copy with every string (and key) scrubbed; values without a secret come back unchanged. */
  redactValue<T>(value: T): T;
}

export interface RedactorInput {
  readonly secrets: Iterable<string | undefined>;
  /** HTTP Basic credentials sent as `base64(user:password)`. */
  readonly basicPairs?: Iterable<readonly [string, string]>;
}

export function createRedactor(input: RedactorInput): Redactor {
  const forms = new Set<string>();
  // Each distinct secret once: a fleet's projects often share a login or a token, and every
  // spelling of a secret costs its share of the start (1,000 projects, one service token).
  for (const secret of new Set(input.secrets)) if (secret !== undefined) for (const form of formsOf(secret)) forms.add(form);
  const pairs = new Map<string, readonly [string, string]>();
  for (const pair of input.basicPairs ?? []) pairs.set(`${pair[0]}\u0000${pair[1]}`, pair);
  for (const [user, password] of pairs.values()) for (const form of basicPairForms(user, password)) forms.add(form);
  if (forms.size === 0) return EMPTY_REDACTOR;
  // Longest first: a regex alternation takes the first alternative that matches, so a secret
  // that contains another is removed whole.
  const pattern = new RegExp(
    [...forms]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join("|"),
    "g",
  );
  const redact = (text: string): string => text.replace(pattern, REDACTED);
  return {
    empty: false,
    redact,
    redactError: (error) => scrubError(error, redact),
    redactValue: (value) => scrubValue(value, redact, 0),
  };
}

/** Combines redactors (e.g. the configured secrets and the tokens a client obtained). */
export function combineRedactors(redactors: readonly Redactor[]): Redactor {
  const active = redactors.filter((redactor) => !redactor.empty);
  if (active.length === 0) return EMPTY_REDACTOR;
  if (active.length === 1 && active[0] !== undefined) return active[0];
  const redact = (text: string): string => active.reduce((current, redactor) => redactor.redact(current), text);
  return { empty: false, redact, redactError: (error) => scrubError(error, redact), redactValue: (value) => scrubValue(value, redact, 0) };
}

export const EMPTY_REDACTOR: Redactor = {
  empty: true,
  redact: (text) => text,
  redactError: (error) => error,
  redactValue: (value) => value,
};

/** The former helper's signature, kept for one-off uses: the same implementation underneath. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return createRedactor({ secrets }).redact(text);
}

function scrubError<E>(error: E, redact: (text: string) => string): E {
  const seen = new Set<unknown>();
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && !seen.has(current) && depth < MAX_DEPTH; depth += 1) {
    seen.add(current);
    rewrite(current, "message", redact);
    rewrite(current, "stack", redact);
    rewrite(current, "bodyExcerpt", redact);
    rewrite(current, "failedReason", redact);
    if (current instanceof AggregateError) for (const inner of current.errors) scrubError(inner, redact);
    current = current.cause;
  }
  return error;
}

/** Own or inherited string properties (ZodError's message is a getter) get an own, scrubbed value. */
function rewrite(target: Error, key: string, redact: (text: string) => string): void {
  let value: unknown;
  try {
    value = (target as unknown as Record<string, unknown>)[key];
  } catch {
    return;
  }
  if (typeof value !== "string") return;
  const scrubbed = redact(value);
  if (scrubbed !== value)
    Object.defineProperty(target, key, {
      value: scrubbed,
      writable: true,
      configurable: true,
      enumerable: key !== "stack" && key !== "message",
    });
}

function scrubValue<T>(value: T, redact: (text: string) => string, depth: number): T {
  if (typeof value === "string") return redact(value) as T;
  if (depth >= MAX_DEPTH || value === null || typeof value !== "object") return value;
  if (value instanceof Error) return scrubError(value, redact);
  if (Array.isArray(value)) return value.map((item: unknown) => scrubValue(item, redact, depth + 1)) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[redact(key)] = scrubValue(item, redact, depth + 1);
  return out as T;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}
