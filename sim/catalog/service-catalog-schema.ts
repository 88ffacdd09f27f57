/**
 * The configuration-service half of the simulator catalogue: projects and their option
 * collections, with options in the service's shape (labels keyed `en-US`).
 */
import { z } from "zod";

/**
 * BCP-47-ish keys as the service's own examples use them (`en-US`, `zh-Hant-TW`, `es-419`).
 * Shared with the update-options validation so that a catalogue can only hold what the API accepts.
 */
export const SERVICE_LABEL_KEY = /^[a-z]{2,3}(-[A-Z][a-z]{3})?(-[A-Z]{2}|-[0-9]{3})?$/;

const serviceOptionSchema = z.strictObject({
  name: z.string().min(1),
  label: z.record(z.string().regex(SERVICE_LABEL_KEY, { error: "label keys look like en-US" }), z.string().min(1)).default({}),
});

const collectionSchema = z.strictObject({
  id: z.number().int().positive(),
  name: z.string().min(1),
  project: z.number().int().positive(),
  options: z.array(serviceOptionSchema).default([]),
});

export const serviceCatalogSchema = z
  .strictObject({
    projects: z.array(z.number().int().positive()).default([]),
    collections: z.array(collectionSchema).default([]),
  })
  .superRefine((service, ctx) => {
    const projects = new Set(service.projects);
    const ids = new Set<number>();
    const names = new Set<string>();
    service.collections.forEach((collection, index) => {
      const issue = (path: (string | number)[], message: string): void => {
        ctx.addIssue({ code: "custom", path: ["collections", index, ...path], message });
      };
      if (!projects.has(collection.project)) issue(["project"], `unknown project ${collection.project}`);
      if (ids.has(collection.id)) issue(["id"], `duplicate collection id ${collection.id}`);
      ids.add(collection.id);
      const scopedName = `${collection.project}/${collection.name}`;
      if (names.has(scopedName)) issue(["name"], `duplicate collection "${collection.name}" in project ${collection.project}`);
      names.add(scopedName);
      const optionNames = new Set<string>();
      collection.options.forEach((option, at) => {
        if (optionNames.has(option.name)) issue(["options", at, "name"], `duplicate option "${option.name}"`);
        optionNames.add(option.name);
      });
    });
  });

export type ServiceCatalog = z.output<typeof serviceCatalogSchema>;
