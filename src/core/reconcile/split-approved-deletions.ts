import { codeKey } from "../derive/code-key.js";

/**
 * The deletions a tripped guard lets through because an admin approved them, and the rest,
 * which stay held. Only names both planned now and approved go: an approved name the PIM has
 * again is not planned, and a name planned now that nobody approved is held again.
 */
export function splitApprovedDeletions(
  removed: readonly string[],
  approved: ReadonlySet<string>,
): { readonly deletes: string[]; readonly held: string[] } {
  const approvedKeys = new Set([...approved].map(codeKey));
  const deletes: string[] = [];
  const held: string[] = [];
  for (const name of removed) (approved.has(name) || approvedKeys.has(codeKey(name)) ? deletes : held).push(name);
  return { deletes, held };
}
