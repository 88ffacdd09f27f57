import { optionsFromAttributeOptions } from "../../core/derive/index.js";
import type { PimItemReader } from "./confirm-deletions.js";
import type { NamedOptions } from "./named-options.js";

/**
 * Reads each named option of an attribute alone (`GET /attributes/{a}/options/{o}`, side by
 * side: the PIM client's limiter caps the requests in flight). A 404 is the PIM's own answer that
 * the option is gone; any other failure throws, and nothing of the attribute is planned. A code
 * the PIM serves under another spelling is one option (codes compare case-insensitively).
 */
export async function readNamedOptions(args: {
  readonly pim: Pick<PimItemReader, "getAttributeOption">;
  readonly attribute: string;
  readonly codes: readonly string[];
  readonly locales: ReadonlySet<string>;
  readonly signal?: AbortSignal | undefined;
}): Promise<NamedOptions> {
  const { pim, attribute, codes, locales, signal } = args;
  const answers = await Promise.all(codes.map(async (code) => ({ code, option: await pim.getAttributeOption(attribute, code, signal) })));
  const present = answers.flatMap(({ option }) => (option === null ? [] : optionsFromAttributeOptions([option], locales)));
  const gone = answers.flatMap(({ code, option }) => (option === null ? [code] : []));
  return { present, gone };
}
