import { z } from "zod";
import { pimLocaleToServiceLocale } from "../../core/derive/locale-code.js";

/**
 * Label keys as the service writes them (`en-US`); `en_US` is accepted and normalised. The
 * region is required: PIM locales always have one, so a bare `en` could never match.
 */
const LABEL_KEY = /^[A-Za-z]{2,3}(?:[_-][A-Za-z]{4})?[_-](?:[A-Za-z]{2}|[0-9]{3})$/;
/** The PIM's code rule (options, records, attributes): letters, digits, underscore. */
const PIM_CODE = /^[A-Za-z0-9_]+$/;

const LABEL_KEY_MESSAGE = "label keys must be locale codes with a region, such as en-US (or en_US)";

/**
 * Keys are checked on the input as sent, before the record: zod's records leave a `__proto__`
 * key out without a word (JSON.parse makes it an own key like any other), so a label under it
 * would be dropped and the request accepted. Reported as unrecognized keys, which do not stop
 * the record's own checks: every problem comes back at once, each naming its key.
 */
const labelsSchema = z
  .preprocess(
    (labels, ctx) => {
      if (labels === null || typeof labels !== "object" || Array.isArray(labels)) return labels;
      for (const key of Object.keys(labels)) {
        if (!LABEL_KEY.test(key)) {
          const message = key === "" ? `${LABEL_KEY_MESSAGE}; this one is empty` : LABEL_KEY_MESSAGE;
          ctx.addIssue({ code: "unrecognized_keys", keys: [key], path: [key], message });
        }
      }
      return labels;
    },
    z.record(z.string(), z.string().trim().min(1, "labels must not be empty").max(255, "labels are at most 255 characters")),
  )
  .transform((labels) => {
    // zod runs the transform even when the check above reported a key (its issues do not abort):
    // only checked keys are converted, since the conversion throws a plain Error on a code it
    // cannot read, which every caller would take for a fault of its own instead of bad input.
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(labels)) if (LABEL_KEY.test(key)) out[pimLocaleToServiceLocale(key)] = value;
    return out;
  });

export const addedOptionSchema = z.strictObject({
  name: z
    .string()
    .min(1, "option names must not be empty")
    .max(255, "option names are at most 255 characters")
    .regex(PIM_CODE, "option names may contain only letters, digits and underscores (the PIM code rule)"),
  label: labelsSchema.default({}),
});

/**
 * An add-options request, as enqueued by the CLI or the trigger endpoint and as stored in the
 * job. No secrets. New fields must stay optional: jobs of older versions may still be queued.
 */
export const addOptionsRequestSchema = z
  .strictObject({
    project: z.int().positive(),
    attribute: z.string().regex(PIM_CODE, "attribute must be a PIM attribute code"),
    options: z.array(addedOptionSchema).min(1, "at least one option is needed").max(1000, "at most 1000 options per request"),
    requested_by: z.string().trim().min(1).max(200).optional(),
  })
  .superRefine((request, ctx) => {
    const seen = new Map<string, number>();
    request.options.forEach((option, index) => {
      // The PIM treats codes case-insensitively: `Red` and `red` are one option.
      const key = option.name.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) {
        ctx.addIssue({ code: "custom", path: ["options", index, "name"], message: `'${option.name}' repeats options[${first}]` });
      }
      seen.set(key, index);
    });
  });

export type AddOptionsRequest = z.infer<typeof addOptionsRequestSchema>;
export type AddOptionsRequestInput = z.input<typeof addOptionsRequestSchema>;
