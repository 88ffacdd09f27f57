import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type * as CronParser from "cron-parser";
import { cronExpressionProblem } from "../../../src/settings/cron-expression-problem.js";
import { parseSettings } from "../../../src/settings/load-settings.js";
import { problemsOf } from "../../support/problems-of.js";

const configProblems = (config: unknown): readonly string[] => problemsOf(() => parseSettings(JSON.stringify(config), "test", {}));

const require = createRequire(import.meta.url);
const { CronExpressionParser } = require("cron-parser") as typeof CronParser;

interface Field {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];
const SECOND: Field = { name: "second", min: 0, max: 59 };
const FIVE: readonly Field[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day-of-month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: MONTHS },
  { name: "weekday", min: 0, max: 7, names: DAYS },
];

/** A value of the field as a user may write it: a number, or its name in any case. */
function valueText(field: Field, value: number): fc.Arbitrary<string> {
  const name = field.names?.[value - field.min];
  if (name === undefined) return fc.constant(String(value));
  return fc.constantFrom(String(value), name, name.toLowerCase(), name[0] + name.slice(1).toLowerCase());
}

/** One well-formed list item of a field: `*`, a value or a range, each maybe with a step. */
function validItem(field: Field): fc.Arbitrary<string> {
  const value = fc.integer({ min: field.min, max: field.max });
  const base = fc.oneof(
    fc.constant("*"),
    value.chain((v) => valueText(field, v)),
    fc
      .tuple(value, value)
      .chain(([a, b]) => fc.tuple(valueText(field, Math.min(a, b)), valueText(field, Math.max(a, b))).map(([x, y]) => `${x}-${y}`)),
  );
  const step = fc.option(fc.integer({ min: 1, max: field.max }), { nil: undefined });
  return fc.tuple(base, step).map(([b, s]) => (s === undefined ? b : `${b}/${s}`));
}

const validField = (field: Field): fc.Arbitrary<string> =>
  fc.array(validItem(field), { minLength: 1, maxLength: 3 }).map((items) => items.join(","));

/** A well-formed expression: 5 fields, or 6 with seconds first. */
const validExpression = fc.boolean().chain((seconds) => {
  const fields = seconds ? [SECOND, ...FIVE] : FIVE;
  return fc.tuple(...fields.map(validField)).map((parts) => ({ fields, parts, text: parts.join(" ") }));
});

