import type { PimClient } from "../../upstreams/pim/pim-client.js";
import { HttpError } from "../../infra/http/http-error.js";
import { planPimCheck } from "./plan-pim-check.js";

export type PimOptionReader = Pick<PimClient, "getAttributeOption" | "getRecord" | "countAttributeOptions" | "attributeOptionPages">;

/** Asking for a count costs a request: below this many names, GETting them is never dearer. */
const COUNT_WORTH_IT_FROM = 3;

/**
 * Which of `names` the PIM has, as a map from lower-cased name to the PIM's own spelling (the
 * PIM compares codes case-insensitively). One answer serves every pending request of an
 * attribute: options are read as the attribute's list when that takes fewer requests than one GET
 * per name (the list reader checks the count it was served against what it read), else GET by
 * name (the client runs them within its in-flight limit). Records are GET by name: the records
 * list has no count to decide on and is paged by cursor, one page after another.
 */
export async function lookUpPimCodes(
  pim: PimOptionReader,
  target: { readonly attribute: string; readonly referenceEntity: string | null; readonly kind: "select" | "reference-entity" },
  names: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  // Lower-cased name → the first spelling asked for (GET by it, as requested).
  const wanted = new Map<string, string>();
  for (const name of names) if (!wanted.has(name.toLowerCase())) wanted.set(name.toLowerCase(), name);
  const present = new Map<string, string>();
  if (wanted.size === 0) return present;
  const { attribute, referenceEntity } = target;
  if (target.kind === "select" && wanted.size >= COUNT_WORTH_IT_FROM) {
    const count = await countOrNull(pim, attribute, signal);
    if (count !== null && planPimCheck(wanted.size, count) === "list") {
      for await (const page of pim.attributeOptionPages(attribute, signal)) {
        for (const option of page) if (wanted.has(option.code.toLowerCase())) present.set(option.code.toLowerCase(), option.code);
      }
      return present;
    }
  }
  const found = await Promise.all(
    [...wanted.values()].map(async (name) =>
      target.kind === "reference-entity" && referenceEntity !== null
        ? ((await pim.getRecord(referenceEntity, name, signal))?.code ?? null)
        : ((await pim.getAttributeOption(attribute, name, signal))?.code ?? null),
    ),
  );
  for (const code of found) if (code !== null) present.set(code.toLowerCase(), code);
  return present;
}

/** An attribute without options answers its list with a 404: then there is nothing to read. */
async function countOrNull(pim: PimOptionReader, attribute: string, signal?: AbortSignal): Promise<number | null> {
  try {
    return await pim.countAttributeOptions(attribute, signal);
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return null;
    throw error;
  }
}
