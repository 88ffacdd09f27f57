import { describe, expect, it } from "vitest";
import { parseJobRef } from "../../../../src/jobs/admin/job-admin.js";

describe("parseJobRef", () => {
  it("reads <project>/<id>", () => {
    expect(parseJobRef("67/12", [67, 99])).toEqual({ project: 67, id: "12" });
    expect(parseJobRef(" 99/add-abc ", [67, 99])).toEqual({ project: 99, id: "add-abc" });
    expect(parseJobRef("67/repeat:sync-schedule:1795348300000", [67])).toEqual({ project: 67, id: "repeat:sync-schedule:1795348300000" });
  });

  it("accepts a bare id when one project is configured, and not otherwise", () => {
    expect(parseJobRef("12", [67])).toEqual({ project: 67, id: "12" });
    expect(() => parseJobRef("12", [67, 99])).toThrow(/needs its project/);
  });

  it("rejects what is not a reference", () => {
    expect(() => parseJobRef("67/", [67])).toThrow(/not a job reference/);
    expect(() => parseJobRef("67/a b", [67])).toThrow(/not a job reference/);
    expect(() => parseJobRef("", [67])).toThrow(/not a job reference/);
  });
});
