/**
 * What pim-sync reads into a PIM answer where Akeneo's API description leaves a property optional
 * and gives it no default. One module, mirrored by "Choices where public sources are silent"
 * (docs/decisions/choices-where-sources-are-silent.md) and decision 0009, so that the day Akeneo
 * documents a default, this is the file to change. Documented defaults (an attribute's
 * `localizable`/`scopable`, a locale's `enabled`: false) are facts and live in pim-schemas.ts.
 */

/**
 * A currency whose answer leaves `enabled` out counts as enabled. pim-sync uses `enabled` only
 * to narrow the selected channels' currencies (a price attribute's `-currency` collection), and
 * the description calls a channel's `currencies` "codes of activated currencies": a currency a
 * channel names is enabled whatever its own answer leaves unsaid. Reading it as disabled would
 * empty the collection and plan deletions from a silence; reading it as enabled can at worst add
 * an option, which the next sync removes once the PIM says otherwise.
 */
export const CURRENCY_ENABLED_WHEN_UNSAID = true;

/**
 * The longest URL (bytes, as sent: scheme, host, path and the encoded query) pim-sync sends the
 * PIM. Akeneo documents no limit, but the proxies and CDNs in front of a PIM refuse long request
 * lines with a 414, some from about 2 KB; a `code IN` search of 100 codes of up to 100
 * characters would be ten times that. Searches by a list of codes are split to stay under it
 * (read-target-structure.ts); the count limit of a page (100) still applies as well.
 */
export const PIM_MAX_URL_BYTES = 2_000;