describe("cronExpressionProblem", () => {
  it("the brief's short patterns are refused, naming the field count", () => {
    expect(cronExpressionProblem("*/15 * * *")).toBe(
      "has 4 fields; give 5 (minute hour day-of-month month weekday) or 6 (a seconds field first)",
    );
    expect(cronExpressionProblem("*/15")).toBe("has 1 field; give 5 (minute hour day-of-month month weekday) or 6 (a seconds field first)");
    expect(cronExpressionProblem("0 0 1 1 * * *")).toMatch(/^has 7 fields/);
  });

  it("every well-formed 5- or 6-field expression is accepted, and the queue's parser reads each field as written", () => {
    fc.assert(
      fc.property(validExpression, ({ text }) => {
        expect(cronExpressionProblem(text)).toBeNull();
        // Whatever we accept, the scheduler's parser reads with no field made up (a short
        // pattern would be padded with `*`): it has as many fields, seconds first.
        let parsed;
        try {
          parsed = CronExpressionParser.parse(text);
        } catch (error) {
          // Refused later at load, by the parser itself: a day no month in the expression has
          // (FEB 30), or a value listed twice (`0,7` in weekdays is Sunday twice).
          expect((error as Error).message).toMatch(/day of month|duplicate values/i);
          return;
        }
        expect(parsed.stringify(true).split(" ")).toHaveLength(6);
      }),
      { numRuns: 2000 },
    );
  });

  it("fewer than 5 or more than 6 fields are refused, whatever the fields hold", () => {
    const fields = fc
      .array(validField(FIVE[0]!), { minLength: 1, maxLength: 9 })
      .filter((parts) => parts.length !== 5 && parts.length !== 6);
    fc.assert(
      fc.property(fields, (parts) => {
        expect(cronExpressionProblem(parts.join(" "))).toMatch(new RegExp(`^has ${parts.length} fields?; give 5`));
      }),
    );
  });

  it("a number outside its field's range is refused, naming the field", () => {
    const outOfRange = validExpression.chain(({ fields, parts }) =>
      fc.tuple(
        fc.constant({ fields, parts }),
        fc.integer({ min: 0, max: fields.length - 1 }),
        fc.oneof(fc.integer({ min: 0, max: 500 }), fc.constant(-1)),
      ),
    );
    fc.assert(
      fc.property(outOfRange, ([{ fields, parts }, index, raw]) => {
        const field = fields[index]!;
        const value = raw === -1 ? field.min - 1 : raw;
        fc.pre(value >= 0 && (value < field.min || value > field.max));
        const edited = parts.map((part, i) => (i === index ? String(value) : part)).join(" ");
        expect(cronExpressionProblem(edited)).toBe(`${field.name} field '${value}': ${value} is outside ${field.min}-${field.max}`);
      }),
    );
  });

  it("a step of 0, beyond the field's largest value, or not a whole number is refused", () => {
    const badStep = fc.oneof(
      fc.constant("0"),
      fc.constant("1.5"),
      fc.constant(""),
      fc.constant("x"),
      fc.integer({ min: 60, max: 1000 }).map(String),
    );
    fc.assert(
      fc.property(validExpression, fc.nat(), badStep, ({ fields, parts }, at, step) => {
        const index = at % fields.length;
        const edited = parts.map((part, i) => (i === index ? `*/${step}` : part)).join(" ");
        expect(cronExpressionProblem(edited)).toMatch(new RegExp(`^${fields[index]!.name} field '\\*/`));
      }),
    );
    expect(cronExpressionProblem("0 */24 * * *")).toBe("hour field '*/24': the step 24 is outside 1-23");
    expect(cronExpressionProblem("*/60 * * * *")).toBe("minute field '*/60': the step 60 is outside 1-59");
  });

  it("backwards ranges, empty list items, misspelt names and cron-parser's extensions are refused", () => {
    const refused: readonly [string, RegExp][] = [
      ["5-2 * * * *", /^minute field '5-2': the range '5-2' runs backwards$/],
      ["0 0 * * FRI-MON", /^weekday field 'FRI-MON': the range 'FRI-MON' runs backwards$/],
      ["0,,5 * * * *", /^minute field '0,,5': an empty list item$/],
      ["0 0 * JANUARY *", /^month field 'JANUARY': 'JANUARY' is not a number 1-12 or a name \(JAN-DEC\)$/],
      ["0 0 * * MON#2", /^weekday field 'MON#2'/],
      ["0 0 L * *", /^day-of-month field 'L'/],
      ["0 0 15W * *", /^day-of-month field '15W'/],
      ["0 0 ? * *", /^day-of-month field '\?'/],
      ["H * * * *", /^minute field 'H'/],
      ["@daily", /^has 1 field/],
      ["1-2-3 * * * *", /^minute field '1-2-3'/],
      ["*/5/2 * * * *", /^minute field '\*\/5\/2': '\*\/5\/2' has more than one step$/],
      ["0 0 0 * *", /^day-of-month field '0': 0 is outside 1-31$/],
      ["0 0 * 13 *", /^month field '13': 13 is outside 1-12$/],
      ["0 0 * * 8", /^weekday field '8': 8 is outside 0-7$/],
      ["60 0 0 * * *", /^second field '60': 60 is outside 0-59$/],
      ["0 MON * * *", /^hour field 'MON': 'MON' is not a number 0-23$/],
    ];
    for (const [expression, expected] of refused) expect(cronExpressionProblem(expression), expression).toMatch(expected);
  });

  it("names, Sunday as 7, surrounding and repeated spaces are accepted", () => {
    for (const expression of [
      "0 3 * * *",
      " 0  3 * *   * ",
      "0 9 * jan-Mar mon-fri",
      "0 0 * * 7",
      "0 */5 * * * *",
      "5/10 * * * *",
      "0 0 1,15 * SUN,sat",
    ]) {
      expect(cronExpressionProblem(expression), expression).toBeNull();
    }
  });
});

describe("schedules in a config", () => {
  const project = (schedule: unknown): Record<string, unknown> => ({
    id: 67,
    pim: { url: "https://pim.example.com", client_id: "c", secret: "s", username: "u", password: "p" },
    service: { url: "https://service.example.com", token: "t" },
    schedule,
  });

  it("a project's short pattern is refused, naming the key and the project", () => {
    expect(configProblems({ projects: [project({ cron: "0 3 * * *" }), { ...project({ cron: "*/15 * * *" }), id: 99 }] })).toEqual([
      "projects[1].schedule.cron (project 99): '*/15 * * *' is not a valid cron expression: has 4 fields; give 5 (minute hour day-of-month month weekday) or 6 (a seconds field first)",
    ]);
  });

  it("a day no month of the expression has is still refused by the queue's parser", () => {
    expect(configProblems({ projects: [project({ cron: "0 0 30 2 *" })] })).toEqual([
      expect.stringMatching(/^projects\[0\]\.schedule\.cron \(project 67\): '0 0 30 2 \*' is not a valid cron expression \(.*day of month/),
    ]);
  });

  it("activation.orders.schedule is checked the same way", () => {
    const activation = (schedule: string): Record<string, unknown> => ({
      url: "https://activation.example",
      pim_connection_id: "pim-1",
      access_token: "token",
      orders: { schedule },
    });
    expect(configProblems({ projects: [project({ cron: "0 3 * * *" })], activation: activation("*/15") })).toEqual([
      "activation.orders.schedule: '*/15' is not a valid cron expression: has 1 field; give 5 (minute hour day-of-month month weekday) or 6 (a seconds field first)",
    ]);
    const accepted = { projects: [project({ cron: "0 3 * * *" })], activation: activation("*/5 * * * *") };
    expect(() => parseSettings(JSON.stringify(accepted), "test", {})).not.toThrow();
  });
});
