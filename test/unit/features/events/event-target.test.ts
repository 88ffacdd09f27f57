import { describe, expect, it } from "vitest";
import { targetKey, targetOfEvent, targetOfKey } from "../../../../src/features/events/event-target.js";

const event = (type: string, data: unknown) => ({ id: "e1", type: `com.akeneo.pim.v1.${type}`, data });

describe("event targets", () => {
  it("an attribute-option event targets that one option of its attribute", () => {
    expect(targetOfEvent(event("attribute-option.created", { attribute_option: { code: "Teal", attribute: { code: "color" } } }))).toEqual({
      kind: "option",
      attribute: "color",
      code: "Teal",
    });
  });

  it("attribute and record events keep their whole-list targets", () => {
    expect(targetOfEvent(event("attribute.updated", { attribute: { code: "color" } }))).toEqual({ kind: "attribute", code: "color" });
    expect(
      targetOfEvent(
        event("reference-entity-record.deleted", { reference_entity_record: { code: "r", reference_entity: { code: "brand" } } }),
      ),
    ).toEqual({ kind: "reference-entity", code: "brand" });
  });

  it("an option event without its option code names no target, and is unusable (a type pim-sync syncs on)", () => {
    expect(targetOfEvent(event("attribute-option.deleted", { attribute_option: { attribute: { code: "color" } } }))).toMatchObject({
      unusable: true,
    });
    expect(targetOfEvent(event("attribute.updated", {}))).toMatchObject({ unusable: true });
  });

  it("a type pim-sync does not sync on is ignored, not unusable", () => {
    expect(targetOfEvent(event("family.updated", {}))).toEqual({ ignored: "family events change no option collection", unusable: false });
    expect(targetOfEvent(event("product.updated", {}))).toMatchObject({ unusable: false });
  });

  it("option keys are lower case and read back, whatever `:` either code holds", () => {
    const key = targetKey({ kind: "option", attribute: "A:b", code: "X:y:Z" });
    expect(key).toBe("o:a%3Ab:x:y:z");
    expect(targetOfKey(key)).toEqual({ kind: "option", attribute: "a:b", code: "x:y:z" });
    expect(targetOfKey(targetKey({ kind: "attribute", code: "Color" }))).toEqual({ kind: "attribute", code: "color" });
    expect(targetOfKey(targetKey({ kind: "reference-entity", code: "Brand" }))).toEqual({ kind: "reference-entity", code: "brand" });
  });

  it("keys it did not write are no target", () => {
    for (const key of ["o:", "o:color", "o:color:", "o::red", "o:%E0%A4%A:red", "x:color", "a:"]) expect(targetOfKey(key)).toBeNull();
  });
});
