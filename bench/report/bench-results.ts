/**
 * The shape of `npm run bench -- --json` and of `bench/results/<date>.json`. A zod schema rather
 * than a bare interface because earlier result files are read back (to merge runs of single
 * sizes made the same day) and a file from an older version must not be trusted blindly.
 */
import { z } from "zod";
import { CATALOG_SIZE_NAMES } from "../catalog/catalog-sizes.js";
import { FIGURE_KEYS } from "./figures.js";

// Figures added since a results file was written read back as not measured.
const figureValue = z.number().nullable().default(null);
const figuresShape = Object.fromEntries(FIGURE_KEYS.map((key) => [key, figureValue])) as Record<
  (typeof FIGURE_KEYS)[number],
  typeof figureValue
>;
export const figuresSchema = z.object(figuresShape);

const measurementGroupSchema = z.record(z.string(), z.union([z.number(), z.string(), z.null()]));

export const catalogFactsSchema = z.object({
  seed: z.number(),
  sha256: z.string(),
  attributes: z.number(),
  select_attributes: z.number(),
  reference_entity_attributes: z.number(),
  options: z.number(),
  max_options: z.number(),
  attributes_over_20k: z.number(),
  records: z.number(),
  collections: z.number(),
  generate_s: z.number(),
});

export const sizeResultSchema = z.object({
  size: z.enum(CATALOG_SIZE_NAMES),
  ran_at: z.string(),
  catalog: catalogFactsSchema,
  figures: figuresSchema,
  measurements: z.record(z.string(), measurementGroupSchema),
  notes: z.array(z.string()),
});

export const machineSchema = z.object({
  cores: z.number(),
  cpu: z.string(),
  memory_gb: z.number(),
  node: z.string(),
  platform: z.string(),
});

const verdictSchema = z.object({ target: z.string().nullable(), value: z.number().nullable(), met: z.boolean().nullable() });

export const benchResultsSchema = z.object({
  date: z.string(),
  generated_at: z.string(),
  latency_ms: z.number(),
  seed: z.number(),
  machine: machineSchema,
  ...figuresShape,
  targets: z.record(z.string(), verdictSchema),
  sizes: z.partialRecord(z.enum(CATALOG_SIZE_NAMES), sizeResultSchema),
});

export type CatalogFacts = z.infer<typeof catalogFactsSchema>;
export type SizeResult = z.infer<typeof sizeResultSchema>;
export type MachineInfo = z.infer<typeof machineSchema>;
export type BenchResults = z.infer<typeof benchResultsSchema>;
