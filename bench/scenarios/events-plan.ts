/**
 * The events scenario's pure half (issue 21): which attributes change, which options, in which
 * burst. 1,000 option changes over 50 select attributes, in 10 bursts of 100 (10 attributes, 10
 * changes each): the first five bursts create options, the next five relabel existing ones, so
 * every attribute is touched twice. The scenario (events-scenario.ts) applies and measures them.
 */

export const EVENT_CHANGES = 1_000;
export const EVENT_ATTRIBUTES = 50;
export const EVENT_BURSTS = 10;
const ATTRIBUTES_PER_BURST = 10;
const CHANGES_PER_ATTRIBUTE_AND_BURST = EVENT_CHANGES / (EVENT_BURSTS * ATTRIBUTES_PER_BURST);

export interface SelectAttribute {
  readonly code: string;
  /** Its option codes, as the PIM holds them. */
  readonly options: readonly string[];
}

export interface EventChange {
  /** 0…999; also in the label, which is how the service's write of it is recognised. */
  readonly index: number;
  readonly burst: number;
  readonly attribute: string;
  readonly option: string;
  readonly kind: "created" | "updated";
  /** The label the change gives the option, unique to the change. */
  readonly label: string;
}

/** The label of change `index`: unique, so a write carrying it is the write of that change. */
export function eventChangeLabel(index: number): string {
  return `bench event change ${index}`;
}

/**
 * `count` attributes spread evenly over the catalogue's select attributes (in catalogue order),
 * so that short, long and huge option lists are all represented as they are in the catalogue.
 */
export function pickEventAttributes(attributes: readonly SelectAttribute[], count: number = EVENT_ATTRIBUTES): SelectAttribute[] {
  if (attributes.length < count)
    throw new RangeError(`the events scenario needs ${count} select attributes, the catalogue has ${attributes.length}`);
  return Array.from({ length: count }, (_, index) => attributes[Math.floor((index * attributes.length) / count)]).filter(
    (attribute): attribute is SelectAttribute => attribute !== undefined,
  );
}

/** Every change, in emission order (burst by burst). Updates pick distinct existing options, spread over the list. */
export function planEventChanges(attributes: readonly SelectAttribute[]): EventChange[] {
  if (attributes.length !== EVENT_ATTRIBUTES) throw new RangeError(`expected ${EVENT_ATTRIBUTES} attributes, got ${attributes.length}`);
  const changes: EventChange[] = [];
  const updatesOf = new Map<string, number>();
  const half = EVENT_BURSTS / 2;
  for (let burst = 0; burst < EVENT_BURSTS; burst += 1) {
    const kind = burst < half ? "created" : "updated";
    const first = (burst % half) * ATTRIBUTES_PER_BURST;
    for (const attribute of attributes.slice(first, first + ATTRIBUTES_PER_BURST)) {
      for (let step = 0; step < CHANGES_PER_ATTRIBUTE_AND_BURST; step += 1) {
        const index = changes.length;
        let option = `bench_event_${index}`;
        if (kind === "updated") {
          const nth = updatesOf.get(attribute.code) ?? 0;
          updatesOf.set(attribute.code, nth + 1);
          const count = attribute.options.length;
          // Distinct options, spread over the list; an attribute with fewer options than updates gets new options instead.
          const existing =
            count >= CHANGES_PER_ATTRIBUTE_AND_BURST
              ? attribute.options[Math.floor((nth * count) / CHANGES_PER_ATTRIBUTE_AND_BURST)]
              : attribute.options[nth];
          if (existing !== undefined) option = existing;
        }
        changes.push({
          index,
          burst,
          attribute: attribute.code,
          option,
          kind: option.startsWith("bench_event_") ? "created" : kind,
          label: eventChangeLabel(index),
        });
      }
    }
  }
  return changes;
}
