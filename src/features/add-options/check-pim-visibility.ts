import { setTimeout as sleep } from "node:timers/promises";
import { AddedOptionsNotInPim } from "./added-options-not-in-pim.js";
import { pimTargetOf, type AttributeGroup, type PimOptionTarget } from "./attribute-group.js";
import type { BatchBook } from "./batch-book.js";
import type { PimCodesByAttribute } from "./look-up-group-codes.js";
import { lookUpPimCodes, type PimOptionReader } from "./pim-option-lookup.js";

/**
 * The PIM's lists and reads are eventually consistent: how long to wait for the options to show
 * (`add_options.visibility_attempts` and `visibility_delay_ms`).
 */
export interface VisibilityCheck {
  readonly attempts: number;
  readonly delayMs: number;
}

/**
 * The last step, after the writes: the PIM must show what the service added (which creates the
 * options in the PIM too). A request still in the batch whose options the PIM does not show
 * after the check's attempts is left undecided in `book` (AddedOptionsNotInPim): it runs again.
 * Groups are checked at once.
 */
export async function checkPimVisibility(args: {
  readonly pim: PimOptionReader;
  readonly groups: Iterable<AttributeGroup>;
  readonly codesOf: PimCodesByAttribute;
  readonly book: BatchBook;
  readonly visibility: VisibilityCheck;
  readonly signal?: AbortSignal | undefined;
}): Promise<void> {
  const { book, signal } = args;
  await Promise.all(
    [...args.groups].map(async (group) => {
      const pimCodes = args.codesOf.get(group.attribute.code) ?? new Map<string, string>();
      const spelled = (name: string): string => pimCodes.get(name.toLowerCase()) ?? name;
      const checked = group.requests.filter(({ id }) => !book.isSettled(id));
      const notShown = await namesPimDoesNotShow(
        args.pim,
        pimTargetOf(group),
        checked.flatMap(({ request }) => request.options.map((o) => spelled(o.name))),
        args.visibility,
        signal,
      );
      if (notShown.size === 0) return;
      for (const { id, request } of checked) {
        const names = request.options.map((o) => spelled(o.name)).filter((name) => notShown.has(name.toLowerCase()));
        if (names.length > 0) book.leaveUndecided(id, new AddedOptionsNotInPim(names, request.attribute));
      }
    }),
  );
}

/** Lower-cased names the PIM still does not show after the visibility check's attempts. */
async function namesPimDoesNotShow(
  pim: PimOptionReader,
  target: PimOptionTarget,
  names: readonly string[],
  check: VisibilityCheck,
  signal?: AbortSignal,
): Promise<Set<string>> {
  let pending = [...new Set(names.map((name) => name.toLowerCase()))];
  for (let attempt = 1; ; attempt += 1) {
    const shown = await lookUpPimCodes(pim, target, pending, signal);
    pending = pending.filter((name) => !shown.has(name));
    if (pending.length === 0 || attempt >= check.attempts) return new Set(pending);
    await sleep(check.delayMs, undefined, { signal });
  }
}
