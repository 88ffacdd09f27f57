import { z } from "zod";
import { PIM_EVENT_TYPE_PREFIX, type PimEvent } from "./pim-event.js";

/**
 * What one event asks pim-sync to look at again:
 * - `attribute`: the attribute's definition and all its options (every collection it derives),
 *   for attribute and attribute-option events;
 * - `reference-entity`: the entity's records, for every attribute that links to it.
 */
export type EventTarget = { readonly kind: "attribute"; readonly code: string } | { readonly kind: "reference-entity"; readonly code: string };

/** Why an event names no target (recorded, and otherwise ignored). */
export type IgnoredEvent = { readonly ignored: string };

const code = z.string().trim().min(1).max(255);
const attributeData = z.object({ attribute: z.object({ code }) });
const optionData = z.object({ attribute_option: z.object({ code, attribute: z.object({ code }) }) });
const recordData = z.object({ reference_entity_record: z.object({ code, reference_entity: z.object({ code }) }) });

/**
 * The target of an event, or why it has none. Only the resource matters, not the change:
 * created, updated and deleted all mean "read it again", and the read shows what happened, so
 * events arriving twice or out of order end in the same state.
 */
export function targetOfEvent(event: PimEvent): EventTarget | IgnoredEvent {
  if (!event.type.startsWith(PIM_EVENT_TYPE_PREFIX)) return { ignored: "not a PIM event type" };
  const resource = event.type.slice(PIM_EVENT_TYPE_PREFIX.length).split(".")[0];
  switch (resource) {
    case "attribute": {
      const data = attributeData.safeParse(event.data);
      return data.success ? { kind: "attribute", code: data.data.attribute.code } : { ignored: "data.attribute.code missing" };
    }
    case "attribute-option": {
      const data = optionData.safeParse(event.data);
      return data.success ? { kind: "attribute", code: data.data.attribute_option.attribute.code } : { ignored: "data.attribute_option.attribute.code missing" };
    }
    case "reference-entity-record": {
      const data = recordData.safeParse(event.data);
      return data.success ? { kind: "reference-entity", code: data.data.reference_entity_record.reference_entity.code } : { ignored: "data.reference_entity_record.reference_entity.code missing" };
    }
    case "family":
      // Families only group select fields; no option collection depends on them.
      return { ignored: "family events change no option collection" };
    default:
      return { ignored: "not an event type pim-sync acts on" };
  }
}

/** The target as a field of the project's pending set. Codes are case-insensitive in the PIM. */
export function targetKey(target: EventTarget): string {
  return `${target.kind === "attribute" ? "a" : "e"}:${target.code.toLowerCase()}`;
}

export function targetOfKey(key: string): EventTarget | null {
  const code = key.slice(2);
  if (code === "") return null;
  if (key.startsWith("a:")) return { kind: "attribute", code };
  if (key.startsWith("e:")) return { kind: "reference-entity", code };
  return null;
}
