import type { NamingTemplates } from "../core/derive/naming.js";
import type { z } from "zod";
import type { namingSchema } from "./settings-schema.js";

/** The config's `naming` section (snake_case keys) as the templates derivation uses. */
export function namingTemplatesOf(naming: z.output<typeof namingSchema>): NamingTemplates {
  return {
    select: naming.select,
    localizable: naming.localizable,
    scopable: naming.scopable,
    localizableScopable: naming.localizable_scopable,
    unit: naming.unit,
    currency: naming.currency,
  };
}
