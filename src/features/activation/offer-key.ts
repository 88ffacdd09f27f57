import { PimSyncError } from "../../core/errors/pim-sync-error.js";
/** Offers without a usable `offers.key` value, by position (from 1): nothing is sent. */
export class OfferKeyError extends PimSyncError {
  constructor(
    readonly field: string,
    readonly positions: readonly number[],
  ) {
    const shown = positions.slice(0, 10).join(", ") + (positions.length > 10 ? ` and ${positions.length - 10} more` : "");
    super(`offers.key '${field}': offer(s) ${shown} have no '${field}' (a non-empty string or a number); nothing was sent`, {
      code: "OFFER_KEY_MISSING",
      retryable: false,
    });
    this.name = "OfferKeyError";
  }
}

/** The offer's key as text: a non-empty string, or a number's decimal text; null otherwise. */
export function offerKeyOf(offer: unknown, field: string): string | null {
  if (offer === null || typeof offer !== "object" || Array.isArray(offer) || !Object.hasOwn(offer, field)) return null;
  const value = (offer as Record<string, unknown>)[field];
  if (typeof value === "string" && value.trim() !== "") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}
