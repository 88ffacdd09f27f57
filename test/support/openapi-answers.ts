import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { z } from "zod";
import type { TriggerAnswer } from "./trigger-client.js";

const mediaSchema = z.object({ schema: z.record(z.string(), z.unknown()) });
const operationSchema = z.object({
  requestBody: z.object({ content: z.record(z.string(), mediaSchema) }).optional(),
  responses: z.record(z.string(), z.object({ content: z.record(z.string(), mediaSchema).optional() })),
});
const documentSchema = z.object({ paths: z.record(z.string(), z.record(z.string(), z.unknown())) });

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/**
 * Checks real answers against an OpenAPI document: the operation (`POST /v1/jobs/{id}`) must be
 * described, the status among its responses, the media type among that response's, and the body
 * valid against its schema (ajv, JSON Schema 2020-12: OpenAPI 3.1's dialect). A JSON body the
 * server accepted must be valid against the described request body too.
 */
export function openApiAnswers(document: unknown) {
  const { paths } = documentSchema.parse(document);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const compiled = new Map<string, ValidateFunction>();

  /** Every operation the document describes, as `METHOD /path/{param}`. */
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => HTTP_METHODS.has(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

  function validatorOf(key: string, schema: Record<string, unknown>): ValidateFunction {
    const validate = compiled.get(key) ?? ajv.compile(schema);
    compiled.set(key, validate);
    return validate;
  }

  /** Why `answer` (to a request with `sent` as its JSON body, if any) does not match the document's description of `operation`, or null when it does. */
  function mismatch(operation: string, answer: TriggerAnswer, sent?: unknown): string | null {
    const [method = "", path = ""] = operation.split(" ");
    const described = paths[path]?.[method.toLowerCase()];
    if (described === undefined) return `${operation} is not in the description`;
    const { requestBody, responses } = operationSchema.parse(described);
    if (sent !== undefined && typeof sent !== "string" && answer.status < 300) {
      const requestSchema = requestBody?.content["application/json"]?.schema;
      if (requestSchema === undefined) return `${operation} accepted a JSON body it does not describe`;
      const validateRequest = validatorOf(`${operation} request`, requestSchema);
      if (!validateRequest(sent))
        return `${operation} accepted ${JSON.stringify(sent)}, which its request body schema refuses: ${ajv.errorsText(validateRequest.errors)}`;
    }
    const response = responses[String(answer.status)];
    if (response === undefined)
      return `${operation} answered ${answer.status}, which the description does not list (${Object.keys(responses).join(", ")}): ${answer.text}`;
    const mediaType = (answer.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
    const media = response.content?.[mediaType];
    if (media === undefined)
      return `${operation} ${answer.status} answered ${mediaType}, which the description does not list (${Object.keys(response.content ?? {}).join(", ")})`;
    const key = `${operation} ${answer.status} ${mediaType}`;
    const validate = validatorOf(key, media.schema);
    const body: unknown = mediaType === "application/json" ? answer.json : answer.text;
    if (validate(body)) return null;
    return `${key}: ${ajv.errorsText(validate.errors)} in ${answer.text.slice(0, 500)}`;
  }

  return { operations, mismatch };
}
