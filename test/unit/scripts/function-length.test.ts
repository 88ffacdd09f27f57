import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * No function in src/ is longer than this many lines, its signature and closing brace included:
 * past it, a function holds more than one concept (issue 39 split the three that did) and is
 * split by concept, not by line count.
 */
const MAX_FUNCTION_LINES = 230;
const root = join(import.meta.dirname, "../../..");

interface FunctionLength {
  readonly where: string;
  readonly name: string;
  readonly lines: number;
}

/** Every function of a source text (declarations, expressions, arrows, methods, accessors) with its length in lines. */
export function functionLengths(fileName: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = node.name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
      found.push({ where: `${fileName}:${first + 1}`, name: named?.getText(source) ?? "(anonymous)", lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("functions in src/ are at most 230 lines", () => {
  it("has none longer", () => {
    const files = readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".ts"));
    const long = files
      .flatMap((name) => functionLengths(join("src", name), readFileSync(join(root, "src", name), "utf8")))
      .filter((fn) => fn.lines > MAX_FUNCTION_LINES)
      .map((fn) => `${fn.where} ${fn.name}: ${fn.lines} lines`);
    expect(files.length).toBeGreaterThan(100);
    expect(long).toEqual([]);
  });

  it("counts a function from its first line to its last, whatever its kind", () => {
    const text = [
      "export function declared(a: number): number {",
      "  const arrow = (b: number) => {",
      "    return b;",
      "  };",
      "  return arrow(a);",
      "}",
      "const expressed = function () {};",
      "class Kept {",
      "  method(): void {",
      "    return;",
      "  }",
      "}",
    ].join("\n");
    expect(functionLengths("x.ts", text).map(({ name, lines }) => [name, lines])).toEqual([
      ["declared", 6],
      ["arrow", 3],
      ["expressed", 1],
      ["method", 3],
    ]);
  });
});
