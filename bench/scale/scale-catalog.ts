/**
 * The scale scenario's catalogue: the sample catalogue's PIM (small: 13 collections), and on the
 * service side a copy of project 67's collections for each of the scenario's projects, so that
 * every project has the same small amount of work (the first `collections` of them only, for the
 * large fleet's smaller catalogues).
 */
import type { SimCatalog } from "../../sim/catalog/catalog-file.js";

const TEMPLATE_PROJECT = 67;

export function scaleCatalog(sample: SimCatalog, projects: readonly number[], collections?: number): SimCatalog {
  const template = sample.service.collections
    .filter((collection) => collection.project === TEMPLATE_PROJECT)
    .sort((a, b) => a.id - b.id)
    .slice(0, collections);
  if (template.length === 0) throw new Error(`the sample catalogue has no collections of project ${TEMPLATE_PROJECT}`);
  let nextId = 1;
  return {
    pim: sample.pim,
    service: {
      ...sample.service,
      projects: [...projects],
      collections: projects.flatMap((project) => template.map((collection) => ({ ...structuredClone(collection), id: nextId++, project }))),
    },
  };
}
