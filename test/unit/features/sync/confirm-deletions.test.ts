import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { createDeletionCheck, type PimItemReader } from "../../../../src/features/sync/confirm-deletions.js";

const CHECK = fileURLToPath(new URL("../../../../src/features/sync/confirm-deletions.ts", import.meta.url));
const DOMAIN = fileURLToPath(new URL("../../../../src/core/domain/option-collection.ts", import.meta.url));
const CURRENCIES = `| { readonly kind: "currencies" }`;

/** The compiler's errors in confirm-deletions.ts when option-collection.ts is read through `edit`. */
function errorsInCheck(edit: (domain: string) => string): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    noImplicitReturns: true,
    noFallthroughCasesInSwitch: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (path) => {
    const text = readFile(path);
    return path === DOMAIN && text !== undefined ? edit(text) : text;
  };
  const program = ts.createProgram([CHECK], options, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(CHECK))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

describe("the deletion check decides by every kind of source", () => {
  it("compiles as it is", () => {
    expect(errorsInCheck((domain) => domain)).toEqual([]);
  }, 60_000);

  it("does not compile when OptionSource gains a kind it has no case for", () => {
    const withNewKind = (domain: string): string => {
      expect(domain).toContain(CURRENCIES);
      return domain.replace(CURRENCIES, `${CURRENCIES}\n  | { readonly kind: "asset-families"; readonly family: string }`);
    };
    expect(errorsInCheck(withNewKind).join("\n")).toMatch(/asset-families.*not assignable to parameter of type 'never'/);
  }, 60_000);
});

describe("createDeletionCheck", () => {
  const pim: PimItemReader & { asked: string[] } = {
    asked: [],
    getAttributeOption(attribute, code) {
      this.asked.push(`${attribute}/${code}`);
      return Promise.resolve(code === "red" ? { code, attribute, labels: {} } : null);
    },
    getRecord(entity, code) {
      this.asked.push(`${entity}/${code}`);
      return Promise.resolve(code === "acme" ? { code, labels: {} } : null);
    },
  };

  it("asks the PIM for attribute options and records, and names what it still serves", async () => {
    pim.asked = [];
    expect(await createDeletionCheck(pim, { kind: "attribute-options", attribute: "color" }).namesStillInPim(["red", "blue"])).toEqual([
      "red",
    ]);
    expect(
      await createDeletionCheck(pim, { kind: "reference-entity-records", referenceEntity: "brand" }).namesStillInPim(["acme", "gone"]),
    ).toEqual(["acme"]);
    expect(pim.asked).toEqual(["color/red", "color/blue", "brand/acme", "brand/gone"]);
  });

  it("confirms units and currencies without asking (they are read whole with the structure)", async () => {
    pim.asked = [];
    expect(await createDeletionCheck(pim, { kind: "currencies" }).namesStillInPim(["EUR"])).toEqual([]);
    expect(await createDeletionCheck(pim, { kind: "measurement-units", measurementFamily: "Length" }).namesStillInPim(["METER"])).toEqual(
      [],
    );
    expect(pim.asked).toEqual([]);
  });
});
