/**
 * SHA-256 of a catalogue's JSON, fed piece by piece: one JSON string of the whole 1M-option
 * catalogue would be hundreds of megabytes. Key order is the generator's, which is fixed, so the
 * same catalogue always hashes the same; results carry the hash so a reader can check that they
 * benchmarked the same input.
 */
import { createHash } from "node:crypto";
import type { SimCatalog } from "../../sim/catalog/catalog-file.js";

export function hashCatalog(catalog: SimCatalog): string {
  const hash = createHash("sha256");
  const { attribute_options: options, reference_entity_records: records, ...rest } = catalog.pim;
  hash.update(JSON.stringify(rest));
  for (const [code, list] of Object.entries(options)) {
    hash.update(`\n${code}:`);
    for (const option of list) hash.update(JSON.stringify(option));
  }
  for (const [code, list] of Object.entries(records)) {
    hash.update(`\n${code}:`);
    for (const record of list) hash.update(JSON.stringify(record));
  }
  hash.update(JSON.stringify(catalog.service));
  return hash.digest("hex");
}
