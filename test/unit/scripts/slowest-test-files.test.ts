import { describe, expect, it } from "vitest";
import { renderSlowestTestFiles, slowestTestFiles } from "../../../scripts/slowest-test-files.js";

function fileResult(name: string, startTime: number, endTime: number, tests: number) {
  return { name, startTime, endTime, status: "passed", message: "", assertionResults: Array.from({ length: tests }, () => ({})) };
}

describe("slowestTestFiles", () => {
  const report = {
    success: true,
    testResults: [
      fileResult("/repo/test/unit/a.test.ts", 1_000, 1_500, 3),
      fileResult("/repo/test/integration/b.test.ts", 1_000, 61_000, 2),
      fileResult("/repo/test/integration/c.test.ts", 2_000, 14_000, 1),
    ],
  };

  it("ranks the files by their time, longest first, and keeps the given count", () => {
    expect(slowestTestFiles(report, 2, "/repo")).toEqual([
      { file: "test/integration/b.test.ts", seconds: 60, tests: 2, status: "passed" },
      { file: "test/integration/c.test.ts", seconds: 12, tests: 1, status: "passed" },
    ]);
  });

  it("renders one aligned line a file", () => {
    expect(renderSlowestTestFiles(slowestTestFiles(report, 3, "/repo")).split("\n")).toEqual([
      "   60.0 s    2 tests  passed  test/integration/b.test.ts",
      "   12.0 s    1 tests  passed  test/integration/c.test.ts",
      "    0.5 s    3 tests  passed  test/unit/a.test.ts",
    ]);
  });

  it("refuses a report that is not vitest's JSON, naming the field", () => {
    expect(() => slowestTestFiles({ testResults: [{ name: "x" }] }, 20, "/repo")).toThrow(/startTime/);
  });
});
