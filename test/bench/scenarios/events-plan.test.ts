import { describe, expect, it } from "vitest";
import {
  EVENT_ATTRIBUTES,
  EVENT_BURSTS,
  EVENT_CHANGES,
  eventChangeLabel,
  pickEventAttributes,
  planEventChanges,
  type SelectAttribute,
} from "../../../bench/scenarios/events-plan.js";

const attributesOf = (count: number, options: (index: number) => number): SelectAttribute[] =>
  Array.from({ length: count }, (_, index) => ({
    code: `attr_${index}`,
    options: Array.from({ length: options(index) }, (_, option) => `opt_${index}_${option}`),
  }));

describe("the events scenario's plan", () => {
  it("picks 50 attributes spread evenly over the catalogue's select attributes", () => {
    const picked = pickEventAttributes(attributesOf(150, () => 20));
    expect(picked).toHaveLength(EVENT_ATTRIBUTES);
    expect(picked.slice(0, 3).map((attribute) => attribute.code)).toEqual(["attr_0", "attr_3", "attr_6"]);
    expect(new Set(picked.map((attribute) => attribute.code)).size).toBe(EVENT_ATTRIBUTES);
    expect(() => pickEventAttributes(attributesOf(49, () => 20))).toThrow("needs 50 select attributes");
  });

  it("plans 1,000 changes, 20 per attribute, in 10 bursts of 100, each change's option and label distinct", () => {
    const changes = planEventChanges(attributesOf(EVENT_ATTRIBUTES, () => 40));
    expect(changes).toHaveLength(EVENT_CHANGES);
    expect(changes.map((change) => change.index)).toEqual(changes.map((_, index) => index));
    for (let burst = 0; burst < EVENT_BURSTS; burst += 1) expect(changes.filter((change) => change.burst === burst)).toHaveLength(100);
    const perAttribute = new Map<string, number>();
    for (const change of changes) perAttribute.set(change.attribute, (perAttribute.get(change.attribute) ?? 0) + 1);
    expect([...perAttribute.values()]).toEqual(Array.from({ length: EVENT_ATTRIBUTES }, () => 20));
    expect(new Set(changes.map((change) => `${change.attribute}/${change.option}`)).size).toBe(EVENT_CHANGES);
    expect(new Set(changes.map((change) => change.label)).size).toBe(EVENT_CHANGES);
    expect(changes[999]?.label).toBe(eventChangeLabel(999));
    // Half create options, half relabel existing ones.
    expect(changes.filter((change) => change.kind === "created")).toHaveLength(500);
    expect(changes.filter((change) => change.kind === "updated").every((change) => change.option.startsWith(`opt_`))).toBe(true);
  });

  it("creates options instead for an attribute with fewer options than updates", () => {
    const changes = planEventChanges(attributesOf(EVENT_ATTRIBUTES, (index) => (index === 0 ? 3 : 40)));
    const ofFirst = changes.filter((change) => change.attribute === "attr_0");
    expect(ofFirst.filter((change) => change.kind === "updated").map((change) => change.option)).toEqual(["opt_0_0", "opt_0_1", "opt_0_2"]);
    expect(new Set(ofFirst.map((change) => change.option)).size).toBe(20);
  });
});
