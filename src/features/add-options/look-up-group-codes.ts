import { pimTargetOf, type AttributeGroup } from "./attribute-group.js";
import { lookUpPimCodes, type PimOptionReader } from "./pim-option-lookup.js";

/** Per attribute code: the PIM's own spelling of each option it has, by lower-cased name. */
export type PimCodesByAttribute = ReadonlyMap<string, ReadonlyMap<string, string>>;

/**
 * The PIM check, asked once per attribute before any write. An option the PIM already has is
 * either one an earlier run added (its answer lost, so it is not in the state) or one created
 * PIM-side: the collection gets it through update-options, an idempotent upsert, under the PIM's
 * own spelling of the code (the PIM compares codes case-insensitively: a request for `Teal` when
 * the PIM has `teal` must write `teal`, or the next sync would see two options). add-options is
 * kept for options the PIM lacks, and is never sent twice for the same option.
 */
export async function lookUpGroupCodes(
  pim: PimOptionReader,
  groups: Iterable<AttributeGroup>,
  signal?: AbortSignal,
): Promise<PimCodesByAttribute> {
  return new Map(
    await Promise.all(
      [...groups].map(async (group) => {
        const names = group.requests.flatMap(({ request }) => request.options.map((option) => option.name));
        return [group.attribute.code, await lookUpPimCodes(pim, pimTargetOf(group), names, signal)] as const;
      }),
    ),
  );
}
