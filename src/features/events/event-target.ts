import { z } from "zod";
import { PIM_EVENT_TYPE_PREFIX, type PimEvent } from "./pim-event.js";

/**
 * What one event asks pim-sync to look at again:
 * - `attribute`: the attribute's definition and all its options (every collection it derives),
 *   for attribute events;
 * - `option`: one option of an attribute (and the attribute's definition), for attribute-option
 *   events; read alone unless its attribute is read whole anyway (see syncTargetsOf);
 * - `reference-entity`: the entity's records, for every attribute that links to it.
 */
export type EventTarget =
  | { readonly kind: "attribute"; readonly code: string }
  | { readonly kind: "option"; readonly attribute: string; readonly code: string }
  | { readonly kind: "reference-entity"; readonly code: string };

/**
 * Why an event names no target (recorded, and otherwise ignored). `unusable`: the type is one
 * pim-sync syncs on but `data` lacks the codes it needs, which says something is wrong upstream
 * (a changed payload, a sender that is not the platform): operators are told, unlike for a type
 * pim-sync has no use for.
 */
export type IgnoredEvent = { readonly ignored: string; readonly unusable: boolean };

const notSynced = (why: string): IgnoredEvent => ({ ignored: why, unusable: false });
const unusable = (why: string): IgnoredEvent => ({ ignored: why, unusable: true });

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
  if (!event.type.startsWith(PIM_EVENT_TYPE_PREFIX)) return notSynced("not a PIM event type");
  const resource = event.type.slice(PIM_EVENT_TYPE_PREFIX.length).split(".")[0];
  switch (resource) {
    case "attribute": {
      const data = attributeData.safeParse(event.data);
      return data.success ? { kind: "attribute", code: data.data.attribute.code } : unusable("data.attribute.code missing");
    }
    case "attribute-option": {
      const data = optionData.safeParse(event.data);
      if (!data.success) return unusable("data.attribute_option.code or data.attribute_option.attribute.code missing");
      const option = data.data.attribute_option;
      return { kind: "option", attribute: option.attribute.code, code: option.code };
    }
    case "reference-entity-record": {
      const data = recordData.safeParse(event.data);
      return data.success
        ? { kind: "reference-entity", code: data.data.reference_entity_record.reference_entity.code }
        : unusable("data.reference_entity_record.reference_entity.code missing");
    }
    case "family":
      // Families only group select fields; no option collection depends on them.
      return notSynced("family events change no option collection");
    default:
      return notSynced("not an event type pim-sync acts on");
  }
}

/**
 * The target as a field of the project's pending set. Codes are case-insensitive in the PIM, so
 * keys are lower case. In an option's key the attribute is percent-encoded, so the first `:`
 * after it ends it whatever characters either code holds.
 */
export function targetKey(target: EventTarget): string {
  switch (target.kind) {
    case "attribute":
      return `a:${target.code.toLowerCase()}`;
    case "option":
      return `o:${encodeURIComponent(target.attribute.toLowerCase())}:${target.code.toLowerCase()}`;
    case "reference-entity":
      return `e:${target.code.toLowerCase()}`;
  }
}

export function targetOfKey(key: string): EventTarget | null {
  const rest = key.slice(2);
  if (rest === "") return null;
  if (key.startsWith("a:")) return { kind: "attribute", code: rest };
  if (key.startsWith("e:")) return { kind: "reference-entity", code: rest };
  if (key.startsWith("o:")) {
    const end = rest.indexOf(":");
    if (end <= 0 || end === rest.length - 1) return null;
    try {
      return { kind: "option", attribute: decodeURIComponent(rest.slice(0, end)), code: rest.slice(end + 1) };
    } catch {
      // Not written by targetKey: left out like any field it does not know.
      return null;
    }
  }
  return null;
}
